import { describe, expect, it } from 'vitest'
import { E5_MODEL_ID } from '@shared/embeddingModelIds'
import {
  applyGate,
  gateCalibration,
  relevanceOf,
  withAbsentNames,
  withConversationBest,
  withMinRelevance,
  type GateCalibration,
  type GateKind
} from '../../../src/main/services/memory/relevanceGate'

const e5 = gateCalibration(E5_MODEL_ID)

const calibration: GateCalibration = {
  memory: { gate: 0.5, belowBest: 0.1, cap: Infinity },
  thread: { gate: 0.5, belowBest: 0.1, cap: Infinity },
  message: { gate: 0.6, belowBest: 0.1, cap: 2 },
  messageInConversation: { gate: 0.6, belowBest: 0.1, cap: 1 },
  offsets: { chinese: 0.15, crossLingual: -0.05 },
  aboutTheUser: { own: 0.03, reply: 0.12 },
  strongMargin: 0.1,
  absentName: 0.08
}

describe('relevanceOf', () => {
  const signals = { similarity: 0.7, textShare: 0, queryCjk: 0, itemText: 'I like tea.' }

  it('is the calibrated similarity for an English pair without shared words', () => {
    expect(relevanceOf(signals, calibration)).toBe(0.7)
  })

  it('takes the language offset off a Chinese pair and adds it to a cross-lingual one', () => {
    expect(relevanceOf({ ...signals, queryCjk: 1, itemText: '我喜欢喝茶。' }, calibration)).toBe(
      0.55
    )
    expect(relevanceOf({ ...signals, queryCjk: 1 }, calibration)).toBe(0.75)
  })

  it('weighs another thread’s message by who wrote it when the question asks about the user', () => {
    expect(relevanceOf({ ...signals, speaker: 'user' }, calibration)).toBe(0.73)
    expect(relevanceOf({ ...signals, speaker: 'assistant' }, calibration)).toBe(0.58)
    expect(relevanceOf(signals, calibration)).toBe(0.7)
  })

  it('adds agreement on the query’s words', () => {
    expect(relevanceOf({ ...signals, textShare: 1 }, calibration)).toBe(0.8)
  })

  it('has none without a vector: the text rule decides then', () => {
    expect(relevanceOf({ ...signals, similarity: null }, calibration)).toBeNull()
  })

  it('is calibrated for the default model and falls back to "related" for others', () => {
    expect(e5.offsets.chinese).toBeGreaterThan(0)
    expect(gateCalibration('someone/unknown-model').memory.gate).toBe(0.6)
  })

  it('holds this thread’s older turns to the lowest bar: the window left them out for room', () => {
    expect(e5.thread.gate).toBeLessThan(e5.memory.gate)
    expect(e5.memory.gate).toBeLessThan(e5.message.gate)
    // A turn of relevance 0.5 comes back from this thread, not as a memory or another thread's.
    const kinds: GateKind[] = ['thread', 'memory', 'message']
    const gated = applyGate(
      kinds.map((kind) => ({ kind, relevance: 0.5, tokens: 20 })),
      (c) => c.kind,
      (c) => c.relevance,
      (c) => c.tokens,
      e5
    )
    expect(gated.passed.map((c) => c.kind)).toEqual(['thread'])
  })

  it('admits fewer of other threads’ messages once the thread has a conversation', () => {
    const fresh = gateCalibration(E5_MODEL_ID)
    const running = gateCalibration(E5_MODEL_ID, true)
    expect(running.message.cap).toBeLessThan(fresh.message.cap)
    expect(running.message.belowBest).toBeLessThanOrEqual(fresh.message.belowBest)
    expect(running.thread).toEqual(fresh.thread)
    expect(running.memory).toEqual(fresh.memory)
  })
})

describe('applyGate', () => {
  const item = (kind: GateKind, relevance: number) => ({ kind, relevance })
  const gate = (items: ReturnType<typeof item>[], cal = calibration, tokens = 100) =>
    applyGate(
      items,
      (i) => i.kind,
      (i) => i.relevance,
      () => tokens,
      cal
    )

  it('holds each kind to its own bar: another thread’s messages to a higher one', () => {
    const out = gate([
      item('memory', 0.55),
      item('thread', 0.55),
      item('message', 0.55),
      item('message', 0.65)
    ])
    expect(out.passed).toEqual([item('message', 0.65), item('memory', 0.55), item('thread', 0.55)])
    expect(out.rejected).toEqual([{ item: item('message', 0.55), gate: 0.6 }])
  })

  it('leaves out what sits far below the best of its kind', () => {
    const out = gate([item('memory', 0.9), item('memory', 0.85), item('memory', 0.75)])
    expect(out.gates.memory).toBe(0.8)
    expect(out.passed.map((i) => i.relevance)).toEqual([0.9, 0.85])
    expect(out.rejected).toEqual([{ item: item('memory', 0.75), gate: 0.8 }])
  })

  it('keeps this thread’s own older turns over the bar however far below the best they sit', () => {
    // A question about the past often needs two turns of the thread, one far weaker than the
    // other (LoCoMo's multi-hop questions); a margin below the best dropped the second.
    const out = gate([item('thread', 0.92), item('thread', 0.56), item('memory', 0.92)], e5)
    expect(out.passed).toContainEqual(item('thread', 0.56))
    expect(out.gates.thread).toBe(e5.thread.gate)
    expect(gate([item('memory', 0.92), item('memory', 0.56)], e5).passed).toHaveLength(1)
  })

  it('passes at most the cap of a kind, most relevant first', () => {
    const out = gate([item('message', 0.7), item('message', 0.72), item('message', 0.71)])
    expect(out.passed.map((i) => i.relevance)).toEqual([0.72, 0.71])
    expect(out.rejected.map((r) => r.item.relevance)).toEqual([0.7])
  })

  it('passes fewer tokens of a kind the less its best clears the bar', () => {
    // 400 tokens per 0.01 over the gate, at most 3,000: a question nothing answers finds a
    // best just over the bar.
    const graded = {
      ...calibration,
      message: {
        gate: 0.6,
        belowBest: 0.1,
        cap: Infinity,
        tokensPerHundredth: 400,
        maxTokens: 3000
      }
    }
    const messages = (best: number) =>
      Array.from({ length: 40 }, (_, i) =>
        item('message', Math.round((best - i / 1000) * 1000) / 1000)
      )
    // 0.025 over the bar: 1,000 tokens, ten messages of 100 or two of 500.
    expect(gate(messages(0.625), graded).passed).toHaveLength(10)
    expect(gate(messages(0.625), graded, 500).passed).toHaveLength(2)
    // The first always passes, however long; far over the bar, the allowance stops at 3,000.
    expect(gate(messages(0.601), graded, 5000).passed).toHaveLength(1)
    expect(gate(messages(0.75), graded).passed).toHaveLength(30)
    // Those past the allowance are reported with it, not as under the gate.
    const { rejected } = gate(messages(0.603), graded)
    expect(rejected.filter((r) => r.overTokens === 120).map((r) => r.item.relevance)).toEqual([
      0.602, 0.601, 0.6
    ])
    expect(rejected.filter((r) => r.overTokens === undefined)).toHaveLength(36)
    // With e5, other threads are held to tokens in a new thread, and to half as many per 0.01
    // (and at most 8 messages) in a running conversation.
    expect(e5.message.tokensPerHundredth).toBe(400)
    const talking = gateCalibration(E5_MODEL_ID, true).message
    expect(talking).toMatchObject({ cap: 8, tokensPerHundredth: 200 })
    const conversationMessages = Array.from({ length: 8 }, (_, i) =>
      item('message', Math.round((talking.gate + 0.03 - i / 1000) * 1000) / 1000)
    )
    // 0.03 over its bar: 600 tokens, three messages of 200 where the new-thread bar's
    // allowance would take all eight.
    expect(gate(conversationMessages, { ...e5, message: talking }, 200).passed).toHaveLength(3)
    // A user's gate means "everything over it", up to the cap.
    expect(gate(messages(0.603), withMinRelevance(graded, 0.6)).passed).toHaveLength(4)
    // Tokens are counted only where an allowance applies: the search runs on the send's path.
    const counted: GateKind[] = []
    applyGate(
      [item('memory', 0.9), item('thread', 0.9), item('message', 0.7)],
      (i) => i.kind,
      (i) => i.relevance,
      (i) => (counted.push(i.kind), 100),
      graded
    )
    expect(counted).toEqual(['message'])
  })

  it('passes nothing when nothing reaches the bar: an off-topic question costs nothing', () => {
    const out = gate([item('memory', 0.45), item('message', 0.59)])
    expect(out.passed).toEqual([])
    expect(out.rejected).toHaveLength(2)
  })

  it('takes a user’s gate for both kinds, without the relative margin', () => {
    const lowered = withMinRelevance(calibration, 0.4)
    const out = gate([item('memory', 0.9), item('memory', 0.45), item('message', 0.41)], lowered)
    expect(out.passed).toHaveLength(3)
    expect(withMinRelevance(calibration, undefined)).toBe(calibration)
  })

  it('raises only other threads’ bar when the question names what no candidate mentions', () => {
    const items = [item('memory', 0.55), item('thread', 0.55), item('message', 0.65)]
    expect(withAbsentNames(calibration, [])).toBe(calibration)
    const raised = withAbsentNames(calibration, ['Caroline'])
    const out = gate(items, raised)
    expect(out.passed).toEqual([item('memory', 0.55), item('thread', 0.55)])
    expect(out.rejected).toEqual([{ item: item('message', 0.65), gate: 0.68 }])
    // In a running conversation too, whose other-thread bar is its own.
    const talking = withAbsentNames(gateCalibration(E5_MODEL_ID, true), ['Caroline'])
    expect(talking.message.gate).toBeCloseTo(e5.messageInConversation.gate + e5.absentName)
  })

  it('holds other threads to the best the conversation already has, never lower', () => {
    const talking = gateCalibration(E5_MODEL_ID, true)
    const items = [item('memory', 0.55), item('thread', 0.55), item('message', 0.75)]
    expect(gate(items, withConversationBest(talking, 0.8)).passed).toEqual(items.slice(0, 2))
    expect(gate(items, withConversationBest(talking, 0.7)).passed).toHaveLength(3)
    // A conversation that holds nothing as relevant as the bar, or nothing at all, keeps it.
    expect(withConversationBest(talking, 0.5)).toBe(talking)
    expect(withConversationBest(talking, null)).toBe(talking)
  })
})

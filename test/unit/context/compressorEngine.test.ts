import { describe, expect, it } from 'vitest'
import { transcriptTokens } from '../../../src/main/context/compressor/compressTranscript'
import {
  ANTI_LOOP_LIMIT,
  CompressorEngine
} from '../../../src/main/context/compressor/compressorEngine'
import { compressionThreshold } from '../../../src/main/context/compressor/threshold'
import { EngineRegistry } from '../../../src/main/context/engine/engineRegistry'
import type { Summarizer, SummaryRequest } from '../../../src/main/context/summary/summarizer'
import { estimateCounter } from '../../../src/main/context/tokens/tokenCounter'
import type { ProviderMessage } from '@shared/context'
import { chat, config, request } from './threadBuilder'
import { assistant, lines, session, sys, user } from './transcripts'

class RecordingSummarizer implements Summarizer {
  readonly source = 'model' as const
  readonly requests: SummaryRequest[] = []
  constructor(private readonly reply: (r: SummaryRequest) => string) {}
  async summarize(request: SummaryRequest): Promise<string> {
    this.requests.push(request)
    return this.reply(request)
  }
}

describe('threshold (Hermes floors)', () => {
  it('uses the configured share on windows of 512K and more', () => {
    expect(compressionThreshold(1_000_000)).toMatchObject({
      tokens: 500_000,
      percent: 0.5,
      rule: 'percent'
    })
    expect(compressionThreshold(512_000).tokens).toBe(256_000)
  })

  it('raises the share to 75 % below 512K; a higher configured share wins', () => {
    expect(compressionThreshold(128_000)).toMatchObject({
      tokens: 96_000,
      percent: 0.75,
      rule: 'small_window_raise'
    })
    expect(compressionThreshold(400_000).tokens).toBe(300_000)
    expect(compressionThreshold(128_000, { thresholdPercent: 0.8 })).toMatchObject({
      tokens: 102_400,
      rule: 'percent'
    })
  })

  it('never triggers under 64K tokens...', () => {
    expect(compressionThreshold(80_000)).toMatchObject({ tokens: 64_000, rule: 'minimum_floor' })
    expect(compressionThreshold(600_000, { thresholdPercent: 0.1 })).toMatchObject({
      tokens: 64_000,
      rule: 'minimum_floor'
    })
  })

  it('...but never above 85 % of a small window, unless configured above 85 %', () => {
    expect(compressionThreshold(65_536)).toMatchObject({ tokens: 55_705, rule: 'small_window_cap' })
    expect(compressionThreshold(64_000)).toMatchObject({ tokens: 54_400, rule: 'small_window_cap' })
    expect(compressionThreshold(32_768).tokens).toBe(27_852)
    expect(compressionThreshold(32_768, { thresholdPercent: 0.9 })).toMatchObject({
      tokens: 29_491,
      rule: 'percent'
    })
  })

  it('applies to the input budget when an output reservation is given', () => {
    expect(compressionThreshold(128_000, { maxOutputTokens: 16_384 }).tokens).toBe(83_712)
    expect(compressionThreshold(0).tokens).toBe(0)
  })
})

describe('the compressor engine', () => {
  const over = (): ProviderMessage[] => [
    sys(),
    user('Here is the log:\n' + lines(900, 'ERROR something failed in the importer')),
    assistant('I see.'),
    user('And here is another one:\n' + lines(900, 'WARN retrying the request to the bank'))
  ]

  it('is selected by context.engine and builds under its threshold', () => {
    const registry = new EngineRegistry()
    const built = registry.build(
      request({ messages: chat(40) }),
      config({ engine: 'compressor', contextWindow: 100_000 })
    )
    expect(built.metadata.engine).toBe('compressor')
    expect(built.metadata.warnings).toEqual([])
    // The builder alone would allow 100,000 - 16,384; the compressor starts under its trigger.
    expect(built.tokenStats.budget).toBe(75_000)
    expect(built.tokenStats.total).toBeLessThanOrEqual(built.tokenStats.budget)
    const engine = registry.select('compressor').engine as CompressorEngine
    expect(engine.getStatus()).toMatchObject({
      name: 'compressor',
      contextLength: 100_000,
      thresholdTokens: 75_000,
      thresholdRule: 'small_window_raise'
    })
    expect(registry.names()).toEqual(['builder', 'compressor'])
  })

  it('suspends automatic compression after two that leave usage over the threshold', () => {
    const engine = new CompressorEngine({ contextLength: 8_000 })
    const messages = over()
    expect(engine.shouldCompressPreflight(messages)).toBe(true)
    for (let i = 0; i < ANTI_LOOP_LIMIT; i++) {
      expect(engine.shouldCompress(engine.promptTokens(messages))).toBe(true)
      engine.compress(messages)
    }
    expect(engine.shouldCompress(engine.promptTokens(messages))).toBe(false)
    expect(engine.getStatus()).toMatchObject({
      autoCompressionSuspended: true,
      ineffectiveCompressions: 2
    })
    // A manual "/compress" still runs and does not count.
    engine.compress(messages, { manual: true })
    expect(engine.getStatus().ineffectiveCompressions).toBe(2)
    // Usage under the threshold re-arms it.
    engine.updateFromResponse({ promptTokens: 1_000, completionTokens: 10 })
    expect(engine.getStatus().autoCompressionSuspended).toBe(false)
    expect(engine.shouldCompress(engine.promptTokens(messages))).toBe(true)
  })

  it('resets the anti-loop after a compression that works', () => {
    const engine = new CompressorEngine({ contextLength: 8_000 })
    engine.compress(over())
    expect(engine.getStatus().ineffectiveCompressions).toBe(1)
    const result = engine.compressWithFallback(session(10))
    expect(result.compressed).toBe(true)
    expect(engine.getStatus().ineffectiveCompressions).toBe(0)
  })

  it('counts tokens outside the messages (tool schemas) when judging a compression', () => {
    const engine = new CompressorEngine({ contextLength: 8_000 })
    const messages = session(10)
    const result = engine.compressWithFallback(messages, {
      currentTokens: engine.promptTokens(messages) + 6_000
    })
    expect(result.compressed).toBe(true)
    expect(engine.getStatus().ineffectiveCompressions).toBe(1)
  })

  it('keeps the previous summary per session, decays the head and resets', async () => {
    const summarizer = new RecordingSummarizer((r) => (r.previousSummary ? 'second' : 'first'))
    const engine = new CompressorEngine({ contextLength: 8_000, summarizer, minTailMessages: 4 })
    engine.onSessionStart('thread-a')
    const first = await engine.compressAsync(session(30))
    expect(first.summary).toBe('first')
    // The first exchange was protected the first time...
    expect(first.messages[1]).toEqual(user('Help me fix the CSV import.'))
    engine.onSessionStart('thread-b')
    expect(engine.getStatus()).toMatchObject({ compressionCount: 0, hasPreviousSummary: false })
    engine.onSessionStart('thread-a')
    expect(engine.getStatus()).toMatchObject({ compressionCount: 1, hasPreviousSummary: true })
    // ...and is summarized the second time (the stored history is compressed again).
    const second = await engine.compressAsync(session(30))
    expect(summarizer.requests[1]!.previousSummary).toBe('first')
    expect(summarizer.requests[1]!.newMessages[0]).toEqual(user('Help me fix the CSV import.'))
    expect(second.summary).toBe('second')
    engine.onSessionReset()
    expect(engine.getStatus()).toMatchObject({
      compressionCount: 0,
      hasPreviousSummary: false,
      lastCompression: null
    })
  })

  it('never changes the messages it is given', async () => {
    const engine = new CompressorEngine({ contextLength: 8_000 })
    const messages = session(30)
    const frozen = structuredClone(messages)
    const result = await engine.compressAsync(messages, { focusTopic: 'tests' })
    expect(messages).toEqual(frozen)
    expect(result.messages).not.toBe(messages)
    expect(transcriptTokens(result.messages, estimateCounter)).toBeLessThan(
      transcriptTokens(messages, estimateCounter)
    )
  })
})

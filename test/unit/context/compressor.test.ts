import { describe, expect, it } from 'vitest'
import {
  chooseSummaryPlacement,
  MISSING_RESULT,
  readEmbeddedSummary,
  renderSummary,
  sanitizeToolPairs,
  SUMMARY_PREFIX
} from '../../../src/main/context/compressor/assembleCompressed'
import {
  chooseBoundaries,
  protectedHeadEnd,
  protectedTailStart
} from '../../../src/main/context/compressor/boundaries'
import {
  compressTranscript,
  compressWithFallback,
  summaryTokenBudget,
  type CompressionSettings
} from '../../../src/main/context/compressor/compressTranscript'
import { protocolProblems } from '../../../src/main/context/compressor/messageGroups'
import { compressionThreshold } from '../../../src/main/context/compressor/threshold'
import {
  describeToolResult,
  pruneToolOutput,
  shrinkArguments
} from '../../../src/main/context/compressor/toolPruning'
import {
  SummarizerError,
  type Summarizer,
  type SummaryRequest
} from '../../../src/main/context/summary/summarizer'
import { estimateCounter } from '../../../src/main/context/tokens/tokenCounter'
import type { ProviderMessage } from '@shared/context'
import { assistant, call, lines, session, sys, tool, user } from './transcripts'

function settings(overrides: Partial<CompressionSettings> = {}): CompressionSettings {
  return {
    contextLength: 8_000,
    thresholdTokens: compressionThreshold(8_000).tokens,
    counter: estimateCounter,
    targetRatio: 0.2,
    minTailMessages: 4,
    protectFirstN: 3,
    ...overrides
  }
}

class RecordingSummarizer implements Summarizer {
  readonly source = 'model' as const
  readonly requests: SummaryRequest[] = []
  constructor(
    private readonly reply: (r: SummaryRequest) => string = () => '## Goal\nFix the importer.'
  ) {}
  async summarize(request: SummaryRequest): Promise<string> {
    this.requests.push(request)
    return this.reply(request)
  }
}

describe('phase 1: pruning old tool output', () => {
  it('replaces long results with a one-line description and keeps the newest of identical ones', () => {
    const big = lines(412)
    const messages = [
      user('read it twice'),
      assistant('', [call('a')]),
      tool('a', big),
      assistant('', [call('b')]),
      tool('b', 'x'.repeat(150)),
      assistant('', [call('c')]),
      tool('c', 'x'.repeat(150)),
      assistant('done')
    ]
    const frozen = structuredClone(messages)
    const result = pruneToolOutput(messages, 0, 5)
    expect(messages).toEqual(frozen)
    expect(result.messages[2]!.content).toMatch(
      /^\[tool result of read_file \(path: src\/app\.ts\): 412 lines, \d+ chars, pruned\]$/
    )
    expect(result.messages[4]!.content).toBe(
      '[duplicate tool output of read_file: same as a later result, pruned]'
    )
    // The newest copy is outside the range and stays whole.
    expect(result.messages[6]!.content).toBe('x'.repeat(150))
    expect(result).toMatchObject({ summarized: 1, deduplicated: 1, shrunkCalls: 0 })
    expect(protocolProblems(result.messages)).toEqual([])
  })

  it('describes a result by its tool and its main argument', () => {
    expect(describeToolResult('a\nb\nc', call('x', 'run_tests', '{"command":"npm test"}'))).toBe(
      '[tool result of run_tests (command: npm test): 3 lines, 5 chars, pruned]'
    )
    expect(describeToolResult('one', undefined)).toBe(
      '[tool result of a tool: 1 line, 3 chars, pruned]'
    )
  })

  it('shrinks long tool-call arguments inside the JSON, so they stay valid JSON', () => {
    const args = JSON.stringify({
      path: 'src/big.ts',
      content: 'export const x = 1\n'.repeat(200),
      options: { overwrite: true, notes: ['short', 'y'.repeat(600)] }
    })
    const shrunk = shrinkArguments(args)
    expect(shrunk.length).toBeLessThan(args.length / 4)
    const parsed = JSON.parse(shrunk) as Record<string, unknown>
    expect(parsed.path).toBe('src/big.ts')
    expect(parsed.content).toMatch(/^export const x = 1\n.*…\[\d+ chars truncated\]$/s)
    expect(parsed.options).toMatchObject({
      overwrite: true,
      notes: ['short', expect.stringContaining('truncated')]
    })
    // Short arguments and arguments that are not JSON are left exactly as they were.
    expect(shrinkArguments('{"path":"a.ts"}')).toBe('{"path":"a.ts"}')
    const broken = `{"content": "${'z'.repeat(800)}`
    expect(shrinkArguments(broken)).toBe(broken)
  })

  it('never touches the protected tail', () => {
    const messages = [user('go'), assistant('', [call('a')]), tool('a', lines(50)), assistant('ok')]
    expect(pruneToolOutput(messages, 0, 1).messages).toEqual(messages)
  })
})

describe('phase 2: boundaries', () => {
  const tokensOf = (messages: ProviderMessage[]) => (i: number) =>
    estimateCounter.count(messages[i]!.content) + 3

  it('protects the system prompt and the first exchange without splitting a tool group', () => {
    const plain = [sys(), user('a'), assistant('b'), user('c'), assistant('d')]
    expect(protectedHeadEnd(plain, 3)).toBe(4)
    expect(protectedHeadEnd(plain, 0)).toBe(1)
    const grouped = [
      sys(),
      user('a'),
      assistant('', [call('x'), call('y')]),
      tool('x', '1'),
      tool('y', '2'),
      assistant('b')
    ]
    // Three messages would end between the call and its results: the head ends before the call.
    expect(protectedHeadEnd(grouped, 3)).toBe(2)
    expect(protectedHeadEnd(grouped, 4)).toBe(5)
  })

  it('protects a tail by token budget, with a minimum message count, in whole groups', () => {
    const messages = [
      sys(),
      user('first'),
      assistant('answer'),
      user('second'),
      assistant('', [call('p1'), call('p2'), call('p3')]),
      tool('p1', lines(30)),
      tool('p2', 'short'),
      tool('p3', 'short'),
      assistant('done'),
      user('last')
    ]
    // A budget for the last two messages only: the parallel group is not cut.
    const small = protectedTailStart(messages, 1, {
      tokenBudget: 10,
      minMessages: 2,
      tokensOf: tokensOf(messages)
    })
    expect(small).toBe(8)
    // The minimum count pulls in the whole group, never a part of it.
    const min = protectedTailStart(messages, 1, {
      tokenBudget: 10,
      minMessages: 3,
      tokensOf: tokensOf(messages)
    })
    expect(min).toBe(4)
    // Everything fits: the tail reaches the head and stops there.
    const all = protectedTailStart(messages, 3, {
      tokenBudget: 100_000,
      minMessages: 1,
      tokensOf: tokensOf(messages)
    })
    expect(all).toBe(3)
  })

  it('always keeps the last user message: the tail reaches back, or the head takes it', () => {
    const loop = [
      sys(),
      user('old question'),
      assistant('answer'),
      user('fix all the files'),
      ...Array.from({ length: 6 }, (_, i) => [
        assistant('', [call(`l${i}`)]),
        tool(`l${i}`, lines(40))
      ]).flat()
    ]
    const tail = { tokenBudget: 50, minMessages: 2, tokensOf: tokensOf(loop) }
    // The last user message is in the middle: the tail starts at it.
    expect(chooseBoundaries(loop, 1, tail)).toEqual({
      headEnd: 1,
      tailStart: 3,
      stripSummaryAt: -1
    })
    // It is the first message after the head: it joins the head and the loop can be compressed.
    const fresh = [sys(), ...loop.slice(3)]
    expect(chooseBoundaries(fresh, 1, { ...tail, tokensOf: tokensOf(fresh) })).toEqual({
      headEnd: 2,
      tailStart: fresh.length - 2,
      stripSummaryAt: -1
    })
  })
})

describe('phase 4: assembly', () => {
  it('chooses the summary role so turns keep alternating, or merges it', () => {
    const s = [sys()]
    const u = [user('x')]
    const a = [assistant('x')]
    const t = [assistant('', [call('z')]), tool('z', 'r')]
    expect(chooseSummaryPlacement([...s, ...u, ...a], u)).toEqual({ kind: 'merged' })
    expect(chooseSummaryPlacement([...s, ...u, ...a], a)).toEqual({ kind: 'message', role: 'user' })
    expect(chooseSummaryPlacement([...s, ...u], u)).toEqual({ kind: 'message', role: 'assistant' })
    expect(chooseSummaryPlacement([...s, ...u], a)).toEqual({ kind: 'merged' })
    expect(chooseSummaryPlacement([...s, ...u, ...t], a)).toEqual({ kind: 'message', role: 'user' })
    expect(chooseSummaryPlacement([...s, ...u, ...t], u)).toEqual({
      kind: 'message',
      role: 'assistant'
    })
    // Nothing but the system prompt before: the conversation must still open with the user.
    expect(chooseSummaryPlacement(s, a)).toEqual({ kind: 'message', role: 'user' })
    expect(chooseSummaryPlacement(s, u)).toEqual({ kind: 'merged' })
  })

  it('marks the summary as reference only and can read it back', () => {
    const text = renderSummary('## Goal\nFix it.')
    expect(text.startsWith('[Reference only: summary of earlier conversation')).toBe(true)
    expect(readEmbeddedSummary(text)).toEqual({ body: '## Goal\nFix it.', rest: null })
    expect(readEmbeddedSummary(`${text}\n\nthe user's words`)).toEqual({
      body: '## Goal\nFix it.',
      rest: "the user's words"
    })
    expect(readEmbeddedSummary('plain text')).toBeNull()
  })

  it('removes results without a call and answers calls without results with a stub', () => {
    const fixed = sanitizeToolPairs([
      user('go'),
      tool('ghost', 'orphan'),
      assistant('', [call('a'), call('b')]),
      tool('a', 'ok'),
      user('next')
    ])
    expect(fixed).toEqual([
      user('go'),
      assistant('', [call('a'), call('b')]),
      tool('a', 'ok'),
      tool('b', MISSING_RESULT),
      user('next')
    ])
    expect(protocolProblems(fixed)).toEqual([])
  })
})

describe('compression end to end', () => {
  it('keeps head and tail, summarizes the middle and shrinks the request', () => {
    const messages = session(30)
    const result = compressWithFallback(messages, settings())
    expect(result.compressed).toBe(true)
    expect(result.tokensAfter).toBeLessThan(result.tokensBefore / 2)
    expect(result.messages[0]).toEqual(messages[0])
    expect(result.messages[1]).toEqual(messages[1])
    expect(result.messages.at(-1)).toEqual(messages.at(-1))
    const summary = result.messages.find((m) => m.content.startsWith(SUMMARY_PREFIX))!
    expect(summary.content).toContain(result.summary!)
    expect(result.summary).toContain('Summary generated without a model')
    expect(result.summarySource).toBe('fallback')
    expect(protocolProblems(result.messages)).toEqual([])
  })

  it('puts the focus topic into the summarizer prompt with most of the budget', async () => {
    const summarizer = new RecordingSummarizer()
    await compressTranscript(session(30), settings(), summarizer, { focusTopic: 'date parsing' })
    const [req] = summarizer.requests
    expect(req!.focusTopic).toBe('date parsing')
    expect(req!.prompt).toContain(
      'Focus topic: "date parsing". Spend about two thirds of the summary on it'
    )
    expect(req!.maxTokens).toBe(summaryTokenBudget(0, 8_000))
  })

  it('updates the previous summary instead of writing a new one, and it appears once', async () => {
    const summarizer = new RecordingSummarizer(
      (r) => `## Goal\nSummary ${r.previousSummary ? 2 : 1}`
    )
    const first = await compressTranscript(session(30), settings(), summarizer)
    const grown = [
      ...first.messages,
      assistant('Added the test.'),
      ...session(6, 'More work.').slice(1)
    ]
    const second = await compressTranscript(grown, settings({ protectFirstN: 0 }), summarizer)
    expect(summarizer.requests[1]!.previousSummary).toBe('## Goal\nSummary 1')
    expect(summarizer.requests[1]!.prompt.split('## Goal\nSummary 1').length).toBe(2)
    expect(second.messages.filter((m) => m.content.includes(SUMMARY_PREFIX))).toHaveLength(1)
    expect(second.summary).toBe('## Goal\nSummary 2')
  })

  it('falls back to the extractive summary when the summarizer fails, and says why', async () => {
    const failing: Summarizer = {
      source: 'model',
      summarize: () => Promise.reject(new SummarizerError('401 Unauthorized', 'auth'))
    }
    const result = await compressTranscript(session(30), settings(), failing)
    expect(result.compressed).toBe(true)
    expect(result.summarySource).toBe('fallback')
    expect(result.note).toBe(
      'the summarizer is unavailable (401 Unauthorized); used the extractive summary'
    )
  })

  it('redacts secrets from what the summarizer reads, never from what is sent', async () => {
    const messages = session(30)
    messages[5] = user('Step 1: use my key sk-ant-api03-abcdefghijklmnopqrstuvwxyz for the API.')
    const summarizer = new RecordingSummarizer()
    const result = await compressTranscript(messages, settings({ protectFirstN: 1 }), summarizer)
    expect(summarizer.requests[0]!.prompt).not.toContain('sk-ant-api03')
    expect(summarizer.requests[0]!.prompt).toContain('[REDACTED]')
    expect(result.compressed).toBe(true)
  })

  it('returns the input when nothing lies between head and tail', () => {
    const messages = [sys(), user('hi'), assistant('hello'), user('how are you?')]
    const result = compressWithFallback(messages, settings())
    expect(result).toMatchObject({ compressed: false, summary: null })
    expect(result.note).toMatch(/nothing to compress/)
    expect(result.messages).toEqual(messages)
  })
})

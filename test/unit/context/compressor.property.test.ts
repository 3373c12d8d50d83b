import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { SUMMARY_PREFIX } from '../../../src/main/context/compressor/assembleCompressed'
import {
  compressTranscript,
  compressWithFallback,
  transcriptTokens,
  type CompressionResult,
  type CompressionSettings
} from '../../../src/main/context/compressor/compressTranscript'
import { protocolProblems } from '../../../src/main/context/compressor/messageGroups'
import { compressionThreshold } from '../../../src/main/context/compressor/threshold'
import { SummarizerError, type Summarizer } from '../../../src/main/context/summary/summarizer'
import { estimateCounter, o200kCounter } from '../../../src/main/context/tokens/tokenCounter'
import type { ProviderMessage } from '@shared/context'
import { transcript } from './transcripts'

const RUNS = 300

const settingsArb: fc.Arbitrary<CompressionSettings> = fc
  .record({
    contextLength: fc.constantFrom(1_000, 2_000, 4_000, 8_000, 16_000, 64_000),
    targetRatio: fc.double({ min: 0.05, max: 0.5, noNaN: true }),
    minTailMessages: fc.integer({ min: 1, max: 10 }),
    protectFirstN: fc.integer({ min: 0, max: 4 }),
    exact: fc.boolean()
  })
  .map(({ contextLength, exact, ...rest }) => ({
    ...rest,
    contextLength,
    thresholdTokens: compressionThreshold(contextLength).tokens,
    counter: exact ? o200kCounter : estimateCounter
  }))

function lastUser(messages: readonly ProviderMessage[]): ProviderMessage | undefined {
  return messages.findLast((m) => m.role === 'user')
}

function firstTurnRole(messages: readonly ProviderMessage[]): string | undefined {
  return messages.find((m) => m.role !== 'system')?.role
}

/** Every invariant the compressor promises, for one input and its result. */
function checkInvariants(
  input: readonly ProviderMessage[],
  result: CompressionResult,
  settings: CompressionSettings
): void {
  const output = result.messages
  // Valid input stays valid: no orphaned result, no unanswered call, no user-user or
  // assistant-assistant among the turns.
  expect(protocolProblems(input)).toEqual([])
  expect(protocolProblems(output)).toEqual([])
  // The system prompt is still first, unchanged.
  if (input[0]?.role === 'system') expect(output[0]).toEqual(input[0])
  // The conversation still opens with the user if it did.
  if (firstTurnRole(input) === 'user') expect(firstTurnRole(output)).toBe('user')
  // The last user message survives verbatim (a merged summary only goes before it).
  const last = lastUser(input)!
  const kept = lastUser(output)!
  expect(kept.content === last.content || kept.content.endsWith(`\n\n${last.content}`)).toBe(true)
  // Never larger.
  const before = transcriptTokens(input, settings.counter)
  const after = transcriptTokens(output, settings.counter)
  expect(after).toBeLessThanOrEqual(before)
  expect(result.tokensBefore).toBe(before)
  expect(result.tokensAfter).toBe(after)
  if (result.compressed) {
    expect(after).toBeLessThan(before)
  } else {
    expect(output).toEqual(input)
  }
  // A summary appears exactly once, marked reference-only.
  const marked = output.filter((m) => m.content.includes(SUMMARY_PREFIX))
  expect(marked.length).toBe(result.summary === null ? 0 : 1)
}

describe('compressor invariants (property-based)', { timeout: 120_000 }, () => {
  it('keeps every transcript valid, smaller or equal, system first and the last user message', () => {
    fc.assert(
      fc.property(
        transcript(),
        settingsArb,
        fc.option(fc.constantFrom('parser', '金额'), { nil: undefined }),
        (input, settings, focusTopic) => {
          const frozen = structuredClone(input)
          const result = compressWithFallback(input, settings, { focusTopic })
          expect(input).toEqual(frozen)
          checkInvariants(input, result, settings)
        }
      ),
      { numRuns: RUNS }
    )
  })

  it('compresses long transcripts with a small window', () => {
    let compressed = 0
    fc.assert(
      fc.property(transcript({ minTurns: 8, maxTurns: 16 }), (input) => {
        const settings: CompressionSettings = {
          contextLength: 4_000,
          thresholdTokens: compressionThreshold(4_000).tokens,
          counter: estimateCounter,
          targetRatio: 0.2,
          minTailMessages: 4,
          protectFirstN: 3
        }
        const result = compressWithFallback(input, settings)
        checkInvariants(input, result, settings)
        if (result.compressed) compressed++
      }),
      { numRuns: 150 }
    )
    // The properties would hold vacuously if nothing were ever compressed.
    expect(compressed).toBeGreaterThan(100)
  })

  it('returns the input unchanged when the head and tail hold every message', () => {
    fc.assert(
      fc.property(transcript({ maxTurns: 4 }), settingsArb, (input, settings) => {
        const roomy = { ...settings, minTailMessages: input.length, thresholdTokens: 1_000_000 }
        const result = compressWithFallback(input, roomy)
        expect(result.compressed).toBe(false)
        expect(result.messages).toEqual(input)
        expect(result.messages).not.toBe(input)
      }),
      { numRuns: 100 }
    )
  })

  it('holds with a model summarizer, a failing one and an oversized one', async () => {
    const summarizers: Summarizer[] = [
      { source: 'model', summarize: async () => '## Goal\nFix the parser.' },
      {
        source: 'model',
        summarize: async () => Promise.reject(new SummarizerError('401 invalid key', 'auth'))
      },
      {
        source: 'model',
        summarize: async () => Promise.reject(new Error('context length exceeded'))
      },
      { source: 'model', summarize: async () => 'very long summary '.repeat(5_000) }
    ]
    await fc.assert(
      fc.asyncProperty(
        transcript(),
        settingsArb,
        fc.constantFrom(...summarizers),
        async (input, settings, summarizer) => {
          const frozen = structuredClone(input)
          const result = await compressTranscript(input, settings, summarizer)
          expect(input).toEqual(frozen)
          checkInvariants(input, result, settings)
        }
      ),
      { numRuns: 200 }
    )
  })

  it('can compress its own output again without stacking summaries', () => {
    fc.assert(
      fc.property(transcript({ minTurns: 6 }), (input) => {
        const settings: CompressionSettings = {
          contextLength: 2_000,
          thresholdTokens: compressionThreshold(2_000).tokens,
          counter: estimateCounter,
          targetRatio: 0.2,
          minTailMessages: 3,
          protectFirstN: 3
        }
        const first = compressWithFallback(input, settings)
        const again = compressWithFallback(
          [
            ...first.messages,
            { role: 'assistant', content: 'done' },
            { role: 'user', content: 'next' }
          ],
          { ...settings, protectFirstN: 0 }
        )
        expect(protocolProblems(again.messages)).toEqual([])
        expect(
          again.messages.filter((m) => m.content.includes(SUMMARY_PREFIX)).length
        ).toBeLessThanOrEqual(1)
      }),
      { numRuns: 150 }
    )
  })
})

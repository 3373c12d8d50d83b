/**
 * `npm run ctx -- compress`: the JSON a headless caller gives the compressor and what it gets
 * back, both in the OpenAI chat format. With the extractive summarizer the output is
 * reproducible: same file, same bytes.
 */
import { z } from 'zod'
import { formatIssues } from '@shared/contextConfig'
import { fromOpenAi, OpenAiMessageSchema, toOpenAi, type OpenAiMessage } from './openaiMessages'
import { FallbackSummarizer } from '../summary/summarizer'
import { CompressorEngine } from '../compressor/compressorEngine'

const CompressInputSchema = z.strictObject({
  messages: z.array(OpenAiMessageSchema).min(1, { message: 'needs at least one message' }),
  contextLength: z.number().int().positive().default(128_000),
  /** Like "/compress <focus>": compresses even under the threshold. */
  focusTopic: z.string().optional(),
  summarizer: z
    .enum(['fallback'], { error: 'only "fallback" is available headless (no model provider)' })
    .default('fallback'),
  /** Compress even under the threshold (a manual "/compress"); default: only when over it. */
  force: z.boolean().optional(),
  /** Tokenizer for the counts (default gpt-4o). */
  model: z.string().trim().min(1).optional(),
  thresholdPercent: z.number().gt(0).max(1).optional()
})
export interface CompressOutput {
  messages: OpenAiMessage[]
  compressed: boolean
  summary: string | null
  tokens: { before: number; after: number; threshold: number }
  note: string | null
}

export type CompressCommandResult =
  { ok: true; output: CompressOutput } | { ok: false; issues: string[] }

export async function runCompressCommand(json: unknown): Promise<CompressCommandResult> {
  const parsed = CompressInputSchema.safeParse(json)
  if (!parsed.success) return { ok: false, issues: formatIssues(parsed.error, 'document') }
  const input = parsed.data
  const engine = new CompressorEngine({
    summarizer: new FallbackSummarizer(),
    contextLength: input.contextLength,
    model: input.model,
    thresholdPercent: input.thresholdPercent
  })
  const messages = input.messages.map(fromOpenAi)
  const focusTopic = input.focusTopic?.trim() || undefined
  const manual = input.force === true || focusTopic !== undefined
  const threshold = engine.thresholdTokens
  if (!manual && !engine.shouldCompressPreflight(messages)) {
    const tokens = engine.promptTokens(messages)
    return {
      ok: true,
      output: {
        messages: messages.map(toOpenAi),
        compressed: false,
        summary: null,
        tokens: { before: tokens, after: tokens, threshold },
        note: `under the threshold (${tokens} of ${threshold} tokens); pass "force": true to compress anyway`
      }
    }
  }
  const result = await engine.compressAsync(messages, { focusTopic, manual })
  return {
    ok: true,
    output: {
      messages: result.messages.map(toOpenAi),
      compressed: result.compressed,
      summary: result.summary,
      tokens: { before: result.tokensBefore, after: result.tokensAfter, threshold },
      note: result.note
    }
  }
}

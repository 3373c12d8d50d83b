/** `npm run ctx -- cache`: OpenAI-format messages in, the same with cache markers out. */
import { z } from 'zod'
import { formatIssues } from '@shared/contextConfig'
import { fromOpenAi, OpenAiMessageSchema, toOpenAi, type OpenAiMessage } from './openaiMessages'
import { applyCacheBreakpoints, cacheBreakpointIndexes } from '../caching/promptCache'

const CacheInputSchema = z.strictObject({
  messages: z.array(OpenAiMessageSchema),
  ttl: z.enum(['5m', '1h'], { error: 'must be "5m" or "1h"' }).default('5m')
})

export interface CacheOutput {
  messages: OpenAiMessage[]
  /** Indexes of the marked messages. */
  breakpoints: number[]
}

export type CacheCommandResult = { ok: true; output: CacheOutput } | { ok: false; issues: string[] }

export function runCacheCommand(json: unknown): CacheCommandResult {
  const parsed = CacheInputSchema.safeParse(json)
  if (!parsed.success) return { ok: false, issues: formatIssues(parsed.error, 'document') }
  const messages = parsed.data.messages.map(fromOpenAi)
  return {
    ok: true,
    output: {
      messages: applyCacheBreakpoints(messages, { ttl: parsed.data.ttl }).map(toOpenAi),
      breakpoints: cacheBreakpointIndexes(messages)
    }
  }
}

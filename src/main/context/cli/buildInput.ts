/**
 * The JSON shape the CLI (and any headless caller) feeds the builder, and its conversion into
 * a BuildRequest the way the app prepares one: each message counted once (the "insert"), the
 * active-task state derived from the user's messages.
 */
import { z } from 'zod'
import { ActiveTaskTracker } from '../sections/activeTaskTracker'
import {
  ContextConfigPatchSchema,
  formatIssues,
  resolveContextConfig,
  type ContextConfig
} from '@shared/contextConfig'
import { countMessageTokens } from '../tokens/messageTokens'
import { tokenCounterFor } from '../tokens/tokenCounter'
import type { BuildRequest, ContextMessage } from '@shared/context'

const ToolCallSchema = z.strictObject({
  id: z.string().min(1),
  name: z.string().min(1),
  arguments: z.string()
})

const MessageSchema = z.strictObject({
  id: z.union([z.string().min(1), z.number()]),
  seq: z.number().int().nonnegative(),
  role: z.enum(['system', 'user', 'assistant', 'tool']),
  content: z.string(),
  toolCalls: z.array(ToolCallSchema).optional(),
  toolCallId: z.string().optional(),
  pinned: z.boolean().optional(),
  excluded: z.boolean().optional()
})

const BuildInputSchema = z
  .strictObject({
    system: z.string().default(''),
    summary: z
      .strictObject({ content: z.string(), lastMessageSeq: z.number().int().nonnegative() })
      .optional(),
    memories: z
      .array(
        z.strictObject({
          id: z.string().min(1),
          content: z.string(),
          score: z.number(),
          source: z.string().optional(),
          messageId: z.union([z.string(), z.number()]).optional()
        })
      )
      .default([]),
    messages: z.array(MessageSchema).default([]),
    /** Files as the service would pass them after extraction; chunked by the builder. */
    attachments: z
      .array(
        z.strictObject({
          id: z.string().min(1),
          name: z.string().min(1),
          mime: z.string().optional(),
          content: z.string()
        })
      )
      .default([]),
    /** Tool schemas: `parameters` is the arguments' JSON Schema. */
    tools: z
      .array(
        z.strictObject({
          name: z.string().regex(/^[a-zA-Z0-9_-]{1,64}$/, {
            message: 'must be 1-64 letters, digits, "_" or "-"'
          }),
          description: z.string().default(''),
          parameters: z.record(z.string(), z.unknown())
        })
      )
      .default([]),
    input: z.string(),
    config: ContextConfigPatchSchema.optional()
  })
  .superRefine((value, ctx) => {
    const seen = new Set<number>()
    value.messages.forEach((message, index) => {
      if (seen.has(message.seq)) {
        ctx.addIssue({
          code: 'custom',
          path: ['messages', index, 'seq'],
          message: `seq ${message.seq} appears twice`
        })
      }
      seen.add(message.seq)
    })
    for (const [key, list] of [
      ['attachments', value.attachments.map((a) => a.id)],
      ['tools', value.tools.map((t) => t.name)]
    ] as const) {
      list.forEach((name, index) => {
        if (list.indexOf(name) !== index) {
          ctx.addIssue({ code: 'custom', path: [key, index], message: `"${name}" appears twice` })
        }
      })
    }
  })
export type PreparedBuild =
  { ok: true; request: BuildRequest; config: ContextConfig } | { ok: false; issues: string[] }

export function prepareBuild(json: unknown): PreparedBuild {
  const parsed = BuildInputSchema.safeParse(json)
  if (!parsed.success) return { ok: false, issues: formatIssues(parsed.error, 'document') }
  const input = parsed.data
  const resolved = resolveContextConfig(input.config ?? {})
  if (!resolved.ok) return { ok: false, issues: resolved.issues.map((issue) => `config.${issue}`) }

  const counter = tokenCounterFor(resolved.config.model)
  const tasks = new ActiveTaskTracker()
  const messages: ContextMessage[] = [...input.messages]
    .sort((a, b) => a.seq - b.seq)
    .map((m) => {
      if (m.role === 'user') tasks.observe(m.content, m.seq)
      return {
        id: m.id,
        seq: m.seq,
        role: m.role,
        content: m.content,
        toolCalls: m.toolCalls ?? null,
        toolCallId: m.toolCallId ?? null,
        tokenCount: countMessageTokens(counter, m),
        pinned: m.pinned ?? false,
        excluded: m.excluded ?? false
      }
    })
  return {
    ok: true,
    config: resolved.config,
    request: {
      systemPrompt: input.system,
      summary: input.summary ?? null,
      memories: input.memories,
      messages,
      input: input.input,
      taskState: tasks.state,
      attachments: input.attachments.map((a) => ({ ...a, mime: a.mime ?? null })),
      tools: input.tools
    }
  }
}

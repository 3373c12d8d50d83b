/**
 * Our own JSON export, read back: a JSON array whose first element is the header
 * `{format: 'context-lens', version: 1, schema}`, then one element per thread (origins before
 * their forks), then one per memory. Lossless: seq, flags, replies, summaries and fork lineage
 * are kept, and thread ids too, so importing into the database it came from adds nothing.
 *
 * `schema` is the store's schema version the file was written at: a thread's saved budget is
 * read as it was meant then (store/schema/threadBudgetUpgrades.ts). Files from before it was
 * written are read as of schema 0, since every upgrade leaves a budget valid then still valid.
 */
import { z } from 'zod'
import { MEMORY_CATEGORIES } from '@shared/domain'
import { conversationLabel, ImportInputError, type ImportFormat } from './importTypes'

export const OWN_FORMAT = 'context-lens'
export const OWN_FORMAT_VERSION = 1

const time = z.number().int().nonnegative()
const ReplySchema = z.object({
  providerId: z.string().nullable(),
  modelId: z.string(),
  status: z.enum(['complete', 'stopped', 'failed', 'empty']),
  usage: z
    .object({
      promptTokens: z.number().int().nonnegative(),
      completionTokens: z.number().int().nonnegative(),
      cacheReadTokens: z.number().int().nonnegative(),
      cacheWriteTokens: z.number().int().nonnegative()
    })
    .nullable(),
  cost: z.number().nullable(),
  estimatedPromptTokens: z.number().int().nullable(),
  finishReason: z.string().nullable(),
  supersededBy: z.number().int().nullable()
})
const MessageSchema = z.object({
  id: z.number().int(),
  seq: z.number().int().positive(),
  role: z.enum(['system', 'user', 'assistant', 'tool']),
  content: z.string(),
  toolCalls: z
    .array(z.object({ id: z.string(), name: z.string(), arguments: z.string() }))
    .nullable(),
  toolCallId: z.string().nullable(),
  tokenCount: z.number().int().nonnegative(),
  createdAt: time,
  pinned: z.boolean(),
  excluded: z.boolean(),
  reply: ReplySchema.optional()
})
const ThreadSchema = z.object({
  type: z.literal('thread'),
  id: z.string().min(1),
  title: z.string(),
  createdAt: time,
  updatedAt: time,
  settings: z.record(z.string(), z.unknown()),
  forkedFrom: z.object({ threadId: z.string(), seq: z.number().int().nonnegative() }).nullable(),
  summary: z
    .object({
      content: z.string(),
      lastMessageSeq: z.number().int().nonnegative(),
      version: z.number().int().positive(),
      source: z.enum(['model', 'fallback', 'user']),
      updatedAt: time
    })
    .nullable(),
  messages: z.array(MessageSchema),
  builds: z.array(z.unknown()).optional()
})
const Category = z.enum(MEMORY_CATEGORIES)
const MemorySchema = z.object({
  type: z.literal('memory'),
  content: z.string().min(1),
  category: Category,
  sourceThreadId: z.string().nullable(),
  sourceMessageId: z.number().int().nullable(),
  createdAt: time,
  updatedAt: time,
  history: z.array(
    z.object({
      action: z.enum(['create', 'update', 'delete', 'restore']),
      reason: z.string(),
      content: z.string(),
      category: Category,
      previousContent: z.string().nullable(),
      previousCategory: Category.nullable(),
      sourceThreadId: z.string().nullable(),
      sourceMessageId: z.number().int().nullable(),
      createdAt: time
    })
  )
})
const HeaderSchema = z.object({
  format: z.literal(OWN_FORMAT),
  version: z.number().int().positive(),
  schema: z.number().int().nonnegative().optional()
})

export type ExportedThread = z.infer<typeof ThreadSchema>
export type ExportedMemory = z.infer<typeof MemorySchema>

const ownKey = (threadId: string) => `${OWN_FORMAT}:${threadId}`

function parse<T>(schema: z.ZodType<T>, element: unknown, label: string): T {
  const result = schema.safeParse(element)
  if (result.success) return result.data
  const issue = result.error.issues[0]
  const field = issue?.path.length ? issue.path.join('.') : 'the element'
  throw new ImportInputError(label, field, issue?.message ?? 'is not valid')
}

export const ownFormat: ImportFormat = {
  name: OWN_FORMAT,
  detect: (first) =>
    typeof first === 'object' &&
    first !== null &&
    (first as Record<string, unknown>).format === OWN_FORMAT,
  map(element, position) {
    const type = (element as { type?: unknown } | null)?.type
    if (position === 0) {
      const header = parse(HeaderSchema, element, 'the header')
      if (header.version > OWN_FORMAT_VERSION)
        throw new ImportInputError(
          'the header',
          'version',
          `is ${header.version}; this app reads version ${OWN_FORMAT_VERSION}. Update the app to import this file.`
        )
      return { threads: [], memories: [], skipped: {}, settingsSchema: header.schema ?? 0 }
    }
    if (type === 'memory') {
      const memory = parse(MemorySchema, element, `memory ${position}`)
      return { threads: [], memories: [memory], skipped: {} }
    }
    const label = conversationLabel(position - 1, (element as { title?: unknown } | null)?.title)
    const thread = parse(ThreadSchema, element, label)
    return {
      threads: [
        {
          key: ownKey(thread.id),
          id: thread.id,
          // Exactly as stored: an untitled thread stays untitled (the UI names it per language).
          title: thread.title,
          createdAt: thread.createdAt,
          updatedAt: thread.updatedAt,
          settings: thread.settings,
          forkOf: thread.forkedFrom
            ? { key: ownKey(thread.forkedFrom.threadId), seq: thread.forkedFrom.seq }
            : null,
          summary: thread.summary,
          messages: thread.messages.map((m) => ({
            role: m.role,
            content: m.content,
            createdAt: m.createdAt,
            seq: m.seq,
            sourceId: m.id,
            toolCalls: m.toolCalls,
            toolCallId: m.toolCallId,
            tokenCount: m.tokenCount,
            pinned: m.pinned,
            excluded: m.excluded,
            ...(m.reply && { reply: m.reply })
          }))
        }
      ],
      memories: [],
      skipped: {}
    }
  }
}

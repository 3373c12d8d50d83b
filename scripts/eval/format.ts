/**
 * `context-eval/1`, the neutral evaluation format (../shared/benchdata/README.md): threads of
 * messages, optional curated memories, and questions whose evidence names message or memory
 * ids. Converters write it; the evaluator reads nothing else.
 */
import { readFileSync } from 'node:fs'
import { gunzipSync } from 'node:zlib'
import { z } from 'zod'

export const FORMAT = 'context-eval/1'

const IsoTime = z
  .string()
  .refine((value) => !Number.isNaN(Date.parse(value)), { message: 'must be an ISO time' })

const MessageSchema = z.looseObject({
  id: z.string().min(1),
  role: z.enum(['user', 'assistant']),
  content: z.string(),
  created_at: IsoTime.optional(),
  name: z.string().optional()
})

const ThreadSchema = z.looseObject({
  id: z.string().min(1),
  title: z.string().optional(),
  messages: z.array(MessageSchema)
})

const MemorySchema = z.looseObject({
  id: z.string().min(1),
  content: z.string().min(1),
  category: z.string().optional(),
  created_at: IsoTime.optional()
})

const QuestionSchema = z.looseObject({
  id: z.string().min(1),
  thread_id: z.string().min(1),
  scope_thread_ids: z.array(z.string()).optional(),
  question: z.string().min(1),
  asked_at: IsoTime.optional(),
  evidence: z.array(z.string()),
  category: z.string().optional(),
  /** Not part of the README's format: the reference answer, kept for people reading a file. */
  answer: z.string().optional()
})

const DatasetSchema = z.looseObject({
  format: z.literal(FORMAT),
  name: z.string(),
  threads: z.array(ThreadSchema),
  memories: z.array(MemorySchema).optional(),
  questions: z.array(QuestionSchema)
})

export type EvalMessage = z.infer<typeof MessageSchema>
export type EvalThread = z.infer<typeof ThreadSchema>
export type EvalMemory = z.infer<typeof MemorySchema>
export type EvalQuestion = z.infer<typeof QuestionSchema>
export type EvalDataset = z.infer<typeof DatasetSchema>

/** Validates a parsed file: the schema, then ids unique across messages and memories. */
export function parseDataset(value: unknown): EvalDataset {
  const parsed = DatasetSchema.safeParse(value)
  if (!parsed.success) {
    const issues = parsed.error.issues
      .slice(0, 5)
      .map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`)
    throw new Error(`Not a ${FORMAT} dataset: ${issues.join('; ')}`)
  }
  const dataset = parsed.data
  const ids = new Set<string>()
  const threadIds = new Set<string>()
  for (const thread of dataset.threads) {
    if (threadIds.has(thread.id)) throw new Error(`Duplicate thread id "${thread.id}".`)
    threadIds.add(thread.id)
    for (const message of thread.messages) {
      if (ids.has(message.id)) throw new Error(`Duplicate message id "${message.id}".`)
      ids.add(message.id)
    }
  }
  for (const memory of dataset.memories ?? []) {
    if (ids.has(memory.id)) throw new Error(`Duplicate id "${memory.id}" (memory).`)
    ids.add(memory.id)
  }
  const questionIds = new Set<string>()
  for (const question of dataset.questions) {
    if (questionIds.has(question.id)) throw new Error(`Duplicate question id "${question.id}".`)
    questionIds.add(question.id)
  }
  return dataset
}

/** Reads a JSON file, gunzipping it first when it is gzip (by its magic bytes). */
export function readJsonFile(path: string): unknown {
  const bytes = readFileSync(path)
  const text =
    bytes[0] === 0x1f && bytes[1] === 0x8b ? gunzipSync(bytes).toString('utf8') : bytes.toString()
  return JSON.parse(text) as unknown
}

export function readDataset(path: string): EvalDataset {
  return parseDataset(readJsonFile(path))
}

/**
 * The history a question may see (../shared/benchdata/README.md): the messages of the threads
 * in `scope_thread_ids` (all threads when absent), and of those only the ones with
 * `created_at <= asked_at` when both times are present; memories likewise by time. Questions
 * that see exactly the same history share one store, so a conversation is loaded and indexed
 * once for all of its questions.
 */
import { createHash } from 'node:crypto'
import type { EvalDataset, EvalMemory, EvalQuestion, EvalThread } from './format'

export interface VisibleThread {
  thread: EvalThread
  /** The thread's messages this question may see, in order. */
  messages: EvalThread['messages']
}

export interface HistoryGroup {
  key: string
  threads: VisibleThread[]
  memories: EvalMemory[]
  questions: EvalQuestion[]
}

function visibleAt(createdAt: string | undefined, askedAt: string | undefined): boolean {
  return (
    createdAt === undefined || askedAt === undefined || Date.parse(createdAt) <= Date.parse(askedAt)
  )
}

export function visibleHistory(
  dataset: EvalDataset,
  question: EvalQuestion
): { threads: VisibleThread[]; memories: EvalMemory[] } {
  const scope = question.scope_thread_ids ? new Set(question.scope_thread_ids) : null
  const threads: VisibleThread[] = []
  for (const thread of dataset.threads) {
    if (scope && !scope.has(thread.id)) continue
    const messages = thread.messages.filter((m) => visibleAt(m.created_at, question.asked_at))
    threads.push({ thread, messages })
  }
  const memories = (dataset.memories ?? []).filter((m) =>
    visibleAt(m.created_at, question.asked_at)
  )
  return { threads, memories }
}

/** Groups questions by the exact history they see, in the order questions first appear. */
export function groupByHistory(
  dataset: EvalDataset,
  questions: readonly EvalQuestion[]
): HistoryGroup[] {
  const groups = new Map<string, HistoryGroup>()
  for (const question of questions) {
    const { threads, memories } = visibleHistory(dataset, question)
    const hash = createHash('sha256')
    for (const { thread, messages } of threads) {
      hash.update(`t\u0000${thread.id}\u0000`)
      for (const m of messages) hash.update(`${m.id}\u0000`)
    }
    for (const memory of memories) hash.update(`m\u0000${memory.id}\u0000`)
    const key = hash.digest('hex')
    let group = groups.get(key)
    if (!group) {
      group = { key, threads, memories, questions: [] }
      groups.set(key, group)
    }
    group.questions.push(question)
  }
  return [...groups.values()]
}

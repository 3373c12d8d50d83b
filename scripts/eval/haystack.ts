/**
 * A haystack layout of a converted dataset: each question is asked in a new thread over its own
 * threads plus other questions' threads, `threads` in all, the way LongMemEval-S hides a
 * question's sessions among ~50 unrelated ones (~115k tokens). Built from the oracle release,
 * which is what ../shared/benchdata holds. Pure: dataset in, dataset out.
 *
 * The fillers are the threads of the questions that follow in the file (cyclically), so the
 * layout is deterministic and every question's own evidence stays in its haystack. A filler
 * that repeats a thread already in the haystack is skipped: LongMemEval reuses a session across
 * questions, and a copy of a question's evidence would count as noise beside it. `asked_at` is
 * left out: the fillers come from other users' timelines, and a question dated before them
 * would hide part of its haystack.
 *
 * `inConversation` asks each question in a thread that already holds a short exchange (a
 * greeting and its answer, the same for every question, in neither language's topic), so the
 * build reads other threads' messages as it does in a running conversation (relevanceGate.ts,
 * `messageInConversation`), where a new thread reads them with the bar for a fresh question.
 */
import type { EvalDataset, EvalMessage, EvalQuestion } from './format'

export interface HaystackOptions {
  /** Threads each question sees, its own included. */
  threads: number
  /** Use only the first N questions (and draw fillers from them only): fewer texts to embed. */
  questions?: number
  /** Ask each question after a two-turn greeting in its own thread. */
  inConversation?: boolean
}

/** The exchange an `inConversation` question follows. */
const LEAD_IN: readonly EvalMessage[] = [
  {
    id: 'lead-in/0',
    role: 'user',
    content: "Hi! I have a few things to ask you today, if that's alright."
  },
  {
    id: 'lead-in/1',
    role: 'assistant',
    content: 'Of course, happy to help. What would you like to know?'
  }
]

export function haystackLayout(dataset: EvalDataset, options: HaystackOptions): EvalDataset {
  const questions = dataset.questions.slice(0, options.questions ?? dataset.questions.length)
  const scopeOf = (q: EvalQuestion): string[] =>
    q.scope_thread_ids ?? dataset.threads.map((t) => t.id)
  const textOf = new Map(
    dataset.threads.map((t) => [t.id, t.messages.map((m) => m.content).join('\u0000')])
  )
  const out: EvalQuestion[] = questions.map((question, index) => {
    const scope = new Set(scopeOf(question))
    const texts = new Set([...scope].map((id) => textOf.get(id)))
    for (let step = 1; step < questions.length && scope.size < options.threads; step++) {
      const other = questions[(index + step) % questions.length] as EvalQuestion
      for (const id of scopeOf(other)) {
        if (scope.size >= options.threads) break
        if (texts.has(textOf.get(id))) continue
        scope.add(id)
        texts.add(textOf.get(id))
      }
    }
    if (options.inConversation) scope.add(question.thread_id)
    const asked: EvalQuestion = { ...question, scope_thread_ids: [...scope] }
    delete asked.asked_at
    return asked
  })
  const used = new Set(out.flatMap((q) => q.scope_thread_ids ?? []))
  const askedIn = options.inConversation
    ? [...new Set(out.map((q) => q.thread_id))].map((id) => ({
        id,
        title: 'ask',
        messages: LEAD_IN.map((m) => ({ ...m, id: `${id}/${m.id}` }))
      }))
    : []
  const layout = `haystack-${options.threads}${options.inConversation ? '-in-conversation' : ''}`
  return {
    ...dataset,
    name: `${dataset.name.replace(/\/[^/]*$/u, '')}/${layout}`,
    threads: [...dataset.threads.filter((t) => used.has(t.id)), ...askedIn],
    questions: out
  }
}

/**
 * Control sets: the dataset's questions where their answer is not in the history, so the only
 * right amount of recall is none. Built from a converted dataset (pure: dataset in, dataset
 * out); the evaluator reports questions without evidence apart, as what an unanswerable
 * question costs (docs/EVALUATION.md, "Cost").
 *
 * - `without-evidence`: the question's own history less the threads that hold its evidence
 *   (LongMemEval's haystack without its evidence sessions) or a copy of it (LongMemEval reuses
 *   a session across questions: without this, two control questions in 60 still had their
 *   answer in the store), and less every memory that is evidence of any question of the file
 *   (memories are not scoped per question: the dev set's dialogues against the memories nobody
 *   asks about).
 * - `other-history`: asked in a new thread over another question's history, the next one in
 *   the file whose history holds none of this question's evidence (a LoCoMo question asked of
 *   another conversation; one person's question against another's memories is `devset` with
 *   `--memories-from`).
 */
import type { EvalDataset, EvalMemory, EvalQuestion } from './format'

export const CONTROL_MODES = ['without-evidence', 'other-history'] as const
export type ControlMode = (typeof CONTROL_MODES)[number]

export function controlSet(
  dataset: EvalDataset,
  mode: ControlMode,
  /** Another dataset whose memories replace this one's (one person's memories for another's). */
  memoriesFrom?: EvalDataset
): EvalDataset {
  const contentOf = new Map<string, string>()
  const threadsWith = new Map<string, string[]>()
  for (const thread of dataset.threads) {
    for (const message of thread.messages) {
      contentOf.set(message.id, message.content)
      const threads = threadsWith.get(message.content) ?? []
      threads.push(thread.id)
      threadsWith.set(message.content, threads)
    }
  }
  const allThreads = dataset.threads.map((t) => t.id)
  const scopeOf = (q: EvalQuestion): string[] => q.scope_thread_ids ?? allThreads
  /** Every thread that holds an evidence message's text: its own, and any copy of it. */
  const evidenceThreads = (q: EvalQuestion): Set<string> =>
    new Set(q.evidence.flatMap((id) => threadsWith.get(contentOf.get(id) ?? '') ?? []))
  const everyEvidence = new Set(dataset.questions.flatMap((q) => q.evidence))

  const questions = dataset.questions.map((question, index): EvalQuestion => {
    const own = evidenceThreads(question)
    let scope: string[]
    let threadId = question.thread_id
    if (mode === 'without-evidence') {
      scope = scopeOf(question).filter((id) => !own.has(id))
    } else {
      threadId = `${question.id}/control`
      const others = dataset.questions.length
      scope = []
      for (let step = 1; step < others; step++) {
        const other = dataset.questions[(index + step) % others] as EvalQuestion
        const candidate = scopeOf(other)
        if (candidate.some((id) => own.has(id))) continue
        scope = candidate.filter((id) => id !== question.thread_id)
        break
      }
    }
    return {
      ...question,
      id: `${question.id}/control`,
      thread_id: threadId,
      scope_thread_ids: scope,
      evidence: [],
      category: `control ${question.category ?? ''}`.trim()
    }
  })
  const memories: EvalMemory[] | undefined = memoriesFrom
    ? memoriesFrom.memories
    : dataset.memories?.filter((m) => !everyEvidence.has(m.id))
  const kept = new Set(questions.flatMap((q) => q.scope_thread_ids ?? []))
  return {
    ...dataset,
    name: `${dataset.name}/control-${mode}`,
    threads: dataset.threads.filter((t) => kept.has(t.id)),
    ...(memories ? { memories } : {}),
    questions
  }
}

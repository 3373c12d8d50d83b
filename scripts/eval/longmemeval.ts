/**
 * LongMemEval (Wu et al., ICLR 2025), the oracle release → context-eval/1. Each question's
 * haystack sessions become threads that only that question may see (`scope_thread_ids`); the
 * turns flagged `has_answer` are its evidence; the question is asked in a new, empty thread
 * at `question_date`. Abstention questions (`_abs`: the answer is not in the history) are
 * skipped, as the benchmark's retrieval metrics do.
 *
 * Upstream quirk: 43 questions have a session dated a few hours after the question, on the
 * same day (timestamp noise; the session holds the evidence). For those, `asked_at` is left
 * out rather than hiding the evidence; the count is reported.
 */
import { addSeconds, parseLongMemEvalDate } from './dates'
import { FORMAT, type EvalDataset } from './format'
import type { ConversionReport } from './locomo'

interface Turn {
  role: string
  content: string
  has_answer?: boolean
}

interface Entry {
  question_id: string
  question_type: string
  question: string
  answer?: unknown
  question_date: string
  haystack_session_ids: string[]
  haystack_dates: string[]
  haystack_sessions: Turn[][]
}

export function convertLongMemEval(data: unknown): {
  dataset: EvalDataset
  report: ConversionReport & { abstention: number; askedAtOmitted: number }
} {
  if (!Array.isArray(data)) throw new Error('The LongMemEval file should hold an array.')
  const dataset: EvalDataset = {
    format: FORMAT,
    name: 'longmemeval/oracle',
    threads: [],
    questions: []
  }
  let abstention = 0
  let askedAtOmitted = 0
  let evidenceIds = 0
  let emptyEvidence = 0

  for (const entry of data as Entry[]) {
    const qid = entry.question_id
    if (qid.endsWith('_abs')) {
      abstention++
      continue
    }
    const askedAt = parseLongMemEvalDate(entry.question_date)
    const scope: string[] = []
    const evidence: string[] = []
    let latest = ''
    entry.haystack_sessions.forEach((turns, s) => {
      const sessionId = entry.haystack_session_ids[s] ?? `session-${s}`
      const when = entry.haystack_dates[s]
      if (when === undefined) throw new Error(`${qid}: session ${sessionId} has no date.`)
      const start = parseLongMemEvalDate(when)
      // Session ids repeat across questions (and could within one): index keeps ids unique.
      const threadId = `${qid}/${s}-${sessionId}`
      scope.push(threadId)
      dataset.threads.push({
        id: threadId,
        title: `${qid} session ${s + 1}`,
        messages: turns.map((turn, t) => {
          if (turn.role !== 'user' && turn.role !== 'assistant') {
            throw new Error(`${qid}: turn ${t} of ${sessionId} has role "${turn.role}".`)
          }
          const id = `${threadId}/${t}`
          const createdAt = addSeconds(start, t)
          if (createdAt > latest) latest = createdAt
          if (turn.has_answer === true) evidence.push(id)
          return { id, role: turn.role, content: turn.content, created_at: createdAt }
        })
      })
    })
    const consistent = latest <= askedAt
    if (!consistent) askedAtOmitted++
    if (evidence.length === 0) emptyEvidence++
    evidenceIds += evidence.length
    dataset.questions.push({
      id: qid,
      thread_id: `${qid}/ask`,
      scope_thread_ids: scope,
      question: entry.question,
      ...(consistent ? { asked_at: askedAt } : {}),
      evidence,
      category: entry.question_type,
      ...(entry.answer === undefined ? {} : { answer: String(entry.answer) })
    })
  }

  return {
    dataset,
    report: {
      threads: dataset.threads.length,
      messages: dataset.threads.reduce((sum, thread) => sum + thread.messages.length, 0),
      questions: dataset.questions.length,
      evidenceIds,
      repaired: [],
      dropped: [],
      emptyEvidence,
      notes: [],
      abstention,
      askedAtOmitted
    }
  }
}

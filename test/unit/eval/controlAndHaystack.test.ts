import { describe, expect, it } from 'vitest'
import { controlSet } from '../../../scripts/eval/control'
import { FORMAT, type EvalDataset } from '../../../scripts/eval/format'
import { haystackLayout } from '../../../scripts/eval/haystack'

const thread = (id: string, n = 2) => ({
  id,
  messages: Array.from({ length: n }, (_, i) => ({
    id: `${id}/${i}`,
    role: i % 2 === 0 ? ('user' as const) : ('assistant' as const),
    content: `${id} turn ${i}`
  }))
})

// Three questions, each with its own two sessions; the first session holds the evidence.
const dataset: EvalDataset = {
  format: FORMAT,
  name: 'lme/oracle',
  threads: ['a1', 'a2', 'b1', 'b2', 'c1', 'c2'].map((id) => thread(id)),
  memories: [
    { id: 'm1', content: 'evidence memory' },
    { id: 'm2', content: 'unrelated memory' }
  ],
  questions: ['a', 'b', 'c'].map((q) => ({
    id: q,
    thread_id: `${q}/ask`,
    scope_thread_ids: [`${q}1`, `${q}2`],
    question: `question ${q}`,
    asked_at: '2024-01-01T00:00:00Z',
    evidence: q === 'a' ? ['a1/0', 'm1'] : [`${q}1/1`]
  }))
}

describe('haystackLayout', () => {
  it('hides each question among the following questions’ threads, its evidence kept', () => {
    const out = haystackLayout(dataset, { threads: 4 })
    expect(out.questions.map((q) => q.scope_thread_ids)).toEqual([
      ['a1', 'a2', 'b1', 'b2'],
      ['b1', 'b2', 'c1', 'c2'],
      ['c1', 'c2', 'a1', 'a2']
    ])
    expect(out.questions.every((q) => q.asked_at === undefined)).toBe(true)
    expect(out.questions[0]?.evidence).toEqual(['a1/0', 'm1'])
  })

  it('skips a filler that repeats a thread already in the haystack', () => {
    // LongMemEval reuses sessions across questions: b1 is a copy of a1.
    const copy = {
      id: 'b1',
      messages: thread('a1').messages.map((m, i) => ({ ...m, id: `b1/${i}` }))
    }
    const threads = dataset.threads.map((t) => (t.id === 'b1' ? copy : t))
    const out = haystackLayout({ ...dataset, threads }, { threads: 4 })
    expect(out.questions[0]?.scope_thread_ids).toEqual(['a1', 'a2', 'b2', 'c1'])
    // A question's own threads are never skipped.
    expect(out.questions[1]?.scope_thread_ids).toEqual(['b1', 'b2', 'c1', 'c2'])
  })

  it('in conversation: each question asked after a greeting in its own thread, in its scope', () => {
    const out = haystackLayout(dataset, { threads: 4, inConversation: true })
    expect(out.name).toBe('lme/haystack-4-in-conversation')
    expect(out.questions[0]?.scope_thread_ids).toEqual(['a1', 'a2', 'b1', 'b2', 'a/ask'])
    const asked = out.threads.find((t) => t.id === 'a/ask')
    expect(asked?.messages.map((m) => [m.id, m.role])).toEqual([
      ['a/ask/lead-in/0', 'user'],
      ['a/ask/lead-in/1', 'assistant']
    ])
    // Its control keeps the greeting: only the evidence threads go.
    const control = controlSet(out, 'without-evidence')
    expect(control.questions[0]?.scope_thread_ids).toEqual(['a2', 'b1', 'b2', 'a/ask'])
  })

  it('draws only from the first N questions', () => {
    const out = haystackLayout(dataset, { threads: 50, questions: 2 })
    expect(out.questions).toHaveLength(2)
    expect(out.threads.map((t) => t.id).sort()).toEqual(['a1', 'a2', 'b1', 'b2'])
  })
})

describe('controlSet', () => {
  it('without-evidence: the history less its evidence threads and every evidence memory', () => {
    const haystack = haystackLayout(dataset, { threads: 4 })
    const out = controlSet(haystack, 'without-evidence')
    expect(out.questions.map((q) => q.scope_thread_ids)).toEqual([
      ['a2', 'b1', 'b2'],
      ['b2', 'c1', 'c2'],
      ['c2', 'a1', 'a2']
    ])
    expect(out.questions.every((q) => q.evidence.length === 0)).toBe(true)
    expect(out.memories?.map((m) => m.id)).toEqual(['m2'])
  })

  it('without-evidence: a copy of an evidence session goes too', () => {
    // LongMemEval reuses sessions across questions: b2 repeats a1's evidence turn.
    const [a1, a2, b1, b2, c1, c2] = dataset.threads
    const copy = { ...b2!, messages: [{ ...b2!.messages[0]!, content: 'a1 turn 0' }] }
    const haystack = haystackLayout(
      { ...dataset, threads: [a1!, a2!, b1!, copy, c1!, c2!] },
      { threads: 4 }
    )
    const out = controlSet(haystack, 'without-evidence')
    expect(out.questions[0]?.scope_thread_ids).toEqual(['a2', 'b1'])
    // Another question's evidence thread is only dropped from its own control.
    expect(out.questions[1]?.scope_thread_ids).toEqual(['b2', 'c1', 'c2'])
  })

  it('other-history: asked in a new thread over the next history without its evidence', () => {
    const out = controlSet(dataset, 'other-history')
    expect(out.questions[0]).toMatchObject({
      id: 'a/control',
      thread_id: 'a/control',
      scope_thread_ids: ['b1', 'b2'],
      evidence: []
    })
    expect(out.questions[2]?.scope_thread_ids).toEqual(['a1', 'a2'])
  })

  it('takes another dataset’s memories when asked to', () => {
    const other = { ...dataset, memories: [{ id: 'x1', content: 'someone else' }] }
    expect(controlSet(dataset, 'without-evidence', other).memories).toEqual(other.memories)
  })
})

import { describe, expect, it } from 'vitest'
import { parseDataset, type EvalDataset } from '../../../scripts/eval/format'
import { groupByHistory, visibleHistory } from '../../../scripts/eval/visibility'

const dataset: EvalDataset = parseDataset({
  format: 'context-eval/1',
  name: 'tiny',
  threads: [
    {
      id: 't1',
      messages: [
        { id: 'a', role: 'user', content: 'first', created_at: '2024-01-01T10:00:00Z' },
        { id: 'b', role: 'assistant', content: 'later', created_at: '2024-03-01T10:00:00Z' }
      ]
    },
    {
      id: 't2',
      messages: [{ id: 'c', role: 'user', content: 'no time' }]
    }
  ],
  memories: [
    { id: 'm1', content: 'old memory', created_at: '2023-12-01T00:00:00Z' },
    { id: 'm2', content: 'new memory', created_at: '2024-06-01T00:00:00Z' }
  ],
  questions: [
    { id: 'q1', thread_id: 't1', question: 'all of it?', evidence: ['a'] },
    {
      id: 'q2',
      thread_id: 'new',
      scope_thread_ids: ['t1'],
      asked_at: '2024-02-01T00:00:00Z',
      question: 'before March, t1 only?',
      evidence: ['b']
    },
    { id: 'q3', thread_id: 't2', question: 'same as q1', evidence: [] }
  ]
})

const ids = (history: ReturnType<typeof visibleHistory>) => ({
  threads: history.threads.map((t) => [t.thread.id, t.messages.map((m) => m.id)]),
  memories: history.memories.map((m) => m.id)
})

describe('the history a question may see', () => {
  it('is every thread and memory without a scope or a time', () => {
    expect(ids(visibleHistory(dataset, dataset.questions[0]!))).toEqual({
      threads: [
        ['t1', ['a', 'b']],
        ['t2', ['c']]
      ],
      memories: ['m1', 'm2']
    })
  })

  it('is the scoped threads, up to asked_at (messages without a time stay visible)', () => {
    expect(ids(visibleHistory(dataset, dataset.questions[1]!))).toEqual({
      threads: [['t1', ['a']]],
      memories: ['m1']
    })
  })

  it('groups questions that see exactly the same history into one store', () => {
    const groups = groupByHistory(dataset, dataset.questions)
    expect(groups.map((g) => g.questions.map((q) => q.id))).toEqual([['q1', 'q3'], ['q2']])
  })
})

describe('the format', () => {
  it('refuses duplicate ids and anything that is not context-eval/1', () => {
    expect(() => parseDataset({ format: 'other', name: 'x', threads: [], questions: [] })).toThrow(
      /Not a context-eval\/1 dataset/
    )
    const duplicate = {
      format: 'context-eval/1',
      name: 'x',
      threads: [{ id: 't', messages: [{ id: 'a', role: 'user', content: 'x' }] }],
      memories: [{ id: 'a', content: 'y' }],
      questions: []
    }
    expect(() => parseDataset(duplicate)).toThrow(/Duplicate id "a"/)
    const badTime = {
      format: 'context-eval/1',
      name: 'x',
      threads: [
        { id: 't', messages: [{ id: 'a', role: 'user', content: 'x', created_at: 'soon' }] }
      ],
      questions: []
    }
    expect(() => parseDataset(badTime)).toThrow(/ISO time/)
  })
})

import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { convertDevset, convertDevsetPersona } from '../../../scripts/eval/devset'

const SOURCE = `# a comment
persona ann Ann

memory m1 pref I prefer tea in the morning.
memory m2 fact 我上个月开始学攀岩。

question q1 en m1
> Morning!
< Good morning! Sleep well?
> Can you suggest a drink for my breakfast?

question q2 cross m2
> Any ideas for the weekend?
`

describe('the dev set converter', () => {
  it('turns one person into context-eval/1: memories, a dialogue per question, the last turn asked', () => {
    const dataset = convertDevsetPersona(SOURCE, 'ann.txt')
    expect(dataset.name).toBe('devset/ann')
    expect(dataset.memories).toEqual([
      {
        id: 'ann/m1',
        content: 'I prefer tea in the morning.',
        category: 'user_preference',
        created_at: '2026-01-01T00:00:00Z'
      },
      {
        id: 'ann/m2',
        content: '我上个月开始学攀岩。',
        category: 'fact',
        created_at: '2026-01-02T00:00:00Z'
      }
    ])
    expect(dataset.threads).toEqual([
      {
        id: 'ann/q1',
        messages: [
          {
            id: 'ann/q1/t1',
            role: 'user',
            content: 'Morning!',
            created_at: '2026-06-01T00:00:00Z'
          },
          {
            id: 'ann/q1/t2',
            role: 'assistant',
            content: 'Good morning! Sleep well?',
            created_at: '2026-06-01T00:01:00Z'
          }
        ]
      }
    ])
    expect(dataset.questions).toEqual([
      {
        id: 'ann/q1',
        thread_id: 'ann/q1',
        scope_thread_ids: ['ann/q1'],
        question: 'Can you suggest a drink for my breakfast?',
        asked_at: '2026-06-01T00:02:00Z',
        evidence: ['ann/m1'],
        category: 'en'
      },
      // No turn before it: asked in a new, empty thread that sees no other dialogue.
      {
        id: 'ann/q2',
        thread_id: 'ann/q2',
        scope_thread_ids: ['ann/q2'],
        question: 'Any ideas for the weekend?',
        asked_at: '2026-06-01T01:00:00Z',
        evidence: ['ann/m2'],
        category: 'cross'
      }
    ])
  })

  it('reads an off-topic control question: its own keyword, no evidence allowed', () => {
    const dataset = convertDevsetPersona(
      'persona a A\nmemory m1 fact I like tea.\nofftopic o1 en\n> What is the capital of Peru?',
      'a.txt'
    )
    expect(dataset.questions[0]).toMatchObject({ category: 'offtopic en', evidence: [] })
    expect(() =>
      convertDevsetPersona('persona a A\nmemory m1 fact x\nofftopic o1 en m1\n> Hi?', 'a.txt')
    ).toThrow('a.txt:3: offtopic needs an id and zh or en, and no evidence')
  })

  it('refuses a broken file with its line', () => {
    expect(() => convertDevsetPersona('persona a A\nquestion q1 en m9\n> Hi?', 'a.txt')).toThrow(
      'a.txt:2: unknown evidence a/m9'
    )
    expect(() =>
      convertDevsetPersona(
        'persona a A\nmemory m1 fact x\nquestion q1 en m1\n> Hi\n< Hello',
        'a.txt'
      )
    ).toThrow('a.txt:3: question q1 must end with a > turn')
    expect(() => convertDevsetPersona('persona a A\nmemory m1 mood x', 'a.txt')).toThrow(
      'a.txt:2: unknown memory category "mood"'
    )
    expect(() => convertDevsetPersona('persona a A\n> Hi', 'a.txt')).toThrow(
      'a.txt:2: a turn before any question'
    )
  })

  it('holds the committed set: 150+ questions in each category, about 80 memories per person', () => {
    const datasets = convertDevset(join(__dirname, '../../fixtures/devset'))
    const questions = datasets.flatMap((d) => d.questions)
    expect(questions.length).toBeGreaterThanOrEqual(150)
    for (const d of datasets) expect(d.memories).toHaveLength(80)
    const count = (category: string) => questions.filter((q) => q.category === category).length
    expect(count('zh')).toBeGreaterThanOrEqual(50)
    expect(count('en')).toBeGreaterThanOrEqual(50)
    expect(count('cross')).toBeGreaterThanOrEqual(40)
    // Off-topic control questions in both languages: nothing to find, so no evidence.
    for (const language of ['zh', 'en']) {
      const offTopic = questions.filter((q) => q.category === `offtopic ${language}`)
      expect(offTopic.length).toBeGreaterThanOrEqual(9)
      expect(offTopic.every((q) => q.evidence.length === 0)).toBe(true)
    }
    // Deterministic: the same files give the same datasets.
    expect(convertDevset(join(__dirname, '../../fixtures/devset'))).toEqual(datasets)
  })
})

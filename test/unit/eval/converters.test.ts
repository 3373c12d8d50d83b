import { describe, expect, it } from 'vitest'
import { addSeconds, parseLocomoDate, parseLongMemEvalDate } from '../../../scripts/eval/dates'
import { parseDataset } from '../../../scripts/eval/format'
import { convertLocomo, splitEvidence } from '../../../scripts/eval/locomo'
import { convertLongMemEval } from '../../../scripts/eval/longmemeval'

/** Hand-made inputs in the sources' shapes; nothing here comes from the datasets. */

describe('date strings', () => {
  it('reads LoCoMo session times as UTC wall-clock times', () => {
    expect(parseLocomoDate('1:56 pm on 8 May, 2023')).toBe('2023-05-08T13:56:00Z')
    expect(parseLocomoDate('10:04 am on 19 December, 2023')).toBe('2023-12-19T10:04:00Z')
    expect(parseLocomoDate('12:09 am on 2 January, 2024')).toBe('2024-01-02T00:09:00Z')
    expect(parseLocomoDate('12:30 pm on 29 February, 2024')).toBe('2024-02-29T12:30:00Z')
  })

  it('refuses LoCoMo times it cannot read instead of guessing', () => {
    expect(() => parseLocomoDate('yesterday')).toThrow(/Unreadable LoCoMo date/)
    expect(() => parseLocomoDate('1:56 pm on 31 April, 2023')).toThrow(/Unreadable/)
    expect(() => parseLocomoDate('13:56 pm on 8 May, 2023')).toThrow(/Unreadable/)
    expect(() => parseLocomoDate('1:56 pm on 8 Maybe, 2023')).toThrow(/Unreadable/)
  })

  it('reads LongMemEval times and ignores the weekday', () => {
    expect(parseLongMemEvalDate('2023/05/28 (Sun) 19:47')).toBe('2023-05-28T19:47:00Z')
    expect(parseLongMemEvalDate('2022/03/02 (Wed) 04:59')).toBe('2022-03-02T04:59:00Z')
    expect(() => parseLongMemEvalDate('2023-05-28 19:47:00')).toThrow(/Unreadable/)
    expect(() => parseLongMemEvalDate('2023/02/30 (Thu) 10:00')).toThrow(/Unreadable/)
  })

  it('spaces the turns of a session one second apart', () => {
    expect(addSeconds('2023-05-08T13:56:00Z', 61)).toBe('2023-05-08T13:57:01Z')
  })
})

describe('LoCoMo evidence ids', () => {
  it('splits and normalises the malformed strings the README lists', () => {
    expect(splitEvidence('D8:6; D9:17')).toEqual(['D8:6', 'D9:17'])
    expect(splitEvidence('D9:1 D4:4 D4:6')).toEqual(['D9:1', 'D4:4', 'D4:6'])
    expect(splitEvidence('D1:2,D1:3')).toEqual(['D1:2', 'D1:3'])
    expect(splitEvidence('D:11:26')).toEqual(['D11:26'])
    expect(splitEvidence('D30:05')).toEqual(['D30:5'])
    expect(splitEvidence('D')).toEqual(['D'])
    expect(splitEvidence('D2:4')).toEqual(['D2:4'])
  })
})

/** Two people, two sessions (a third date with no session, as in the real file), four questions. */
function tinyLocomo() {
  return [
    {
      sample_id: 'conv-x',
      conversation: {
        speaker_a: 'Ada',
        speaker_b: 'Ben',
        session_1_date_time: '9:15 am on 3 March, 2022',
        session_1: [
          { speaker: 'Ada', dia_id: 'D1:1', text: 'I adopted a grey cat named Pixel.' },
          {
            speaker: 'Ben',
            dia_id: 'D1:2',
            text: 'Look at my new kayak!',
            img_url: ['https://example.invalid/k.jpg'],
            blip_caption: 'a photo of a red kayak on a lake'
          }
        ],
        session_2_date_time: '7:40 pm on 10 April, 2022',
        session_2: [
          { speaker: 'Ben', dia_id: 'D2:1', text: 'The kayak trip was cold.' },
          { speaker: 'Ada', dia_id: 'D2:2', text: 'Pixel learned to open doors.' }
        ],
        session_3_date_time: '1:00 pm on 1 May, 2022'
      },
      qa: [
        { question: 'What is the cat called?', answer: 'Pixel', evidence: ['D1:1'], category: 4 },
        {
          question: 'What did Ben buy and how was the trip?',
          answer: 'a kayak; cold',
          evidence: ['D1:2; D2:1', 'D:2:2', 'D02:01'],
          category: 1
        },
        {
          question: 'When did Ada adopt the cat?',
          answer: 2022,
          evidence: ['D9:9', 'D', 'D1:01'],
          category: 2
        },
        {
          question: 'What did Ben realise?',
          adversarial_answer: 'nothing',
          evidence: [],
          category: 5
        }
      ]
    }
  ]
}

describe('convert locomo', () => {
  it('single-thread: one thread per conversation, speaker_a as the user, questions in it', () => {
    const { dataset, report } = convertLocomo(tinyLocomo(), 'single-thread')
    expect(parseDataset(dataset)).toEqual(dataset)
    expect(dataset.name).toBe('locomo/single-thread')
    expect(dataset.threads).toHaveLength(1)
    const [thread] = dataset.threads
    expect(thread?.id).toBe('conv-x')
    expect(thread?.messages.map((m) => [m.id, m.role, m.created_at])).toEqual([
      ['conv-x/D1:1', 'user', '2022-03-03T09:15:00Z'],
      ['conv-x/D1:2', 'assistant', '2022-03-03T09:15:01Z'],
      ['conv-x/D2:1', 'assistant', '2022-04-10T19:40:00Z'],
      ['conv-x/D2:2', 'user', '2022-04-10T19:40:01Z']
    ])
    expect(thread?.messages[1]?.content).toBe(
      'Look at my new kayak! [shares a photo of a red kayak on a lake]'
    )
    expect(thread?.messages[0]?.name).toBe('Ada')
    expect(dataset.questions.map((q) => [q.id, q.thread_id, q.category])).toEqual([
      ['conv-x/q0', 'conv-x', '4 single-hop'],
      ['conv-x/q1', 'conv-x', '1 multi-hop'],
      ['conv-x/q2', 'conv-x', '2 temporal'],
      ['conv-x/q3', 'conv-x', '5 adversarial']
    ])
    expect(dataset.questions.every((q) => q.scope_thread_ids?.join() === 'conv-x')).toBe(true)
    expect(dataset.questions[3]?.answer).toBe('nothing')
    expect(dataset.questions[2]?.answer).toBe('2022')
    expect(report).toMatchObject({ threads: 1, messages: 4, questions: 4, emptyEvidence: 1 })
  })

  it('repairs malformed evidence ids and drops (and counts) the ones that name no turn', () => {
    const { dataset, report } = convertLocomo(tinyLocomo(), 'single-thread')
    expect(dataset.questions[1]?.evidence).toEqual(['conv-x/D1:2', 'conv-x/D2:1', 'conv-x/D2:2'])
    expect(dataset.questions[2]?.evidence).toEqual(['conv-x/D1:1'])
    expect(report.repaired.map((r) => [r.raw, r.ids])).toEqual([
      ['D1:2; D2:1', ['D1:2', 'D2:1']],
      ['D:2:2', ['D2:2']],
      ['D02:01', ['D2:1']],
      ['D1:01', ['D1:1']]
    ])
    expect(report.dropped).toEqual([
      { questionId: 'conv-x/q2', id: 'D9:9' },
      { questionId: 'conv-x/q2', id: 'D' }
    ])
    expect(report.evidenceIds).toBe(5)
  })

  it('thread-per-session: a thread per session, each question in a new thread over them', () => {
    const { dataset } = convertLocomo(tinyLocomo(), 'thread-per-session')
    expect(dataset.threads.map((t) => [t.id, t.messages.length])).toEqual([
      ['conv-x/session-1', 2],
      ['conv-x/session-2', 2]
    ])
    const [first] = dataset.questions
    expect(first?.thread_id).toBe('conv-x/q0')
    expect(dataset.threads.some((t) => t.id === first?.thread_id)).toBe(false)
    expect(first?.scope_thread_ids).toEqual(['conv-x/session-1', 'conv-x/session-2'])
  })

  it('stops at the first missing session and refuses an unknown speaker', () => {
    const data = tinyLocomo()
    const conversation = data[0]?.conversation as Record<string, unknown>
    conversation.session_4_date_time = '1:00 pm on 2 May, 2022'
    conversation.session_4 = [{ speaker: 'Ada', dia_id: 'D4:1', text: 'never read' }]
    expect(convertLocomo(data, 'single-thread').report.messages).toBe(4)
    ;(conversation.session_2 as { speaker: string }[])[0]!.speaker = 'Cy'
    expect(() => convertLocomo(data, 'single-thread')).toThrow(/unknown speaker "Cy"/)
  })
})

function tinyLongMemEval() {
  const session = (answerAt: number) =>
    ['Hi, I need help planning a trip.', 'Sure, where to?', 'Lisbon, in June.'].map(
      (content, i) => ({
        role: i % 2 === 0 ? 'user' : 'assistant',
        content,
        has_answer: i === answerAt
      })
    )
  return [
    {
      question_id: 'q1',
      question_type: 'single-session-user',
      question: 'Where am I travelling in June?',
      answer: 'Lisbon',
      question_date: '2023/06/01 (Thu) 10:00',
      haystack_session_ids: ['s-a', 's-b'],
      haystack_dates: ['2023/05/01 (Mon) 09:00', '2023/05/20 (Sat) 18:30'],
      haystack_sessions: [session(2), session(-1)]
    },
    {
      question_id: 'q2',
      question_type: 'temporal-reasoning',
      question: 'How many days ago did I plan the trip?',
      answer: 3,
      question_date: '2023/06/01 (Thu) 10:00',
      haystack_session_ids: ['s-a'],
      haystack_dates: ['2023/06/01 (Thu) 15:00'],
      haystack_sessions: [session(0)]
    },
    {
      question_id: 'q3_abs',
      question_type: 'single-session-user',
      question: 'What is my dog called?',
      answer: 'not mentioned',
      question_date: '2023/06/01 (Thu) 10:00',
      haystack_session_ids: ['s-c'],
      haystack_dates: ['2023/05/01 (Mon) 09:00'],
      haystack_sessions: [session(-1)]
    }
  ]
}

describe('convert longmemeval', () => {
  it('makes each haystack session a thread scoped to its question, has_answer turns as evidence', () => {
    const { dataset, report } = convertLongMemEval(tinyLongMemEval())
    expect(parseDataset(dataset)).toEqual(dataset)
    expect(dataset.threads.map((t) => t.id)).toEqual(['q1/0-s-a', 'q1/1-s-b', 'q2/0-s-a'])
    const [q1, q2] = dataset.questions
    expect(q1).toMatchObject({
      id: 'q1',
      thread_id: 'q1/ask',
      scope_thread_ids: ['q1/0-s-a', 'q1/1-s-b'],
      asked_at: '2023-06-01T10:00:00Z',
      evidence: ['q1/0-s-a/2'],
      category: 'single-session-user',
      answer: 'Lisbon'
    })
    expect(dataset.threads[1]?.messages.map((m) => [m.role, m.created_at])).toEqual([
      ['user', '2023-05-20T18:30:00Z'],
      ['assistant', '2023-05-20T18:30:01Z'],
      ['user', '2023-05-20T18:30:02Z']
    ])
    // A session dated after the question (same-day noise upstream): no asked_at, counted.
    expect(q2?.asked_at).toBeUndefined()
    expect(q2?.evidence).toEqual(['q2/0-s-a/0'])
    expect(report).toMatchObject({ abstention: 1, askedAtOmitted: 1, questions: 2, evidenceIds: 2 })
  })
})

import { describe, expect, it } from 'vitest'
import {
  conversationQuery,
  queryInContext,
  recallQuery
} from '../../../src/main/context/recall/recallQuery'

const turn = (role: 'user' | 'assistant' | 'tool', content: string, excluded = false) => ({
  role,
  content,
  excluded
})

describe('the recall query', () => {
  it('is the input alone in a new thread', () => {
    expect(recallQuery('  Any ideas for the weekend?  ', [])).toEqual({
      text: 'Any ideas for the weekend?',
      context: null
    })
  })

  it('reads the newest turns before the input, oldest first, as its conversation', () => {
    const messages = [
      turn('user', 'Old topic nobody mentions again.'),
      turn('user', 'I finally have a free Saturday.'),
      turn('assistant', 'Nice!\n\nAny plans yet?')
    ]
    const query = recallQuery('Any ideas?', messages)
    expect(query).toEqual({
      text: 'Any ideas?',
      context: 'I finally have a free Saturday.\nNice! Any plans yet?'
    })
    expect(queryInContext(query)).toBe(
      'I finally have a free Saturday.\nNice! Any plans yet?\nAny ideas?'
    )
  })

  it('has a conversation that does not depend on the input, so it can be embedded before it', () => {
    const messages = [turn('user', 'Plan my week.'), turn('assistant', 'Sure, what first?')]
    const task = { goals: [{ text: 'Plan my week.', seq: 1, status: 'active' as const }] }
    const conversation = conversationQuery(messages, task)
    expect(conversation).toBe('Plan my week.\nPlan my week.\nSure, what first?')
    for (const input of ['Gym on Monday?', 'Plan my week.', 'x'.repeat(20_000)]) {
      expect(recallQuery(input, messages, task).context).toBe(conversation)
    }
  })

  it('skips excluded messages and tool output, and clips long turns', () => {
    const long = 'x'.repeat(1_000)
    const query = recallQuery('Why?', [
      turn('user', long),
      turn('tool', '{"rows": 5000}'),
      turn('assistant', 'secret', true)
    ])
    expect(query.context).toBe('x'.repeat(300))
  })

  it('puts the active task first, never a finished one', () => {
    const goals = (status: 'active' | 'done', text = 'Plan the trip to Kyoto') => ({
      goals: [{ text, seq: 1, status }]
    })
    expect(recallQuery('Which hotel?', [], goals('active')).context).toBe('Plan the trip to Kyoto')
    expect(recallQuery('Which hotel?', [], goals('done')).context).toBeNull()
  })
})

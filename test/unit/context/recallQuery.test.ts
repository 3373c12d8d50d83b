import { describe, expect, it } from 'vitest'
import { recallQuery } from '../../../src/main/context/recall/recallQuery'

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

  it('adds the newest turns before the input, oldest first, as a second query', () => {
    const messages = [
      turn('user', 'Old topic nobody mentions again.'),
      turn('user', 'I finally have a free Saturday.'),
      turn('assistant', 'Nice!\n\nAny plans yet?')
    ]
    expect(recallQuery('Any ideas?', messages)).toEqual({
      text: 'Any ideas?',
      context: 'I finally have a free Saturday.\nNice! Any plans yet?\nAny ideas?'
    })
  })

  it('skips excluded messages and tool output, and clips long turns', () => {
    const long = 'x'.repeat(1_000)
    const query = recallQuery('Why?', [
      turn('user', long),
      turn('tool', '{"rows": 5000}'),
      turn('assistant', 'secret', true)
    ])
    expect(query.context).toBe(`${'x'.repeat(300)}\nWhy?`)
  })

  it('puts the active task first, never a finished one or one that repeats the input', () => {
    const goals = (status: 'active' | 'done', text = 'Plan the trip to Kyoto') => ({
      goals: [{ text, seq: 1, status }]
    })
    expect(recallQuery('Which hotel?', [], goals('active')).context).toBe(
      'Plan the trip to Kyoto\nWhich hotel?'
    )
    expect(recallQuery('Which hotel?', [], goals('done')).context).toBeNull()
    expect(recallQuery('Which hotel?', [], goals('active', 'Which hotel?')).context).toBeNull()
  })
})

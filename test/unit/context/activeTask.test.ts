import { describe, expect, it } from 'vitest'
import { ActiveTaskTracker } from '../../../src/main/context/sections/activeTaskTracker'

function track(...texts: string[]): ActiveTaskTracker {
  const tracker = new ActiveTaskTracker()
  texts.forEach((text, i) => tracker.observe(text, i + 1))
  return tracker
}

describe('the active-task tracker', () => {
  it.each([
    'Write a function that parses CSV rows.',
    'Please summarize this article.',
    'I want a dark mode toggle in the settings.',
    'Can you explain how the window works?',
    'help me rename these files',
    'How do I undo the last commit?'
  ])('takes an English request as the goal: %s', (text) => {
    expect(track(text).current).toMatchObject({ text, seq: 1, status: 'active' })
  })

  it.each([
    '帮我写一个解析 CSV 的函数。',
    '我想把设置页改成深色模式',
    '请总结这篇文章',
    '需要你检查一下日志',
    '这个怎么配置？',
    '那金额的解析也一起修一下。'
  ])('takes a Chinese request as the goal: %s', (text) => {
    expect(track(text).current?.text).toBe(text)
  })

  it('ignores answers and remarks that ask for nothing', () => {
    const tracker = track('Write a CSV parser.', 'Semicolons, and the dates are German.', '好的')
    expect(tracker.current?.text).toBe('Write a CSV parser.')
  })

  it.each(['Thanks, that works!', 'done', 'Perfect, thank you.', '好了，谢谢！', '完成了', '搞定'])(
    'marks the goal done: %s',
    (closing) => {
      const tracker = track('Fix the failing test.', closing)
      expect(tracker.current).toBeNull()
      expect(tracker.state.goals).toEqual([
        { text: 'Fix the failing test.', seq: 1, status: 'done' }
      ])
    }
  )

  it.each(["It's not done yet.", 'Is it done?', '还没好', '完成了吗？'])(
    'does not take a negation or a question for done: %s',
    (text) => {
      expect(track('Fix the failing test.', text).current?.status).toBe('active')
    }
  )

  it('replaces the goal when a new request arrives, and keeps the history short', () => {
    const tracker = track(...Array.from({ length: 7 }, (_, i) => `Write test number ${i}.`))
    expect(tracker.state.goals.map((g) => g.status)).toEqual([
      'replaced',
      'replaced',
      'replaced',
      'replaced',
      'active'
    ])
    expect(tracker.current?.text).toBe('Write test number 6.')
  })

  it('closes the old goal and opens a new one in the same message', () => {
    const tracker = track('Fix the parser.', '谢谢！帮我再写个测试。')
    expect(tracker.state.goals.map((g) => [g.text, g.status])).toEqual([
      ['Fix the parser.', 'done'],
      ['帮我再写个测试。', 'active']
    ])
  })

  it('adds follow-ups to the goal instead of replacing it', () => {
    const tracker = track('Write a CSV parser.', 'Also handle quoted fields, please.')
    expect(tracker.current?.text).toBe('Write a CSV parser.; Also handle quoted fields, please.')
  })

  it('does not split a goal at a decimal point or a file extension', () => {
    expect(track('帮我测试 1.234,56 和 csv.ts 这两种情况').current?.text).toBe(
      '帮我测试 1.234,56 和 csv.ts 这两种情况'
    )
  })

  it('restores from its JSON state without sharing it', () => {
    const state = track('Write a CSV parser.').state
    const copy = new ActiveTaskTracker(state)
    copy.observe('thanks!')
    expect(state.goals[0]?.status).toBe('active')
    expect(copy.state.goals[0]?.status).toBe('done')
  })
})

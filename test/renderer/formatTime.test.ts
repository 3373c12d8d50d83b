import { describe, expect, it } from 'vitest'
import { formatActivityTime } from '@renderer/lib/formatTime'

const NOW = new Date(2025, 5, 18, 15, 30).getTime() // a Wednesday afternoon, local time

describe('formatActivityTime', () => {
  it('shows the time of day for today', () => {
    expect(formatActivityTime(new Date(2025, 5, 18, 9, 5).getTime(), 'en-GB', NOW)).toBe('09:05')
  })

  it('shows the weekday within the last week', () => {
    expect(formatActivityTime(new Date(2025, 5, 16, 9, 5).getTime(), 'en-US', NOW)).toBe('Mon')
  })

  it('shows the date for older activity, with the year only when it differs', () => {
    expect(formatActivityTime(new Date(2025, 0, 3).getTime(), 'en-US', NOW)).toBe('Jan 3')
    expect(formatActivityTime(new Date(2023, 0, 3).getTime(), 'en-US', NOW)).toBe('Jan 3, 2023')
  })

  it('follows the UI language', () => {
    expect(formatActivityTime(new Date(2025, 0, 3).getTime(), 'zh-CN', NOW)).toBe('1月3日')
  })
})

import { describe, expect, it } from 'vitest'
import { formatCost } from '@renderer/lib/formatCost'

describe('formatCost', () => {
  it('writes nothing spent as 0.00, cents with two digits and fractions of a cent with two significant ones', () => {
    expect(formatCost(0)).toBe('0.00')
    expect(formatCost(1.5)).toBe('1.50')
    expect(formatCost(0.0013)).toBe('0.0013')
  })
})

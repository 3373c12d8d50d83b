import { describe, expect, it } from 'vitest'
import { latestRequest } from '@renderer/lib/latestRequest'

describe('latestRequest', () => {
  it('leaves only the newest request current', () => {
    const requests = latestRequest()
    const older = requests.start()
    const newer = requests.start()

    expect(older.isLatest()).toBe(false)
    expect(newer.isLatest()).toBe(true)
  })

  it('lets an answer be claimed only if no newer one was, whatever order they arrive in', () => {
    const requests = latestRequest()
    const first = requests.start()
    const second = requests.start()
    const third = requests.start()

    expect(second.claim()).toBe(true) // newer than anything shown, though the third is pending
    expect(first.claim()).toBe(false)
    expect(third.claim()).toBe(true)
    expect(second.claim()).toBe(false)
  })

  it('supersede makes every request so far stale, for reading and for claiming', () => {
    const requests = latestRequest()
    const before = requests.start()
    requests.supersede()

    expect(before.isLatest()).toBe(false)
    expect(before.claim()).toBe(false)
    const after = requests.start()
    expect(after.isLatest()).toBe(true)
    expect(after.claim()).toBe(true)
  })
})

/**
 * In-process listeners of the services' events (the indexer follows stored messages): the
 * renderer hears every event first, then each listener of that event, and no other.
 */
import { describe, expect, it } from 'vitest'
import { ServiceEvents } from '../../../src/main/services/events'

describe('service events', () => {
  it('reach the renderer, then the listeners of that event in the order they subscribed', () => {
    const heard: string[] = []
    const events = new ServiceEvents((event, payload) =>
      heard.push(`renderer ${event} ${JSON.stringify(payload)}`)
    )
    events.on('threads:changed', ({ threadId }) => heard.push(`first ${threadId}`))
    events.on('threads:changed', ({ threadId }) => heard.push(`second ${threadId}`))
    events.on('memory:changed', () => heard.push('memory listener'))

    events.publish('threads:changed', { threadId: 't1' })

    expect(heard).toEqual(['renderer threads:changed {"threadId":"t1"}', 'first t1', 'second t1'])
  })
})

import { describe, expect, it } from 'vitest'
import { createHandlers } from '../../src/main/ipc/handlers'
import { createRegistry } from '../../src/main/ipc/registry'
import { servicesIn, steppingClock } from '../support/services'
import { useTempDir } from '../support/tempDir'

/**
 * `messages.locate`: the inspector and the memory manager know a recalled message only by its
 * id; this tells them which thread to open and where, through the real registry and store.
 */

const tempDir = useTempDir()

function setup() {
  const { services } = servicesIn(tempDir(), steppingClock())
  const registry = createRegistry(createHandlers(services), (channel, error) => {
    throw new Error(`${channel} failed unexpectedly: ${String(error)}`)
  })
  return { services, registry }
}

describe('messages.locate', () => {
  it('finds the thread and seq of a message in any thread', async () => {
    const { services, registry } = setup()
    const trip = services.threads.create('Trip')
    const other = services.threads.create('Other')
    await services.chat.send(trip.id, 'First')
    const second = await services.chat.send(trip.id, '我喜欢喝乌龙茶，不加糖')
    const elsewhere = await services.chat.send(other.id, 'Somewhere else')

    expect(await registry.invoke('messages:locate', { id: second.message.id })).toEqual({
      ok: true,
      data: { threadId: trip.id, seq: 2 }
    })
    expect(await registry.invoke('messages:locate', { id: elsewhere.message.id })).toEqual({
      ok: true,
      data: { threadId: other.id, seq: 1 }
    })
  })

  it('says not_found once the message went with its thread', async () => {
    const { services, registry } = setup()
    const thread = services.threads.create('Short-lived')
    const sent = await services.chat.send(thread.id, 'Soon gone')
    services.threads.delete(thread.id)

    expect(await registry.invoke('messages:locate', { id: sent.message.id })).toMatchObject({
      ok: false,
      error: { code: 'not_found', message: 'This message no longer exists.' }
    })
  })

  it('refuses an id that is not a positive integer before touching the store', async () => {
    const { registry } = setup()
    for (const id of [0, -3, 1.5, '7']) {
      expect(await registry.invoke('messages:locate', { id })).toMatchObject({
        ok: false,
        error: { code: 'invalid_input' }
      })
    }
    expect(await registry.invoke('messages:locate', { id: 1, extra: true })).toMatchObject({
      ok: false,
      error: { code: 'invalid_input' }
    })
  })
})

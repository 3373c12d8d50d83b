import { describe, expect, it } from 'vitest'
import { createHandlers } from '../../src/main/ipc/handlers'
import { createRegistry } from '../../src/main/ipc/registry'
import { endpoints } from '@shared/contract'
import type { Thread } from '@shared/domain'
import { servicesIn } from '../support/services'
import { useTempDir } from '../support/tempDir'

const tempDir = useTempDir()

function registryOverRealStore() {
  const { db, services } = servicesIn(tempDir())
  const logged: string[] = []
  const registry = createRegistry(createHandlers(services), (channel) => logged.push(channel))
  return { db, registry, logged }
}

describe('the IPC handler registry', () => {
  it('registers exactly the channels of the contract', () => {
    const { registry } = registryOverRealStore()
    expect([...registry.channels].sort()).toEqual(
      endpoints()
        .map((e) => e.channel)
        .sort()
    )
  })

  it('runs valid payloads through to the store and returns typed results', async () => {
    const { registry } = registryOverRealStore()
    const created = await registry.invoke('threads:create', { title: '  Notes  ' })
    expect(created).toMatchObject({ ok: true, data: { title: 'Notes' } })
    const id = (created as { data: Thread }).data.id
    const sent = await registry.invoke('messages:send', { threadId: id, content: '你好' })
    expect(sent).toMatchObject({
      ok: true,
      data: { status: 'no_model_configured', message: { content: '你好' } }
    })
    expect(await registry.invoke('threads:list', undefined)).toMatchObject({
      ok: true,
      data: [{ id }]
    })
    expect(await registry.invoke('settings:update', { locale: 'zh-CN' })).toEqual({
      ok: true,
      data: {
        locale: 'zh-CN',
        inspectorOpen: true,
        systemPrompt: expect.stringContaining('Context Lens'),
        defaultModel: null,
        promptCacheTtl: '5m',
        theme: 'system'
      }
    })
    expect(await registry.invoke('settings:get', undefined)).toMatchObject({
      data: { locale: 'zh-CN' }
    })
  })

  const invalid: [string, string, unknown, RegExp][] = [
    ['a missing payload', 'threads:rename', undefined, /expected object/i],
    ['a payload of the wrong type', 'messages:send', 'hello', /expected object/i],
    ['an array instead of an object', 'threads:delete', [], /expected object/i],
    ['a missing field', 'messages:send', { content: 'hi' }, /threadId/],
    ['a field of the wrong type', 'messages:list', { threadId: 42 }, /threadId/],
    ['a malformed id', 'threads:delete', { id: '../../etc/passwd' }, /Not a valid thread id/],
    ['an unknown extra field', 'threads:create', { title: 'x', admin: true }, /admin/],
    [
      'an empty title',
      'threads:rename',
      { id: '00000000-0000-4000-8000-000000000000', title: '   ' },
      /Title cannot be empty/
    ],
    [
      'a whitespace-only message',
      'messages:send',
      { threadId: '00000000-0000-4000-8000-000000000000', content: ' \n ' },
      /Message is empty/
    ],
    [
      'an oversized message',
      'messages:send',
      { threadId: '00000000-0000-4000-8000-000000000000', content: 'x'.repeat(2_000_001) },
      /longer than/
    ],
    ['a non-integer id', 'messages:setFlags', { id: 1.5, pinned: true }, /id/],
    ['an unknown locale', 'settings:update', { locale: 'fr' }, /locale/],
    ['an input where none is expected', 'threads:list', { all: true }, /expected undefined/i],
    ['an oversized search', 'search:query', { query: 'q'.repeat(501) }, /longer than 500/],
    [
      'a prototype-pollution attempt',
      'settings:update',
      JSON.parse('{"__proto__": {"polluted": true}}'),
      /__proto__|unrecognized/i
    ]
  ]
  it.each(invalid)(
    'rejects %s with a typed invalid_input error',
    async (_label, channel, input, message) => {
      const { registry, logged } = registryOverRealStore()
      const result = await registry.invoke(channel, input)
      expect(result.ok).toBe(false)
      if (result.ok) return
      expect(result.error.code).toBe('invalid_input')
      expect(result.error.message).toMatch(message)
      expect(result.error.issues?.length).toBeGreaterThan(0)
      expect(JSON.stringify(result)).not.toMatch(/at .*\.ts:\d+/) // no stack traces
      expect(logged).toEqual([])
      expect(({} as Record<string, unknown>).polluted).toBeUndefined()
    }
  )

  it('answers an unknown channel with unknown_channel', async () => {
    const { registry } = registryOverRealStore()
    expect(await registry.invoke('threads:drop_all', {})).toEqual({
      ok: false,
      error: { code: 'unknown_channel', message: 'Unknown channel: threads:drop_all' }
    })
  })

  it('maps a missing record to not_found', async () => {
    const { registry } = registryOverRealStore()
    const result = await registry.invoke('threads:delete', {
      id: '00000000-0000-4000-8000-000000000000'
    })
    expect(result).toEqual({
      ok: false,
      error: { code: 'not_found', message: 'This conversation no longer exists.' }
    })
  })

  it.each([
    ['summary:get', {}],
    ['summary:versions', {}],
    ['summary:status', {}],
    ['summary:compress', {}],
    ['summary:update', { content: 'a summary of nothing' }]
  ])('answers %s for a thread that does not exist with not_found', async (channel, extra) => {
    const { registry } = registryOverRealStore()
    const result = await registry.invoke(channel, {
      threadId: '00000000-0000-4000-8000-000000000000',
      ...extra
    })
    expect(result).toEqual({
      ok: false,
      error: { code: 'not_found', message: 'This conversation no longer exists.' }
    })
  })

  it('turns a database failure into storage_error and logs it, without a stack trace', async () => {
    const { db, registry, logged } = registryOverRealStore()
    const created = await registry.invoke('threads:create', {})
    const id = (created as { data: Thread }).data.id
    db.exec(
      "CREATE TRIGGER refuse BEFORE INSERT ON messages BEGIN SELECT RAISE(ABORT, 'disk says no'); END"
    )
    const result = await registry.invoke('messages:send', { threadId: id, content: 'hi' })
    expect(result).toMatchObject({ ok: false, error: { code: 'storage_error' } })
    expect(logged).toEqual(['messages:send'])
  })

  it('turns an unexpected exception into internal, without leaking its message', async () => {
    const { db, registry, logged } = registryOverRealStore()
    db.close()
    const result = await registry.invoke('threads:list', undefined)
    expect(result).toEqual({
      ok: false,
      error: { code: 'internal', message: 'Something went wrong in the app. The error was logged.' }
    })
    expect(logged).toEqual(['threads:list'])
  })
})

/**
 * Checks the harness itself: the bridge installs window.api in a real Chromium page, calls reach
 * the real registry over http, failures come back typed, and events arrive over SSE.
 */
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { useTempDir } from '../support/tempDir'
import type { PageGlobals } from './harness/browser'
import { useChromiumSession } from './harness/session'

describe('e2e harness', () => {
  const tempDir = useTempDir()
  const session = useChromiumSession()

  async function open() {
    const { harness, window, page } = await session.start({
      databasePath: join(tempDir(), 'store.sqlite')
    })
    return { harness, page, app: window }
  }

  it('serves the renderer and the bridge bundle with their content types', async () => {
    const { harness, page } = await open()
    const index = await page.request.get(harness.url)
    expect(index.headers()['content-type']).toContain('text/html')
    expect(await index.text()).toContain("script-src 'self'")
    const bridge = await page.request.get(new URL('/__bridge.js', harness.url).href)
    expect(bridge.headers()['content-type']).toContain('text/javascript')
    expect(await bridge.text()).toBe(harness.bridge)
  })

  it('creates and lists threads through window.api over the real registry', async () => {
    const { harness, page, app } = await open()
    expect(await page.evaluate(() => typeof (globalThis as PageGlobals).api?.threads?.create)).toBe(
      'function'
    )

    const created = await page.evaluate(() =>
      (globalThis as PageGlobals).api.threads.create({ title: 'Harness smoke' })
    )
    if (!created.ok) throw new Error(created.error.message)
    expect(created.data.title).toBe('Harness smoke')

    const listed = await page.evaluate(() => (globalThis as PageGlobals).api.threads.list())
    expect(listed.ok && listed.data.map((thread) => thread.id)).toContain(created.data.id)
    // The same row is visible to the services the harness owns: no second store.
    expect(harness.services.threads.get(created.data.id).title).toBe('Harness smoke')
    app.assertHealthy()
  })

  it('returns typed errors for a bad payload and an unknown channel', async () => {
    const { harness, page, app } = await open()
    const invalid = await page.evaluate(() =>
      (globalThis as PageGlobals).api.threads.rename({ id: 'not-a-uuid', title: '' })
    )
    expect(invalid).toMatchObject({ ok: false, error: { code: 'invalid_input' } })
    const paths = !invalid.ok ? invalid.error.issues?.map((issue) => issue.path) : []
    expect(paths).toEqual(expect.arrayContaining(['id', 'title']))

    const missing = await page.evaluate(() =>
      (globalThis as PageGlobals).api.threads.rename({
        id: '00000000-0000-4000-8000-000000000000',
        title: 'Nobody'
      })
    )
    expect(missing).toMatchObject({ ok: false, error: { code: 'not_found' } })

    const unknown = await page.evaluate(async () => {
      const response = await fetch('/ipc/threads:explode', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ input: {} })
      })
      return response.json() as Promise<unknown>
    })
    expect(unknown).toMatchObject({ ok: false, error: { code: 'unknown_channel' } })
    expect(harness.unexpectedErrors).toEqual([])
    app.assertHealthy()
  })

  it('delivers threads:changed events over SSE', async () => {
    const { harness, page, app } = await open()
    await page.evaluate(() => {
      const globals = globalThis as PageGlobals & { received?: unknown[] }
      globals.received = []
      globals.api.on('threads:changed', (payload) => globals.received?.push(payload))
    })
    await expect.poll(() => harness.eventClientCount()).toBeGreaterThan(0)

    const created = await page.evaluate(() => (globalThis as PageGlobals).api.threads.create())
    if (!created.ok) throw new Error(created.error.message)
    await expect
      .poll(() => page.evaluate(() => (globalThis as { received?: unknown[] }).received))
      .toContainEqual({ threadId: created.data.id })
    expect(harness.published).toContainEqual({
      event: 'threads:changed',
      payload: { threadId: created.data.id }
    })
    app.assertHealthy()
  })
})

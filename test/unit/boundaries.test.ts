import { describe, expect, it } from 'vitest'
import { isTrustedSenderUrl } from '../../src/main/ipc/senderPolicy'
import { unpackedPath } from '../../src/main/store/vectors/sqliteVec'
import {
  makeSnippet,
  splitTerms,
  toLikePattern,
  toMatchExpression
} from '../../src/main/store/search/searchRepository'
import { titleFromMessage } from '../../src/main/services/threads/threadService'
import { createApi } from '@shared/api'

describe('which frames may call IPC', () => {
  const packaged = 'file:///opt/Context%20Lens/resources/app.asar/out/renderer/index.html'
  it.each([
    [packaged, packaged, true],
    [packaged + '#/thread/1', packaged, true],
    ['file:///tmp/evil.html', packaged, false],
    ['https://example.com/', packaged, false],
    ['http://localhost:5173/', 'http://localhost:5173', true],
    ['http://localhost:5174/', 'http://localhost:5173', false],
    ['http://localhost.evil.com:5173/', 'http://localhost:5173', false],
    [undefined, packaged, false],
    ['not a url', packaged, false]
  ])('%s against %s -> %s', (sender, app, expected) => {
    expect(isTrustedSenderUrl(sender, app)).toBe(expected)
  })
})

describe('sqlite-vec in a packaged app', () => {
  it('loads the extension from app.asar.unpacked on every platform', () => {
    expect(
      unpackedPath('/opt/app/resources/app.asar/node_modules/sqlite-vec-linux-x64/vec0.so')
    ).toBe('/opt/app/resources/app.asar.unpacked/node_modules/sqlite-vec-linux-x64/vec0.so')
    expect(unpackedPath('C:\\App\\resources\\app.asar\\node_modules\\vec0.dll')).toBe(
      'C:\\App\\resources\\app.asar.unpacked\\node_modules\\vec0.dll'
    )
    expect(unpackedPath('/home/me/project/node_modules/vec0.so')).toBe(
      '/home/me/project/node_modules/vec0.so'
    )
  })
})

describe('search query handling', () => {
  it('splits on any whitespace, including the ideographic space, and drops duplicates', () => {
    expect(splitTerms('  乌龙茶\u3000tea  tea\n绿茶 ')).toEqual(['乌龙茶', 'tea', '绿茶'])
  })
  it('quotes every term so FTS5 syntax in user text is inert', () => {
    expect(toMatchExpression(['say "hi"', 'NEAR('])).toBe('"say ""hi""" AND "NEAR("')
  })
  it('escapes LIKE wildcards', () => {
    expect(toLikePattern('50%_off\\')).toBe('%50\\%\\_off\\\\%')
  })
  it('cuts a snippet around the first match and marks the cuts', () => {
    const text = 'a'.repeat(100) + ' 关键字 ' + 'b'.repeat(300)
    const snippet = makeSnippet(text, ['关键字'])
    expect(snippet.startsWith('…')).toBe(true)
    expect(snippet.endsWith('…')).toBe(true)
    expect(snippet).toContain('关键字')
  })
})

describe('automatic thread titles', () => {
  it('collapses whitespace and cuts long text by characters, not UTF-16 units', () => {
    expect(titleFromMessage('  hello\n\n world ')).toBe('hello world')
    expect(titleFromMessage('😀'.repeat(50))).toBe('😀'.repeat(40) + '…')
    expect(titleFromMessage('😀'.repeat(40))).toBe('😀'.repeat(40))
    expect(titleFromMessage('\n'.repeat(100_000) + 'x'.repeat(2_000_000))).toBe(
      'x'.repeat(40) + '…'
    )
    expect(titleFromMessage('one two  three\tfour')).toBe('one two three four')
    expect(titleFromMessage('   ')).toBe('')
  })
})

describe('window.api', () => {
  it('routes each domain method to its contract channel through the given transport', async () => {
    const calls: [string, unknown][] = []
    const api = createApi({
      invoke: async (channel, input) => {
        calls.push([channel, input])
        return { ok: true, data: null }
      },
      subscribe: () => () => {}
    })
    await api.threads.rename({ id: 'x', title: 'y' })
    await api.search.query({ query: 'q' })
    expect(calls).toEqual([
      ['threads:rename', { id: 'x', title: 'y' }],
      ['search:query', { query: 'q' }]
    ])
  })

  it('subscribes to the contract events only, whatever name the page passes at run time', () => {
    const subscribed: string[] = []
    const api = createApi({
      invoke: async () => ({ ok: true, data: null }),
      subscribe: (event) => {
        subscribed.push(event)
        return () => {}
      }
    })
    const on = api.on as unknown as (event: unknown, listener: unknown) => () => void

    expect(typeof on('threads:changed', () => {})).toBe('function')
    for (const name of [
      'messages:send', // a request channel, not an event
      'ELECTRON_BROWSER_WINDOW_CLOSE', // Electron's own IPC
      'threads:changed ',
      'Threads:Changed',
      '__proto__',
      'toString',
      '',
      42,
      null,
      undefined,
      { toString: () => 'threads:changed' }
    ]) {
      expect(() => on(name, () => {}), String(name)).toThrow(/Not an event of the contract/)
    }
    expect(() => on('chat:delta', 'alert(1)')).toThrow(/must be a function/)
    expect(subscribed).toEqual(['threads:changed'])
  })
})

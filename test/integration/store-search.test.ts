import { describe, expect, it } from 'vitest'
import { createHandlers } from '../../src/main/ipc/handlers'
import { createRegistry } from '../../src/main/ipc/registry'
import { servicesIn, steppingClock } from '../support/services'
import { useTempDir } from '../support/tempDir'

const tempDir = useTempDir()

async function seeded() {
  const { db, services } = servicesIn(tempDir(), steppingClock())
  const travel = services.threads.create('Trip to Japan')
  const tea = services.threads.create('茶叶笔记')
  await services.chat.send(travel.id, 'Please book the ferry from Kagoshima to Okinawa.')
  await services.chat.send(travel.id, 'The BUDGET is 2000 euros; keep the hotel under 150 a night.')
  await services.chat.send(tea.id, '我喜欢喝乌龙茶，不喜欢太甜的饮料。')
  await services.chat.send(tea.id, '明天去杭州买龙井茶。AI 助手请提醒我。')
  return { db, services, travel, tea }
}

describe('full-text search', () => {
  it('finds English words case-insensitively and returns a snippet around the match', async () => {
    const { services, travel } = await seeded()
    const hits = services.search.query('budget')
    expect(hits).toHaveLength(1)
    expect(hits[0]).toMatchObject({ kind: 'message', threadId: travel.id, seq: 2, role: 'user' })
    expect(hits[0]?.snippet).toContain('BUDGET is 2000 euros')
  })

  it('finds Chinese substrings of three or more characters through the trigram index', async () => {
    const { services, tea } = await seeded()
    const hits = services.search.query('乌龙茶')
    expect(hits.map((h) => [h.threadId, h.seq])).toEqual([[tea.id, 1]])
  })

  it('finds one- and two-character Chinese words, which trigrams cannot index', async () => {
    const { services } = await seeded()
    expect(services.search.query('喜欢').map((h) => h.seq)).toEqual([1])
    expect(services.search.query('茶').filter((h) => h.kind === 'message')).toHaveLength(2)
    expect(services.search.query('杭州').map((h) => h.snippet)).toEqual([
      '明天去杭州买龙井茶。AI 助手请提醒我。'
    ])
  })

  it('combines long and short terms, all of which must match', async () => {
    const { services } = await seeded()
    expect(services.search.query('AI 龙井茶').map((h) => h.seq)).toEqual([2])
    expect(services.search.query('AI 乌龙茶')).toEqual([])
  })

  it('matches thread titles, and follows renames', async () => {
    const { services, travel } = await seeded()
    expect(services.search.query('Japan')).toMatchObject([{ kind: 'thread', threadId: travel.id }])
    services.threads.rename(travel.id, 'Okinawa holiday')
    expect(services.search.query('Japan')).toEqual([])
    expect(services.search.query('holiday')[0]?.threadTitle).toBe('Okinawa holiday')
    expect(services.search.query('茶叶')[0]).toMatchObject({
      kind: 'thread',
      threadTitle: '茶叶笔记'
    })
  })

  it('treats query syntax and wildcards as plain text', async () => {
    const { services } = await seeded()
    for (const query of ['ferry OR hotel', 'NEAR(ferry', '"unbalanced', '100%', 'a_b', '*', '\\']) {
      expect(() => services.search.query(query)).not.toThrow()
    }
    expect(services.search.query('ferry OR hotel')).toEqual([])
    expect(services.search.query('%')).toEqual([])
  })
  it('reads a NUL or other control character in the query as a space between words', async () => {
    const { services, travel, tea } = await seeded()
    // Pasted text can carry invisible control characters; the words around them still count.
    expect(services.search.query('ferry\0Okinawa').map((h) => [h.threadId, h.seq])).toEqual([
      [travel.id, 1]
    ])
    expect(services.search.query('龙井\u0007杭州').map((h) => [h.threadId, h.seq])).toEqual([
      [tea.id, 2]
    ])
    expect(services.search.query('\0\0')).toEqual([])
  })

  it('refuses a search made only of control characters over IPC, as an empty search', async () => {
    const { services } = await seeded()
    const registry = createRegistry(createHandlers(services))
    expect(await registry.invoke('search:query', { query: '\0\u0001\0' })).toMatchObject({
      ok: false,
      error: { code: 'invalid_input', message: 'query: Search text is empty' }
    })
    expect(await registry.invoke('memory:search', { query: '\0' })).toMatchObject({
      ok: false,
      error: { code: 'invalid_input' }
    })
  })
})

describe('deleting a thread', () => {
  it('removes its messages and their index entries, and leaves other threads alone', async () => {
    const { db, services, travel, tea } = await seeded()
    services.threads.delete(travel.id)
    expect(
      db.prepare('SELECT count(*) FROM messages WHERE thread_id = ?').pluck().get(travel.id)
    ).toBe(0)
    expect(services.search.query('ferry')).toEqual([])
    expect(services.search.query('Japan')).toEqual([])
    expect(
      db
        .prepare('SELECT count(*) FROM messages_fts WHERE messages_fts MATCH \'"ferry"\'')
        .pluck()
        .get()
    ).toBe(0)
    expect(services.messages.list(tea.id)).toHaveLength(2)
    expect(services.search.query('乌龙茶')).toHaveLength(1)
  })
})

import { describe, expect, it, vi } from 'vitest'
import type { Message } from '@shared/domain'
import { isEmptyReply } from '../../src/main/context/emptyReplies'
import { MessageOutlines } from '../../src/main/store/messageOutline'
import { MessageRepository } from '../../src/main/store/messageRepository'
import { ThreadMessageCache } from '../../src/main/services/chat/threadMessageCache'
import { expectStillAfter } from '../support/poll'
import { servicesIn, type TestServices } from '../support/services'
import { useTempDir } from '../support/tempDir'

const tempDir = useTempDir()

/** A thread of `messages` one-token user messages, written in one transaction. */
function seededThread(
  services: TestServices['services'],
  repository: MessageRepository,
  db: TestServices['db'],
  title: string,
  messages: number
) {
  const thread = services.threads.create(title)
  db.transaction(() => {
    for (let i = 0; i < messages; i++)
      repository.append({
        threadId: thread.id,
        role: 'user',
        content: `m${i}`,
        tokenCount: 1,
        createdAt: 1
      })
  })()
  return thread
}

describe('the thread message cache', () => {
  it('serves later reads from memory, follows appends, flag changes and recounts, and evicts the least recently used thread', async () => {
    const { db, services } = servicesIn(tempDir())
    const repository = new MessageRepository(db)
    const cache = new ThreadMessageCache(repository, new MessageOutlines(db), 2)
    const [a, b, c] = ['a', 'b', 'c'].map((title) => services.threads.create(title))
    const add = (threadId: string, content: string) =>
      repository.append({ threadId, role: 'user', content, tokenCount: 1, createdAt: 1 })

    add(a!.id, 'one')
    const first = cache.get(a!.id)
    expect(cache.get(a!.id)).toBe(first) // the same array, not a new query

    const second = add(a!.id, 'two')
    cache.appended(second)
    const pinned = repository.setFlags(second.id, { pinned: true })!
    cache.updated(pinned)
    expect(cache.get(a!.id).map((m) => [m.content, m.pinned])).toEqual([
      ['one', false],
      ['two', true]
    ])

    // A long paste is stored with its estimate and recounted: the sums the window is cut by follow.
    const paste = add(a!.id, 'a long paste')
    cache.appended(paste)
    repository.setTokenCount(paste.id, 40)
    cache.recounted({ ...paste, tokenCount: 40 })
    expect((await cache.whole(a!.id)).tokens).toEqual([0, 1, 2, 42])
    expect(cache.get(a!.id).at(-1)?.tokenCount).toBe(40)

    cache.get(b!.id)
    cache.get(c!.id) // a is now the least recently used of three, over capacity
    add(a!.id, 'written while evicted')
    expect(cache.get(a!.id).map((m) => m.content)).toEqual([
      'one',
      'two',
      'a long paste',
      'written while evicted'
    ])
  })

  it('keeps the places of its empty replies as a scan of the text finds them: loaded, outlined and as messages arrive', async () => {
    const { db, services } = servicesIn(tempDir())
    const repository = new MessageRepository(db)
    const thread = services.threads.create('Replies')
    const add = (role: 'user' | 'assistant', content: string, calls = false) =>
      repository.append({
        threadId: thread.id,
        role,
        content,
        tokenCount: 10,
        createdAt: 1,
        ...(calls && { toolCalls: [{ id: 'c1', name: 'search', arguments: '{}' }] })
      })
    db.transaction(() => {
      for (let i = 0; i < 300; i++) {
        add('user', `question ${i}`)
        // An empty completion, one with only white space, and a tool call without text.
        if (i % 50 === 7) add('assistant', '')
        else if (i % 50 === 21) add('assistant', ' \n\u3000')
        else if (i % 50 === 33) add('assistant', '', true)
        else add('assistant', `answer ${i}`)
      }
    })()
    const scanned = (messages: readonly Message[]) =>
      messages.flatMap((m, index) => (isEmptyReply(m) ? [index] : []))

    const loaded = await new ThreadMessageCache(repository, new MessageOutlines(db), 2).whole(
      thread.id
    )
    expect(loaded.emptyReplies).toHaveLength(12)
    expect(loaded.emptyReplies).toEqual(scanned(loaded.messages))

    // Before the thread is cached, a build reads its outline with the newest messages whole.
    const cache = new ThreadMessageCache(repository, new MessageOutlines(db), 2)
    const outlined = await cache.forBuild(thread.id, 200)
    expect(outlined.outlinedBefore).toBeGreaterThan(500)
    expect(outlined.emptyReplies).toEqual(scanned(outlined.messages))
    expect(outlined.emptyReplies).toEqual(loaded.emptyReplies)

    await cache.load(thread.id)
    cache.appended(add('user', 'one more'))
    cache.appended(add('assistant', '\t'))
    const grown = await cache.whole(thread.id)
    expect(grown.emptyReplies.at(-1)).toBe(grown.messages.length - 1)
    expect(grown.emptyReplies).toEqual(scanned(grown.messages))
  })

  it("knows a new thread's first message without reading it back from the store", async () => {
    const { db, services } = servicesIn(tempDir())
    const repository = new MessageRepository(db)
    const cache = new ThreadMessageCache(repository, new MessageOutlines(db), 2)
    const thread = services.threads.create()
    const first = repository.append({
      threadId: thread.id,
      role: 'user',
      content: '一'.repeat(2_000_000),
      tokenCount: 5,
      createdAt: 1
    })
    const reads = [vi.spyOn(repository, 'listByThread'), vi.spyOn(repository, 'listAfter')]

    cache.appended(first)
    const snapshot = await cache.forBuild(thread.id, 1_000)
    expect(snapshot.messages).toEqual([first])
    expect(snapshot.tokens).toEqual([0, 5])
    for (const read of reads) expect(read).not.toHaveBeenCalled()

    // A later message of a thread nobody loaded is not enough: earlier ones exist.
    const other = services.threads.create()
    repository.append({
      threadId: other.id,
      role: 'user',
      content: 'a',
      tokenCount: 1,
      createdAt: 1
    })
    const second = repository.append({
      threadId: other.id,
      role: 'user',
      content: 'b',
      tokenCount: 1,
      createdAt: 2
    })
    cache.appended(second)
    expect(cache.has(other.id)).toBe(false)
    expect((await cache.whole(other.id)).messages.map((m) => m.content)).toEqual(['a', 'b'])
  })
})

describe('loading a thread behind a turn', () => {
  it('pauses a background read while a turn holds the cache, goes on for a caller that needs it now, and shares one outline among builds meanwhile', async () => {
    const { db, services } = servicesIn(tempDir())
    const repository = new MessageRepository(db)
    const threadOf = (title: string, messages: number) =>
      seededThread(services, repository, db, title, messages)
    const thread = threadOf('long', 12_000)
    const cache = new ThreadMessageCache(repository, new MessageOutlines(db), 2)
    const release = cache.holdForTurn()
    let loaded = false
    const slices = vi.spyOn(repository, 'listAfter')
    const background = cache.load(thread.id, { behindTurns: true }).then(() => (loaded = true))
    // The first slice only, while the turn holds the cache: an absence, which polling cannot
    // show, so a window in which a read that did not pause would go on to the next slices.
    await expectStillAfter(50, () => {
      expect([loaded, cache.has(thread.id)]).toEqual([false, false])
      expect(slices).toHaveBeenCalledTimes(1)
    })
    slices.mockRestore()
    release()
    await background
    expect(cache.get(thread.id)).toHaveLength(12_000)

    const other = threadOf('other', 12_000)
    const held = cache.holdForTurn()
    void cache.load(other.id, { behindTurns: true })
    expect(await cache.load(other.id)).toHaveLength(12_000) // not held: no deadlock
    held()

    // While a thread loads, builds share one outline until a flag changes.
    const third = threadOf('third', 12_000)
    const outlines = vi.spyOn(MessageOutlines.prototype, 'after')
    const hold = cache.holdForTurn()
    const loading = cache.load(third.id, { behindTurns: true })
    await cache.forBuild(third.id, 100)
    await cache.forBuild(third.id, 100)
    expect(outlines).toHaveBeenCalledTimes(1)
    const pinned = repository.setFlags((await cache.forBuild(third.id, 100)).messages[5]!.id, {
      pinned: true
    })!
    cache.updated(pinned)
    const snapshot = await cache.forBuild(third.id, 100)
    expect(outlines).toHaveBeenCalledTimes(2)
    expect(snapshot.messages[5]).toMatchObject({ pinned: true, content: 'm5' })
    hold()
    await loading
    outlines.mockRestore()

    // A budget that holds more than a slice reads the newest messages in slices too.
    const wide = threadOf('wide', 12_000)
    let ticked = false
    setImmediate(() => (ticked = true))
    const wideRead = await cache
      .forBuild(wide.id, 1_000_000)
      .then((read) => ({ ...read, tickedFirst: ticked }))
    expect(wideRead.tickedFirst).toBe(true)
    expect(wideRead.messages).toEqual(repository.listByThread(wide.id))
  })

  it('says nothing when the store closes at quit while an opened thread still loads behind it', async () => {
    const { db, services, logged } = servicesIn(tempDir())
    const thread = seededThread(services, new MessageRepository(db), db, 'long', 12_000)
    services.messages.page(thread.id) // opening it starts the background read, in slices
    db.close() // its next slice, a tick later, meets the closed store
    await expectStillAfter(100, () => expect(logged).toEqual([]))
  })
})

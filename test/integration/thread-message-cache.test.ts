import { describe, expect, it } from 'vitest'
import { MessageRepository } from '../../src/main/store/messageRepository'
import { ThreadMessageCache } from '../../src/main/services/threadMessageCache'
import { servicesIn } from '../support/services'
import { useTempDir } from '../support/tempDir'

const tempDir = useTempDir()

describe('the thread message cache', () => {
  it('serves later reads from memory, follows appends and flag changes, and evicts the least recently used thread', () => {
    const { db, services } = servicesIn(tempDir())
    const repository = new MessageRepository(db)
    const cache = new ThreadMessageCache(repository, 2)
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

    cache.get(b!.id)
    cache.get(c!.id) // a is now the least recently used of three, over capacity
    add(a!.id, 'written while evicted')
    expect(cache.get(a!.id).map((m) => m.content)).toEqual(['one', 'two', 'written while evicted'])
  })
})

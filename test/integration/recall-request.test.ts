import { afterEach, describe, expect, it } from 'vitest'
import type { MemorySearch, MemorySearchOptions } from '../../src/main/context/recall/memorySearch'
import { MAX_RECALL_LIMIT } from '../../src/main/context/recall/recallRequest'
import { MessageRepository } from '../../src/main/store/messageRepository'
import { memoryServicesIn, type MemoryTestServices } from '../support/memoryServices'
import { useTempDir } from '../support/tempDir'

/**
 * What ContextBuildService asks memory search for, on real SQLite and the real composition root:
 * the number of candidates follows the budget, and the messages the window sends anyway are
 * excluded. The search itself is a recording stub; hybrid search is tested in memory-recall.
 */

const tempDir = useTempDir()
const open: MemoryTestServices[] = []

afterEach(async () => {
  for (const setup of open.splice(0)) await setup.close()
})

function recordingSearch(): { port: MemorySearch; asked: MemorySearchOptions[] } {
  const asked: MemorySearchOptions[] = []
  return {
    asked,
    port: {
      async search(_query, options) {
        asked.push(options)
        return []
      }
    }
  }
}

const sentence = (i: number) =>
  `Message ${i}: we compared the train timetables, the hotel prices near the station and the museum opening hours for the second week of the trip.`

describe('the recall request of a build', () => {
  it('asks for more candidates when the budget is larger, never for what the window sends', async () => {
    const search = recordingSearch()
    const setup = memoryServicesIn(tempDir(), { memory: search.port })
    open.push(setup)
    const { services } = setup
    const thread = services.threads.create('Trip')
    for (let i = 1; i <= 40; i++) await services.chat.send(thread.id, sentence(i))
    const stored = new MessageRepository(setup.db).listByThread(thread.id)
    const tokens = stored.reduce((sum, m) => sum + m.tokenCount, 0)
    expect(tokens).toBeGreaterThan(1_100)

    const small = await services.context.preview(thread.id, 'Which hotel?', { totalBudget: 2000 })
    const asked = search.asked.at(-1)!
    // Everything but the window's 800-token share (40 %), 30 tokens per candidate.
    expect(asked.limit).toBe(40)
    // The query is the input; the conversation it follows goes along as the second query.
    expect(asked.context).toBe(`${sentence(39)}\n${sentence(40)}`)
    const excluded = new Set((asked.excludeMessageIds ?? []).map(Number))
    expect(excluded.size).toBeGreaterThan(0)
    // Every excluded message is one the window really sent.
    const sentIds = new Set(
      small.trace
        .filter((t) => t.section === 'recent' && t.decision === 'included')
        .map((t) => t.id)
    )
    for (const id of excluded) expect(sentIds.has(String(id))).toBe(true)
    // And they are the newest ones.
    const newest = stored.slice(-excluded.size).map((m) => m.id)
    expect([...excluded].sort((a, b) => a - b)).toEqual(newest)

    await services.context.preview(thread.id, 'Which hotel?', { totalBudget: 16_000 })
    const large = search.asked.at(-1)!
    expect(large.limit).toBe(MAX_RECALL_LIMIT)
    // The whole thread fits in the recent share: recall is asked for nothing from it.
    expect(large.excludeMessageIds).toHaveLength(stored.length)
  })

  it('never recalls the message being answered', async () => {
    const setup = memoryServicesIn(tempDir())
    open.push(setup)
    const { services } = setup
    const thread = services.threads.create('Lighthouse')
    // Long enough that the window cannot hold them all: recall is asked about older turns.
    for (let i = 1; i <= 30; i++) await services.chat.send(thread.id, sentence(i))
    services.contextConfig.update('thread', { totalBudget: 1_500 }, thread.id)

    const outcome = await services.chat.send(
      thread.id,
      'Which lighthouse keeper logbook mentioned the zebra-striped ferry?'
    )
    const recalledIds = outcome.build?.context.trace
      .filter((t) => t.section === 'retrieved' && t.kind === 'message')
      .map((t) => t.id)
    expect(recalledIds).not.toContain(String(outcome.message.id))
    expect(
      outcome.build?.context.messages.filter((m) => m.content.includes('zebra-striped ferry'))
    ).toHaveLength(1)
  })
})

/**
 * "Branch from here" on real services and a real SQLite file. Recall is the app's own hybrid
 * search (full text here: no embedding model), which finds messages of every thread, so a
 * fork would see its origin's later messages there unless they are left out.
 */
import { describe, expect, it } from 'vitest'
import type { BuiltContext } from '@shared/context'
import type { Message } from '@shared/domain'
import { ForkService } from '../../src/main/services/threads/forkService'
import { ForkRepository } from '../../src/main/store/forkRepository'
import { MessageRepository } from '../../src/main/store/messageRepository'
import { SummaryRepository } from '../../src/main/store/summaryRepository'
import { ThreadRepository } from '../../src/main/store/threadRepository'
import { servicesIn, steppingClock } from '../support/services'
import { useTempDir } from '../support/tempDir'

const tempDir = useTempDir()

/** Everything the model would read: the payload's text. */
const sentText = (built: BuiltContext) => built.messages.map((m) => m.content).join('\n')

const recalledIds = (built: BuiltContext) =>
  built.trace.filter((t) => t.section === 'retrieved' && t.kind === 'memory').map((t) => t.id)

async function origin() {
  const setup = servicesIn(tempDir(), steppingClock())
  const { services } = setup
  const thread = services.threads.create('Kyoto trip')
  const sent: Message[] = []
  for (const text of [
    'Help me plan a week in Kyoto in April.',
    'We land at Kansai airport on the 3rd.',
    'Booked the Sakura Lantern ryokan near Gion for the whole week.',
    '其实我们决定改住大阪的酒店，预算每晚一千元。'
  ]) {
    sent.push((await services.chat.send(thread.id, text)).message)
  }
  return { ...setup, thread, sent }
}

describe('forking a thread', () => {
  it('copies the history up to the message, and the fork’s builds never contain what came after', async () => {
    const { services, thread, sent } = await origin()
    const fork = services.forks.fork(sent[1]!.id)

    expect(fork.id).not.toBe(thread.id)
    const copied = services.messages.list(fork.id)
    expect(copied.map((m) => [m.seq, m.role, m.content, m.createdAt])).toEqual(
      sent.slice(0, 2).map((m) => [m.seq, m.role, m.content, m.createdAt])
    )

    // The draft names the later messages; recall searches every thread by these words.
    const draft = 'Which Sakura Lantern ryokan near Gion did we book? 大阪的酒店预算多少？'
    const unrelated = services.threads.create('Elsewhere')
    const seen = await services.context.preview(unrelated.id, draft)
    // The seed leaks without the filter: an unrelated thread does recall the origin's later messages.
    expect(recalledIds(seen)).toContain(`message:${sent[2]!.id}`)
    expect(sentText(seen)).toContain('Sakura Lantern ryokan')

    const built = await services.context.preview(fork.id, draft)
    const text = sentText(built)
    expect(text).toContain('Kansai airport')
    expect(text).not.toContain('Booked the Sakura Lantern ryokan')
    expect(text).not.toContain('改住大阪的酒店')
    for (const later of sent.slice(2))
      expect(recalledIds(built)).not.toContain(`message:${later.id}`)

    // A real send in the fork: the stored request is as clean as the preview.
    const outcome = await services.chat.send(fork.id, draft)
    expect(sentText(outcome.build!.context)).not.toContain('Booked the Sakura Lantern ryokan')
    // The origin is untouched.
    expect(services.messages.list(thread.id)).toHaveLength(4)
  })

  it('reuses a summary only when it covers nothing after the fork point', async () => {
    const { services, thread, sent, db } = await origin()
    new SummaryRepository(db).put(
      thread.id,
      {
        content: 'The user booked the Sakura Lantern ryokan, then moved to Osaka.',
        lastMessageSeq: 4,
        source: 'model'
      },
      1
    )
    const early = services.forks.fork(sent[1]!.id)
    expect(services.summaries.get(early.id)).toBeNull()
    expect(sentText(await services.context.preview(early.id, 'Where do we stay?'))).not.toContain(
      'moved to Osaka'
    )

    const late = services.forks.fork(sent[3]!.id)
    expect(services.summaries.get(late.id)).toMatchObject({
      content: 'The user booked the Sakura Lantern ryokan, then moved to Osaka.',
      lastMessageSeq: 4,
      version: 1
    })
  })

  it('uses the newest earlier summary version that fits, when the store keeps versions', async () => {
    const { services, thread, sent, db } = await origin()
    const summaries = new SummaryRepository(db)
    const early = {
      content: 'The user plans a week in Kyoto.',
      lastMessageSeq: 1,
      source: 'model' as const
    }
    const later = {
      content: 'They booked the Sakura Lantern ryokan.',
      lastMessageSeq: 3,
      source: 'model' as const
    }
    summaries.put(thread.id, early, 1)
    summaries.put(thread.id, later, 2)
    const forks = new ForkService({
      threads: new ThreadRepository(db),
      messages: new MessageRepository(db),
      summaries,
      forks: new ForkRepository(db),
      now: Date.now,
      newId: () => '6f1c2b7e-0000-4000-8000-000000000001',
      publish: () => {},
      summaryVersions: () => [later, early]
    })
    const fork = forks.fork(sent[1]!.id)
    expect(services.summaries.get(fork.id)).toMatchObject(early)
    expect(sentText(await services.context.preview(fork.id, 'Where do we stay?'))).not.toContain(
      'Sakura Lantern'
    )
  })

  it('copies flags and per-thread settings as they are at the fork; later changes stay on their side', async () => {
    const { services, thread, sent } = await origin()
    services.messages.setFlags(sent[0]!.id, { pinned: true })
    services.messages.setFlags(sent[1]!.id, { excluded: true })
    services.contextConfig.update('thread', { totalBudget: 6000 }, thread.id)
    const fork = services.forks.fork(sent[2]!.id)
    services.contextConfig.update('thread', { totalBudget: 9000 }, thread.id)
    services.messages.setFlags(sent[0]!.id, { pinned: false })

    expect(services.contextConfig.get(fork.id).thread).toMatchObject({ totalBudget: 6000 })
    expect(services.contextConfig.get(thread.id).thread).toMatchObject({ totalBudget: 9000 })
    const copied = services.messages.list(fork.id)
    expect(copied.map((m) => [m.pinned, m.excluded])).toEqual([
      [true, false],
      [false, true],
      [false, false]
    ])
    // The active task is what the copied messages stated, not what a later message changed.
    const goals = (services.threads.get(fork.id).settings.taskState as { goals: { seq: number }[] })
      .goals
    expect(goals.every((goal) => goal.seq <= 3)).toBe(true)
  })

  it('a fork of a fork sees neither ancestor’s later messages', async () => {
    const { services, sent } = await origin()
    const b = services.forks.fork(sent[2]!.id)
    const bLater = (
      await services.chat.send(b.id, 'In this branch we rent the Maple Hollow cabin.')
    ).message
    const c = services.forks.fork(services.messages.list(b.id)[0]!.id)

    const draft = 'Sakura Lantern ryokan or the Maple Hollow cabin? 大阪的酒店?'
    const built = await services.context.preview(c.id, draft)
    const text = sentText(built)
    expect(text).toContain('Help me plan a week in Kyoto')
    expect(text).not.toContain('Kansai airport')
    expect(text).not.toContain('Booked the Sakura Lantern ryokan')
    expect(text).not.toContain('rent the Maple Hollow cabin')
    expect(text).not.toContain('改住大阪的酒店')
    expect(recalledIds(built)).not.toContain(`message:${bLater.id}`)

    // B itself still recalls nothing of A after its own fork point, yet keeps its own branch.
    const inB = await services.context.preview(b.id, draft)
    expect(sentText(inB)).toContain('rent the Maple Hollow cabin')
    expect(sentText(inB)).not.toContain('改住大阪的酒店')
  })

  it('shows where a fork came from, and keeps the fork when the origin is deleted', async () => {
    const { services, thread, sent } = await origin()
    const fork = services.forks.fork(sent[1]!.id)
    const row = services.threads.list().find((t) => t.id === fork.id)
    expect(row?.title).toBe('Kyoto trip')
    expect(row?.forkedFrom).toEqual({
      threadId: thread.id,
      title: 'Kyoto trip',
      seq: 2,
      messageId: sent[1]!.id,
      excerpt: 'We land at Kansai airport on the 3rd.'
    })
    expect(services.threads.list().find((t) => t.id === thread.id)?.forkedFrom).toBeNull()

    services.threads.delete(thread.id)
    expect(services.messages.list(fork.id).map((m) => m.content)).toEqual(
      sent.slice(0, 2).map((m) => m.content)
    )
    expect(services.threads.list().find((t) => t.id === fork.id)?.forkedFrom).toBeNull()
    const outcome = await services.chat.send(fork.id, 'Still there?')
    expect(outcome.build?.context.metadata.includedMessageCount).toBe(2)
  })

  it('refuses a message that does not exist, and creates nothing', async () => {
    const { services } = await origin()
    expect(() => services.forks.fork(999_999)).toThrow(/no longer exists/)
    expect(services.threads.list()).toHaveLength(1)
  })
})

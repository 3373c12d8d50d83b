import { describe, expect, it, vi } from 'vitest'
import type { BuiltContext, TraceEntry } from '@shared/context'
import type { Message } from '@shared/domain'
import { MessageOutlines } from '../../src/main/store/messageOutline'
import { MessageRepository } from '../../src/main/store/messageRepository'
import { sendsOutline, ThreadMessageCache } from '../../src/main/services/chat/threadMessageCache'
import { servicesIn } from '../support/services'
import { useTempDir } from '../support/tempDir'

const tempDir = useTempDir()

/** Texts with no visible character to JavaScript's /\S/, and some that look empty but are not. */
const BLANK_REPLIES = ['', '   ', '\u3000\n', '\u00a0\t', '\u2028\ufeff']
const NEARLY_BLANK = [`${' '.repeat(80)}ok`, '\u3000好', '\u200b'] // U+200B is not white space

/**
 * A long thread with everything a window decides on: tool-call units, pinned messages (one a
 * tool result whose call is further back), excluded ones, empty and nearly empty replies.
 */
function longThread(repository: MessageRepository, threadId: string, count: number): Message {
  const add = (role: Message['role'], content: string, extra: Partial<Message> = {}) =>
    repository.append({
      threadId,
      role,
      content,
      tokenCount: 20 + (content.length % 37),
      createdAt: 1,
      ...(extra.toolCalls && { toolCalls: extra.toolCalls }),
      ...(extra.toolCallId && { toolCallId: extra.toolCallId })
    })
  for (let i = 0; i < count; i++) {
    const user = add('user', `question ${i} about the garden, 问题 ${i}`)
    if (i % 97 === 3) repository.setFlags(user.id, { pinned: true })
    if (i % 41 === 7) repository.setFlags(user.id, { excluded: true })
    if (i % 13 === 5) {
      add('assistant', '', { toolCalls: [{ id: `c${i}`, name: 'search', arguments: '{"q":1}' }] })
      const result = add('tool', `result ${i}`, { toolCallId: `c${i}` })
      if (i % 39 === 5) repository.setFlags(result.id, { pinned: true })
    }
    const reply =
      i % 11 === 2
        ? BLANK_REPLIES[i % BLANK_REPLIES.length]
        : i % 17 === 4
          ? NEARLY_BLANK[i % NEARLY_BLANK.length]
          : `answer ${i}: water the roses weekly`
    add('assistant', reply as string)
  }
  return add('user', 'What did we decide about the roses?')
}

/** Two builds that send and report the same, whatever their timings say. */
function expectSameBuild(actual: BuiltContext, expected: BuiltContext): void {
  const { metadata, ...rest } = actual
  const { metadata: expectedMetadata, ...expectedRest } = expected
  expect(rest).toEqual(expectedRest)
  expect(metadata.model).toBe(expectedMetadata.model)
}

describe('the first send after a long thread opens', () => {
  it('builds from the outline exactly what it builds from the whole thread, without waiting for it', async () => {
    const dir = tempDir()
    const { db, services } = servicesIn(dir)
    const thread = services.threads.create('garden')
    const input = longThread(new MessageRepository(db), thread.id, 900)
    db.close()

    // Fresh services: the thread is not cached, so the send reads its outline.
    const outlines = vi.spyOn(MessageOutlines.prototype, 'after')
    const cold = servicesIn(dir)
    const fromOutline = await cold.services.context.prepareTurn(thread.id, input, {
      retry: true,
      totalBudget: 3_000
    })
    expect(outlines).toHaveBeenCalledTimes(1)
    // The same store once the whole thread is in memory.
    await cold.services.messages.usage(thread.id)
    const fromWhole = await cold.services.context.prepareTurn(thread.id, input, {
      retry: true,
      totalBudget: 3_000
    })

    const window = fromWhole.context.trace.filter((e) => e.section === 'recent')
    expect(window.filter((e) => e.decision === 'dropped_budget').length).toBeGreaterThan(100)
    expect(window.filter((e) => e.decision === 'pinned').length).toBeGreaterThan(5)
    expect(window.some((e) => e.decision === 'empty_reply')).toBe(true)
    expect(fromWhole.context.messages.length).toBeGreaterThan(20)
    expectSameBuild(fromOutline.context, fromWhole.context)
    expect(outlines).toHaveBeenCalledTimes(1)
    outlines.mockRestore()
    cold.db.close()
  })

  it('previews a draft while the thread loads exactly as once it has loaded', async () => {
    const dir = tempDir()
    const { db, services } = servicesIn(dir)
    const thread = services.threads.create('garden')
    // Over one background slice (5,000 rows), so the thread is still loading between previews.
    db.transaction(() => longThread(new MessageRepository(db), thread.id, 2_500))()
    db.close()

    const outlines = vi.spyOn(MessageOutlines.prototype, 'after')
    const cold = servicesIn(dir)
    cold.services.messages.page(thread.id) // opening the thread starts its background read
    const drafts = ['What', 'What did', 'What did we decide']
    const whileLoading = []
    for (const draft of drafts) {
      whileLoading.push(
        await cold.services.context.preview(thread.id, draft, { totalBudget: 3_000 })
      )
    }
    expect(outlines).toHaveBeenCalledTimes(1)
    await cold.services.messages.usage(thread.id)
    for (const [index, draft] of drafts.entries()) {
      const loaded = await cold.services.context.preview(thread.id, draft, { totalBudget: 3_000 })
      expectSameBuild(whileLoading[index]!, loaded)
    }
    expect(outlines).toHaveBeenCalledTimes(1)
    outlines.mockRestore()
    cold.db.close()
  })

  it('reads old messages without their text, the newest and pinned units whole', async () => {
    const { db, services } = servicesIn(tempDir())
    const thread = services.threads.create('garden')
    const repository = new MessageRepository(db)
    longThread(repository, thread.id, 400)
    const whole = repository.listByThread(thread.id)

    const snapshot = await new ThreadMessageCache(repository, new MessageOutlines(db), 2).forBuild(
      thread.id,
      500
    )
    expect(snapshot.messages.map((m) => m.id)).toEqual(whole.map((m) => m.id))
    expect(snapshot.tokens.at(-1)).toBe(whole.reduce((sum, m) => sum + m.tokenCount, 0))
    const outlined = snapshot.messages.filter((m) => m.seq < snapshot.outlinedBefore)
    const newest = snapshot.messages.filter((m) => m.seq >= snapshot.outlinedBefore)
    expect(newest.reduce((sum, m) => sum + m.tokenCount, 0)).toBeGreaterThanOrEqual(500)
    expect(newest).toEqual(whole.slice(-newest.length))
    // Old text is not read; what a build reads of it (emptiness, flags, units) is exact.
    const byId = new Map(whole.map((m) => [m.id, m]))
    for (const message of outlined) {
      const original = byId.get(message.id) as Message
      if (snapshot.readWhole.has(message.id)) {
        expect(message).toEqual(original)
        continue
      }
      expect(message.content).not.toBe(original.content || '…')
      expect([original.content, message.content === '']).toEqual([
        original.content,
        !/\S/.test(original.content)
      ])
      expect([message.role, message.pinned, message.excluded, message.tokenCount]).toEqual([
        original.role,
        original.pinned,
        original.excluded,
        original.tokenCount
      ])
      expect((message.toolCalls?.length ?? 0) > 0).toBe((original.toolCalls?.length ?? 0) > 0)
    }
    // A pinned tool result comes whole with the call it answers.
    const pinnedResult = outlined.find((m) => m.role === 'tool' && m.pinned) as Message
    const call = snapshot.messages[snapshot.messages.indexOf(pinnedResult) - 1] as Message
    expect(call.toolCalls).toEqual(byId.get(call.id)?.toolCalls)

    const sent = (seq: number, id: number): TraceEntry => ({
      id: String(id),
      kind: 'message',
      section: 'recent',
      tokens: 1,
      decision: 'included',
      seq
    })
    const plain = outlined.find((m) => !snapshot.readWhole.has(m.id)) as Message
    expect(sendsOutline(snapshot, [sent(plain.seq, plain.id)])).toBe(true)
    expect(sendsOutline(snapshot, [sent(pinnedResult.seq, pinnedResult.id)])).toBe(false)
    db.close()
  })
})

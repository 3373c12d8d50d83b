import { describe, expect, it } from 'vitest'
import type { BuiltContext, TraceEntry } from '@shared/context'
import type { MemorySearch } from '../../src/main/context/recall/memorySearch'
import { BuildRepository } from '../../src/main/store/buildRepository'
import { servicesIn, steppingClock } from '../support/services'
import { useTempDir } from '../support/tempDir'

const tempDir = useTempDir()

const traceOf = (built: BuiltContext, id: number | string): TraceEntry | undefined =>
  built.trace.find((entry) => entry.id === String(id))

async function threadWithHistory(memory?: MemorySearch) {
  const setup = servicesIn(tempDir(), steppingClock(), memory)
  const { services } = setup
  const thread = services.threads.create('Trip')
  const sent = []
  for (const text of [
    'Help me plan a week in Kyoto in April.',
    '我不吃辣，也不喜欢太甜的东西。',
    'We land at KIX on the 3rd at 9am.',
    'Our hotel budget is 150 euros a night.'
  ]) {
    sent.push((await services.chat.send(thread.id, text)).message)
  }
  return { ...setup, thread, sent }
}

describe('building the request for a send', () => {
  it('sends the system prompt, the earlier messages and the new message last, and keeps the build', async () => {
    const { services, thread, sent, published } = await threadWithHistory()
    const outcome = await services.chat.send(thread.id, 'What should we do on day one?')
    const build = outcome.build
    expect(outcome.buildError).toBeNull()
    expect(build?.messageId).toBe(outcome.message.id)

    const payload = build?.context.messages ?? []
    expect(payload[0]).toMatchObject({
      role: 'system',
      content: expect.stringContaining('Context Lens')
    })
    expect(payload.at(-1)).toEqual({ role: 'user', content: 'What should we do on day one?' })
    for (const message of sent) {
      expect(traceOf(build!.context, message.id)?.decision).toBe('included')
      expect(payload.some((m) => m.content === message.content)).toBe(true)
    }
    // The stored message is the input, never also a window candidate.
    expect(traceOf(build!.context, outcome.message.id)).toBeUndefined()
    expect(build?.context.metadata.includedMessageCount).toBe(4)

    const history = services.context.builds(thread.id)
    expect(history).toHaveLength(5)
    expect(history[0]).toEqual(build)
    expect(history.map((b) => b.id)).toEqual([...history.map((b) => b.id)].sort((a, b) => b - a))
    expect(published.filter((p) => p.event === 'context:built').at(-1)?.payload).toEqual(build)
  })

  it('always sends pinned messages and never excluded ones', async () => {
    const { services, thread, sent } = await threadWithHistory()
    services.messages.setFlags(sent[0]!.id, { pinned: true })
    services.messages.setFlags(sent[1]!.id, { excluded: true })
    const { build } = await services.chat.send(thread.id, 'Next question')
    const context = build!.context
    expect(traceOf(context, sent[0]!.id)?.decision).toBe('pinned')
    expect(traceOf(context, sent[1]!.id)?.decision).toBe('excluded_by_user')
    expect(context.messages.some((m) => m.content === sent[1]!.content)).toBe(false)
    expect(context.messages.some((m) => m.content === sent[0]!.content)).toBe(true)
  })

  it('remembers the active goal per thread and restates it at the end', async () => {
    const { services, thread, db } = await threadWithHistory()
    const settings = JSON.parse(
      db.prepare('SELECT settings FROM threads WHERE id = ?').pluck().get(thread.id) as string
    )
    expect(settings.taskState.goals.at(-1)).toMatchObject({ status: 'active' })
    const preview = await services.context.preview(thread.id, '')
    const pinning = preview.trace.find((t) => t.kind === 'pinning')
    expect(pinning?.decision).toBe('included')
    expect(preview.messages.some((m) => m.content.includes('Kyoto'))).toBe(true)
  })

  it('still builds, without memories and with a visible warning, when memory search times out', async () => {
    const slow: MemorySearch = {
      search: () => new Promise((resolve) => setTimeout(() => resolve([]), 2_000))
    }
    const { services, thread } = await threadWithHistory(slow)
    const { build } = await services.chat.send(thread.id, 'anything')
    expect(build?.context.metadata.warnings).toContainEqual({
      code: 'upstream',
      message: 'Memory search took over 500 ms; sent without memories.',
      memory: { code: 'search_timeout', message: 'Memory search took over 500 ms.', ms: 500 }
    })
  }, 15_000)

  it('keeps the message and reports the failure when the build itself fails', async () => {
    const { services, thread, db, logged } = await threadWithHistory()
    // A stored config that no longer validates, e.g. written by a buggy older version.
    db.prepare("INSERT OR REPLACE INTO settings (key, value) VALUES ('context', ?)").run(
      JSON.stringify({ percentages: { recent: 90, system: 50 } })
    )
    const outcome = await services.chat.send(thread.id, 'this must not be lost')
    expect(outcome.build).toBeNull()
    expect(outcome.buildError).toMatch(/add up to 185 %/)
    expect(services.messages.list(thread.id).at(-1)?.content).toBe('this must not be lost')
    expect(logged).toEqual([`context build for message ${outcome.message.id} failed`])
  })
})

describe('previews and configuration', () => {
  it('previews the draft with a what-if budget without saving it', async () => {
    const { services, thread } = await threadWithHistory()
    const normal = await services.context.preview(thread.id, 'draft text')
    expect(normal.trace.find((t) => t.kind === 'input')?.tokens).toBeGreaterThan(0)
    const tight = await services.context.preview(thread.id, 'draft text', {
      totalBudget: 200,
      percentages: { recent: 5 }
    })
    expect(tight.tokenStats.budget).toBe(200)
    const dropped = tight.trace.filter((t) => t.decision === 'dropped_budget')
    expect(dropped.length).toBeGreaterThan(0)
    expect(services.contextConfig.get(thread.id).thread).toEqual({})
    expect((await services.context.preview(thread.id, 'draft text')).tokenStats.budget).toBe(
      normal.tokenStats.budget
    )
  })

  it('layers a thread override on the global config, and null clears it', async () => {
    const { services, thread } = await threadWithHistory()
    services.contextConfig.update('global', { totalBudget: 8_000 })
    services.contextConfig.update(
      'thread',
      { totalBudget: 2_000, percentages: { recent: 40 } },
      thread.id
    )
    expect(services.contextConfig.get(thread.id).effective).toMatchObject({
      totalBudget: 2_000,
      percentages: { recent: 40, system: 15 }
    })
    expect((await services.context.preview(thread.id, '')).tokenStats.budget).toBe(2_000)
    const cleared = services.contextConfig.update('thread', { totalBudget: null }, thread.id)
    expect(cleared.effective.totalBudget).toBe(8_000)
    expect(cleared.thread).toEqual({ percentages: { recent: 40 } })
  })

  it('rejects a change that makes the shares add up to more than 100 % and saves nothing', async () => {
    const { services, thread } = await threadWithHistory()
    expect(() =>
      services.contextConfig.update('thread', { percentages: { recent: 80 } }, thread.id)
    ).toThrow(/add up to 140 %/)
    expect(services.contextConfig.get(thread.id).thread).toEqual({})
  })
})

describe('resetting and protecting overrides', () => {
  it('drops a single share of a thread override with null, falling back to the default', async () => {
    const { services, thread } = await threadWithHistory()
    services.contextConfig.update('thread', { percentages: { recent: 45, summary: 5 } }, thread.id)
    const view = services.contextConfig.update(
      'thread',
      { percentages: { recent: null } },
      thread.id
    )
    expect(view.thread).toEqual({ percentages: { summary: 5 } })
    expect(view.effective.percentages).toMatchObject({ recent: 40, summary: 5 })
  })

  it('refuses a new default that would push a thread override over 100 %, naming the thread', async () => {
    const { services, thread } = await threadWithHistory()
    services.contextConfig.update('thread', { percentages: { recent: 45, summary: 5 } }, thread.id)
    // Valid on its own (100 %), but the thread's own shares would then add up to 105 %.
    const change = { percentages: { retrieved: 20, recent: 35 } }
    expect(() => services.contextConfig.update('global', change)).toThrow(
      /would break the thread "Trip".*105 %/
    )
    expect(services.contextConfig.get().global).toEqual({})
    expect(services.contextConfig.update('global', { percentages: { summary: 5 } }).global).toEqual(
      {
        percentages: { summary: 5 }
      }
    )
  })
})

describe('build history', () => {
  it('keeps only the newest builds per thread, and goes with its thread', async () => {
    const { services, thread, db } = await threadWithHistory()
    const repository = new BuildRepository(db, 2)
    const context = (await services.context.preview(thread.id, 'x')) as BuiltContext
    for (let i = 0; i < 3; i++)
      repository.add({ threadId: thread.id, messageId: null, createdAt: i, context })
    expect(repository.list(thread.id).map((b) => b.createdAt)).toEqual([2, 1])
    services.threads.delete(thread.id)
    expect(db.prepare('SELECT count(*) FROM context_builds').pluck().get()).toBe(0)
  })
})

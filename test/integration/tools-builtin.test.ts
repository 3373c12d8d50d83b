/**
 * The built-in tools on a real SQLite store with the real embedding model: `search_history`
 * finds messages of every thread by meaning and by words, with their ids and dates, and
 * `open_message` returns a stored message and its neighbours word for word. Both wait for
 * approval like any MCP tool.
 */
import { describe, expect, it } from 'vitest'
import type { ToolCall } from '@shared/domain'
import { defaultModel, e5Model, testEmbeddings, type TestModel } from '../support/embeddings'
import { useMemoryServices, type MemoryTestServices } from '../support/memoryServices'
import { pollUntil } from '../support/poll'
import { useTempDir } from '../support/tempDir'

const { withModel, withoutModel, withEmbeddings, workerPath } = useMemoryServices(useTempDir())
const BUILTINS = ['builtin:search_history', 'builtin:open_message']

const call = (name: string, args: Record<string, unknown>, id = 'c1'): ToolCall => ({
  id,
  name,
  arguments: JSON.stringify(args)
})
const run = (
  services: Awaited<ReturnType<typeof withModel>>['services'],
  threadId: string,
  c: ToolCall
) => services.tools.execute(threadId, c, new AbortController().signal)

describe('built-in tools', () => {
  it('search_history finds messages of every thread by meaning, with ids, threads and dates', async () => {
    const { services } = await withModel()
    const travel = services.threads.create('Trip planning')
    const work = services.threads.create('Work')
    await services.chat.send(travel.id, 'I booked a flight to Lisbon for the 14th of March.')
    await services.chat.send(travel.id, 'The hotel is near the Alfama district.')
    await services.chat.send(work.id, 'The quarterly report is due on Friday.')
    await services.memoryIndexer.drained()
    const asking = services.threads.create('Now')
    services.tools.setThreadTools(asking.id, BUILTINS)
    BUILTINS.forEach((key) => services.tools.setAlwaysAllowed(key, true))

    // "airplane ticket" shares no word with "booked a flight": found through the vectors.
    const found = await run(
      services,
      asking.id,
      call('search_history', { query: 'airplane ticket to Portugal' })
    )
    expect(found.isError).toBe(false)

    const first = found.content.split('\n')[1] ?? ''
    expect(first).toMatch(/^- id \d+ · thread "Trip planning" · user · \d{4}-\d\d-\d\d \d\d:\d\d$/)
    expect(found.content).toContain('I booked a flight to Lisbon')
    expect(found.content).not.toContain('full-text only')

    const id = Number(/id (\d+)/.exec(first)?.[1])
    const opened = await run(services, asking.id, call('open_message', { id, neighbours: 1 }))
    expect(opened.content).toContain('Thread "Trip planning"')
    expect(opened.content).toContain(`--- id ${id} · #1 · user`)
    expect(opened.content).toContain('(requested)')
    expect(opened.content).toContain('I booked a flight to Lisbon for the 14th of March.')
    // Its neighbour in the same thread, and nothing of the other thread.
    expect(opened.content).toContain('The hotel is near the Alfama district.')
    expect(opened.content).not.toContain('quarterly report')
  })

  it('open_message returns a long message word for word; bad arguments are errors the model can read', async () => {
    const { services } = withoutModel()
    const thread = services.threads.create('Logs')
    const long = Array.from({ length: 2000 }, (_, i) => `line ${i}: 日志 entry ${i * 7}`).join('\n')
    const sent = await services.chat.send(thread.id, long)
    services.tools.setThreadTools(thread.id, BUILTINS)
    services.tools.setAlwaysAllowed('builtin:open_message', true)
    const opened = await run(
      services,
      thread.id,
      call('open_message', { id: sent.message.id, neighbours: 0 })
    )
    expect(opened.content.endsWith(`\n${long}`)).toBe(true)

    const missing = await run(services, thread.id, call('open_message', { id: 999_999 }))
    expect(missing.content).toBe('No message has id 999999.')
    const bad = await run(services, thread.id, call('open_message', { id: 'one' }))
    expect(bad).toMatchObject({ isError: true })
    expect(bad.content).toContain('"id" must be a message id')
  })

  it('a built-in tool asks for approval like any other, and a thread that does not expose it cannot call it', async () => {
    const { services, published } = withoutModel()
    const thread = services.threads.create('T')
    await services.chat.send(thread.id, 'searchable words here')
    const notExposed = await run(services, thread.id, call('search_history', { query: 'words' }))
    expect(notExposed.content).toBe('Error: no tool named "search_history" is available.')

    services.tools.setThreadTools(thread.id, BUILTINS)
    const controller = new AbortController()
    const pending = services.tools.execute(
      thread.id,
      call('search_history', { query: 'searchable' }, 'ask'),
      controller.signal
    )
    const approvals = () => published.filter((e) => e.event === 'tools:approval')
    await pollUntil(() => approvals().length > 0, { what: 'the approval request' })
    expect(approvals()).toHaveLength(1)
    services.tools.answer(thread.id, 'ask', 'once')
    const result = await pending
    expect(result.content).toContain('searchable words here')
    expect(result.content).toContain('full-text only')
  })

  it('tool relevance comes from the memory model, and is null without it', async () => {
    const { services } = await withModel()
    const thread = services.threads.create('R')
    services.tools.setThreadTools(thread.id, BUILTINS)
    await services.memoryIndexer.drained()
    // A build waits at most 300 ms for relevance; the descriptions' vectors are kept once made.
    const ranked = await pollUntil(
      async () => {
        const tools = await services.tools.forBuild(thread.id, 'search my old conversations')
        return tools.some((t) => t.relevance === null) ? undefined : tools
      },
      { what: 'every tool to have a relevance', timeoutMs: 10_000, intervalMs: 200 }
    )
    expect(ranked.map((t) => t.name)).toEqual(['search_history', 'open_message'])
    for (const tool of ranked) {
      expect(tool.relevance).toBeGreaterThan(0)
      expect(tool.relevance).toBeLessThanOrEqual(1)
    }

    const plain = withoutModel()
    const other = plain.services.threads.create('R')
    plain.services.tools.setThreadTools(other.id, BUILTINS)
    const unranked = await plain.services.tools.forBuild(other.id, 'search my old conversations')
    expect(unranked.map((t) => t.relevance)).toEqual([null, null])
  })

  it('tool relevance follows a switch of the memory model, never mixing two models’ vectors', async () => {
    const question = 'search my old conversations'
    const ranked = async (services: MemoryTestServices['services'], threadId: string) =>
      pollUntil(
        async () => {
          const tools = await services.tools.forBuild(threadId, question)
          return tools.some((t) => t.relevance === null)
            ? undefined
            : new Map(tools.map((t) => [t.name, t.relevance]))
        },
        { what: 'every tool to have a relevance', timeoutMs: 20_000, intervalMs: 200 }
      )
    let model: TestModel = defaultModel()
    const switching = withEmbeddings((settings) => testEmbeddings(workerPath(), model)(settings))
    await switching.services.memoryIndexer.drained()
    const thread = switching.services.threads.create('R')
    switching.services.tools.setThreadTools(thread.id, BUILTINS)
    const before = await ranked(switching.services, thread.id)

    model = e5Model()
    await switching.services.memoryModel.reload()
    await switching.services.memoryIndexer.embedder()?.ready()
    const after = await ranked(switching.services, thread.id)

    // What a fresh app on the second model computes: the switched app must agree with it.
    const fresh = await withModel(e5Model())
    const freshThread = fresh.services.threads.create('R')
    fresh.services.tools.setThreadTools(freshThread.id, BUILTINS)
    const expected = await ranked(fresh.services, freshThread.id)
    for (const [name, relevance] of expected) {
      expect(after.get(name), name).toBeCloseTo(relevance!, 3)
      expect(after.get(name), name).not.toBeCloseTo(before.get(name)!, 3)
    }
  }, 120_000)
})

/**
 * Cost explained per reply and per thread: real services on a real SQLite file, the scripted
 * HTTP server speaking Anthropic's and OpenAI's wire formats with cache usage.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ThreadCostReport } from '@shared/costReport'
import type { ProviderInput } from '@shared/providers'
import type { IpcResult } from '@shared/result'
import { createHandlers } from '../../src/main/ipc/handlers'
import { createRegistry } from '../../src/main/ipc/registry'
import { startScriptedProvider, type ScriptedProvider } from '../support/scriptedProvider'
import { servicesIn, type TestServices } from '../support/services'
import { useTempDir } from '../support/tempDir'

const KEY = 'sk-test-Cost-Key-0123456789abcdef'
const tempDir = useTempDir()
let server: ScriptedProvider

beforeAll(async () => {
  server = await startScriptedProvider({ requiredKey: KEY })
})
afterAll(() => server.close())

// Per million tokens: $3 input, $0.30 cache read, $3.75 cache write, $15 output.
const PRICES = { inputPrice: 3, outputPrice: 15, cacheReadPrice: 0.3, cacheWritePrice: 3.75 }

interface Setup extends TestServices {
  dir: string
  threadId: string
  report: (whatIf?: boolean) => Promise<ThreadCostReport>
}

function setup(kind: ProviderInput['kind'], modelId: string, summaryMinTokens?: number): Setup {
  const dir = tempDir()
  const test = servicesIn(dir, Date.now, undefined, {
    streamTimeouts: { firstChunkMs: 5_000, idleMs: 5_000 },
    ...(summaryMinTokens !== undefined && { summaryMinTokens })
  })
  const provider = test.services.providers.create({
    kind,
    name: `Scripted ${kind}`,
    baseUrl: server.v1,
    apiKey: KEY,
    models: [{ id: modelId, contextWindow: 16_000, maxOutput: 1_000, ...PRICES }]
  })
  const thread = test.services.threads.create()
  test.services.threads.setModel(thread.id, { providerId: provider.id, modelId })
  const registry = createRegistry(createHandlers(test.services), () => {})
  return {
    ...test,
    dir,
    threadId: thread.id,
    report: async (whatIf = true) => {
      const result = (await registry.invoke('chat:costReport', {
        threadId: thread.id,
        whatIf
      })) as IpcResult<ThreadCostReport>
      if (!result.ok) throw new Error(result.error.message)
      return result.data
    }
  }
}

async function turn(s: Setup, content: string): Promise<void> {
  await s.services.chat.send(s.threadId, content)
  await s.services.chat.settled(s.threadId)
}

const perMillion = (tokens: number, price: number) => (tokens * price) / 1e6

describe('cost explained', () => {
  it('Anthropic: cache reads and writes stored per reply with their cost, summed per thread', async () => {
    const s = setup('anthropic', 'claude-sonnet-4-5')
    server.enqueue(
      {
        type: 'reply',
        chunks: ['one'],
        usage: { prompt: 2_000, completion: 10, cacheWrite: 1_800 }
      },
      {
        type: 'reply',
        chunks: ['two'],
        usage: { prompt: 2_400, completion: 20, cacheRead: 1_800, cacheWrite: 500 }
      }
    )
    await turn(s, 'First question about the parser')
    await turn(s, 'Second question about the parser')

    // A fresh read from the file: the cost by part was stored with each reply.
    const fresh = servicesIn(s.dir)
    const replies = fresh.services.messages.list(s.threadId).filter((m) => m.role === 'assistant')
    expect(replies.map((m) => m.reply?.usage)).toEqual([
      { promptTokens: 2_000, completionTokens: 10, cacheReadTokens: 0, cacheWriteTokens: 1_800 },
      { promptTokens: 2_400, completionTokens: 20, cacheReadTokens: 1_800, cacheWriteTokens: 500 }
    ])
    const second = replies[1]!.reply!.costParts!
    expect(second.cacheRead).toBeCloseTo(perMillion(1_800, 0.3), 12)
    expect(second.cacheWrite).toBeCloseTo(perMillion(500, 3.75), 12)
    expect(second.input).toBeCloseTo(perMillion(100, 3), 12)
    expect(second.output).toBeCloseTo(perMillion(20, 15), 12)
    fresh.db.close()

    const report = await s.report()
    expect(report.replies).toHaveLength(2)
    expect(report.replies[1]).toMatchObject({ uncachedTokens: 100, cacheMissed: false })
    expect(report.totals).toMatchObject({
      promptTokens: 4_400,
      cacheReadTokens: 1_800,
      cacheWriteTokens: 2_300,
      uncachedTokens: 300,
      unpricedReplies: 0
    })
    const first = perMillion(200, 3) + perMillion(1_800, 3.75) + perMillion(10, 15)
    const next =
      perMillion(100, 3) + perMillion(1_800, 0.3) + perMillion(500, 3.75) + perMillion(20, 15)
    expect(report.totals.cost).toBeCloseTo(first + next, 12)
    // Reads saved $2.70/M each; writes cost $0.75/M more than input.
    expect(report.totals.savings).toBeCloseTo(perMillion(1_800, 2.7) - perMillion(2_300, 0.75), 12)
    // The second request kept the first one's start: the system prompt and the first question.
    const divergence = report.replies[1]!.divergence!
    expect(report.replies[0]!.divergence).toBeNull()
    expect(divergence.sharedMessages).toBeGreaterThanOrEqual(1)
    expect(divergence.first).toMatchObject({ section: 'recent', role: 'assistant' })
    // The what-if replays the second turn and its predecessor; it never reads more from the
    // cache than the provider cached.
    expect(report.whatIf).toMatchObject({ turns: 1 })
    expect(report.whatIf!.cacheReadTokens).toBeLessThanOrEqual(report.totals.cacheReadTokens)
    s.db.close()
  })

  it('OpenAI: cached_tokens read back, and a miss located in the request', async () => {
    const s = setup('openai', 'gpt-4o-mini')
    server.enqueue(
      { type: 'reply', chunks: ['a'], usage: { prompt: 1_500, completion: 5 } },
      { type: 'reply', chunks: ['b'], usage: { prompt: 1_600, completion: 5, cacheRead: 1_024 } },
      { type: 'reply', chunks: ['c'], usage: { prompt: 1_700, completion: 5 } }
    )
    await turn(s, 'Alpha')
    await turn(s, 'Beta')
    // The user excludes the first question: the third request starts differently.
    const alpha = s.services.messages.list(s.threadId).find((m) => m.content === 'Alpha')!
    s.services.messages.setFlags(alpha.id, { excluded: true })
    await turn(s, 'Gamma')

    const report = await s.report()
    expect(report.replies.map((r) => r.usage.cacheReadTokens)).toEqual([0, 1_024, 0])
    // The what-if rebuilds turns, so it is computed only when asked for.
    expect((await s.report(false)).whatIf).toBeNull()
    expect(report.replies.map((r) => r.cacheMissed)).toEqual([false, false, true])
    const miss = report.replies[2]!.divergence!
    // Where the prefix broke: the history position that held "Alpha" now holds its reply.
    expect(miss.previous).toMatchObject({ section: 'recent', seq: alpha.seq })
    expect(miss.first).toMatchObject({ section: 'recent' })
    expect(miss.first!.seq).toBeGreaterThan(alpha.seq)
    expect(report.totals.cacheReadTokens).toBe(1_024)
    expect(report.totals.cost).toBeCloseTo(
      perMillion(1_500 + 576 + 1_700, 3) + perMillion(1_024, 0.3) + perMillion(15, 15),
      12
    )
    s.db.close()
  })

  it('what-if: replays every turn with the sliding window and never reads more than was cached', async () => {
    // No summary changes the prefix meanwhile: the replays read the summary as it is now.
    const s = setup('openai', 'gpt-4o-mini', 1_000_000_000)
    s.services.contextConfig.update('global', { totalBudget: 700, window: { policy: 'sliding' } })
    const long = (n: number) =>
      `Question ${n}: ${'how should the parser handle this case '.repeat(12)}`
    // Like a real cache: the provider serves the messages this request repeats from the last one.
    let previous: string[] = []
    server.route = (body) => {
      const messages = (body as { messages: unknown[] }).messages.map((m) => JSON.stringify(m))
      let shared = 0
      while (shared < previous.length && messages[shared] === previous[shared]) shared++
      const size = (list: string[]) => Math.round(list.join('').length / 4)
      previous = messages
      return {
        type: 'reply',
        chunks: ['noted'],
        usage: { prompt: size(messages), completion: 5, cacheRead: size(messages.slice(0, shared)) }
      }
    }
    try {
      for (let i = 1; i <= 6; i++) await turn(s, long(i))
    } finally {
      server.route = null
    }
    const report = await s.report()
    const whatIf = report.whatIf!
    expect(whatIf.turns).toBe(5)
    // The replays use today's settings and token calibration, which moved the window since
    // (recordUsage), so they approximate: reads never exceed what was cached, and cost no less.
    expect(whatIf.cacheReadTokens).toBeLessThanOrEqual(report.totals.cacheReadTokens)
    expect(whatIf.cacheReadTokens).toBeGreaterThan(0)
    expect(whatIf.cost).toBeGreaterThanOrEqual(report.totals.cost! - 1e-12)
    s.db.close()
  })
})

/**
 * The 85 % safety net on the real send path: real services and SQLite, the scripted server as
 * a model with a small window, and what it actually received.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { SendOutcome } from '@shared/domain'
import { startScriptedProvider, type ScriptedProvider } from '../support/scriptedProvider'
import { servicesIn, type TestServices } from '../support/services'
import { useTempDir } from '../support/tempDir'

const tempDir = useTempDir()
let server: ScriptedProvider
const WINDOW = 4_000

beforeAll(async () => {
  server = await startScriptedProvider()
})
afterAll(() => server.close())

function setup(): TestServices & { threadId: string } {
  const test = servicesIn(tempDir(), Date.now, undefined, {
    streamTimeouts: { firstChunkMs: 5_000, idleMs: 5_000 },
    // No background summary: older turns stay unsummarized, so the history itself overflows.
    summaryMinTokens: Number.MAX_SAFE_INTEGER
  })
  const provider = test.services.providers.create({
    kind: 'openai-compatible',
    name: 'Small window',
    baseUrl: server.v1,
    models: [{ id: 'gpt-4o-mini', contextWindow: WINDOW, maxOutput: 500 }]
  })
  const thread = test.services.threads.create()
  test.services.threads.setModel(thread.id, { providerId: provider.id, modelId: 'gpt-4o-mini' })
  return { ...test, threadId: thread.id }
}

async function send(s: TestServices & { threadId: string }, content: string) {
  const outcome = await s.services.chat.send(s.threadId, content)
  await s.services.chat.settled(s.threadId)
  await s.services.memoryExtraction.settled(s.threadId)
  return outcome as Extract<SendOutcome, { status: 'streaming' }>
}

const sentText = () =>
  JSON.stringify((server.completions().at(-1)?.body as { messages: unknown }).messages)

describe('the 85 % safety net', () => {
  it('sends only the ends of a huge paste, says so, and stores it whole', async () => {
    const s = setup()
    await send(s, 'Hello, I will paste a build log next.')
    const log = Array.from(
      { length: 1_500 },
      (_, i) => `step ${i}: compiling module-${i} … 警告：依赖版本不一致`
    ).join('\n')
    const paste = `Why does this build fail?\n${log}\nFATAL: linker error in module-1499`

    const outcome = await send(s, paste)

    const { context } = outcome.build
    expect(context.tokenStats.total).toBeLessThanOrEqual(WINDOW * 0.85)
    expect(context.metadata.warnings.map((w) => w.code)).toContain('input_trimmed')
    // Ten times the window: only its ends were counted, the parts that could be sent.
    const input = context.trace.find((t) => t.id === 'input')
    expect(input?.counting).toBe('ends')
    expect(input?.note).toMatch(
      /^counted exactly at its beginning and end.*; middle left out to fit the window: \d+ of about \d+ tokens sent$/
    )
    const body = sentText()
    expect(body).toContain('Why does this build fail?')
    expect(body).toContain('FATAL: linker error in module-1499')
    expect(body).toContain("were left out here to fit the model's context window")
    expect(body).not.toContain('compiling module-700 ')

    const stored = s.services.messages.list(s.threadId).find((m) => m.content.startsWith('Why'))
    expect(stored?.content).toBe(paste)
    s.db.close()
  })

  it('rebuilds within the limit when the budget is set above the window', async () => {
    const s = setup()
    s.services.contextConfig.update('thread', { totalBudget: 20_000 }, s.threadId)
    for (let i = 0; i < 20; i++) {
      await send(s, `Question ${i}: ${'please explain the retry policy in detail '.repeat(60)}`)
    }
    const outcome = await send(s, 'And the last question?')

    const { context } = outcome.build
    expect(context.tokenStats.total).toBeLessThanOrEqual(WINDOW * 0.85)
    expect(context.tokenStats.budget).toBe(Math.floor(WINDOW * 0.85))
    expect(context.metadata.warnings.map((w) => w.code)).toEqual(
      expect.arrayContaining(['request_shrunk'])
    )
    expect(context.metadata.warnings.map((w) => w.code)).not.toContain('input_trimmed')
    expect(context.metadata.droppedMessageCount).toBeGreaterThan(0)
    // The inspector's preview of the same draft shows the same request.
    const preview = await s.services.context.preview(s.threadId, 'And the last question?')
    expect(preview.metadata.warnings.map((w) => w.code)).toContain('request_shrunk')
    s.db.close()
  })
})

/**
 * Thread summaries in the background: real services and SQLite, the scripted server for the
 * model. A tiny budget pushes older messages out of the window, so an update becomes due.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ThreadSummaryView } from '@shared/domain'
import { createHandlers } from '../../src/main/ipc/handlers'
import { createRegistry } from '../../src/main/ipc/registry'
import { startScriptedProvider, type ScriptedProvider } from '../support/scriptedProvider'
import { servicesIn, type TestServices } from '../support/services'
import { useTempDir } from '../support/tempDir'

const tempDir = useTempDir()
let server: ScriptedProvider
const SECRET = 'sk-proj-AbCdEfGhIjKlMnOpQrStUv123456'

beforeAll(async () => {
  server = await startScriptedProvider()
})
afterAll(() => server.close())

const LONG = (n: number) =>
  `Message ${n}: ${'we discussed the plan for the parser refactor in detail '.repeat(16)}`

function setup(withProvider: boolean): TestServices & { threadId: string } {
  const test = servicesIn(tempDir(), Date.now, undefined, {
    summaryMinTokens: 100,
    streamTimeouts: { firstChunkMs: 5_000, idleMs: 5_000 }
  })
  const thread = test.services.threads.create()
  // A small total budget: only the newest messages fit the window.
  test.services.contextConfig.update('global', { totalBudget: 800 })
  if (withProvider) {
    const provider = test.services.providers.create({
      kind: 'openai-compatible',
      name: 'Scripted',
      baseUrl: server.v1,
      models: [{ id: 'scripted-model', contextWindow: 32_000, maxOutput: 2_000 }]
    })
    test.services.threads.setModel(thread.id, {
      providerId: provider.id,
      modelId: 'scripted-model'
    })
  }
  return { ...test, threadId: thread.id }
}

async function turn(s: TestServices & { threadId: string }, content: string) {
  const outcome = await s.services.chat.send(s.threadId, content)
  await s.services.chat.settled(s.threadId)
  await s.services.summaries.settled(s.threadId)
  return outcome
}

describe('thread summaries', () => {
  it('without a provider: the extractive fallback, and the next build uses it', async () => {
    const s = setup(false)
    for (let i = 1; i <= 8; i++) await turn(s, LONG(i))
    const summary = s.services.summaries.get(s.threadId)
    expect(summary?.source).toBe('fallback')
    expect(summary?.lastMessageSeq).toBeGreaterThan(0)
    expect(s.published.some((e) => e.event === 'summary:changed')).toBe(true)
    const outcome = await turn(s, 'And now?')
    expect(outcome.build?.context.metadata.usedSummary).toBe(true)
    expect(JSON.stringify(outcome.build?.context.messages)).toContain(summary!.content.slice(0, 40))
    s.db.close()
  })

  it('with a provider: the model writes it, iteratively, from redacted turns', async () => {
    const s = setup(true)
    let version = 0
    const prompts: string[] = []
    server.route = (body) => {
      if (!isSummaryPrompt(body)) return { type: 'reply', chunks: ['ok'] }
      prompts.push(JSON.stringify(body))
      version += 1
      return { type: 'reply', chunks: [`## Goal\nRefactor the parser (model summary v${version})`] }
    }
    try {
      await turn(s, `${LONG(1)} my key is ${SECRET}`)
      for (let i = 2; i <= 30 && (s.services.summaries.get(s.threadId)?.version ?? 0) < 2; i++) {
        await turn(s, LONG(i))
      }
    } finally {
      server.route = null
    }
    const summary = s.services.summaries.get(s.threadId)
    expect(summary).toMatchObject({ source: 'model', version: 2 })
    expect(summary?.content).toContain('model summary v2')
    expect(prompts).toHaveLength(2)
    for (const prompt of prompts) expect(prompt).not.toContain(SECRET)
    expect(prompts[0]).toContain('Message 1:')
    // The update is iterative: the previous summary appears exactly once in the next prompt.
    expect(prompts[1]!.split('model summary v1').length - 1).toBe(1)
    s.db.close()
  })

  it('an auth failure leaves the stored summary unchanged (retried after a later turn)', async () => {
    const s = setup(true)
    const edited = s.services.summaries.update(s.threadId, 'Hand-written summary')
    let attempts = 0
    server.route = (body) => {
      if (!isSummaryPrompt(body)) return { type: 'reply', chunks: ['ok'] }
      attempts += 1
      return { type: 'error', status: 401, kind: 'auth' }
    }
    try {
      for (let i = 1; i <= 10; i++) await turn(s, LONG(i))
    } finally {
      server.route = null
    }
    expect(attempts).toBeGreaterThan(1)
    expect(s.logged.filter((line) => line.includes('postponed'))).toHaveLength(attempts)
    expect(s.services.summaries.get(s.threadId)).toEqual(edited)
    s.db.close()
  })

  it('another model failure falls back to the extractive summary', async () => {
    const s = setup(true)
    server.route = (body) =>
      isSummaryPrompt(body)
        ? { type: 'error', status: 500, kind: 'server' }
        : { type: 'reply', chunks: ['ok'] }
    try {
      for (let i = 1; i <= 12 && !s.services.summaries.get(s.threadId); i++) await turn(s, LONG(i))
    } finally {
      server.route = null
    }
    expect(s.services.summaries.get(s.threadId)?.source).toBe('fallback')
    s.db.close()
  })

  it('summary.get / summary.update over IPC: a user edit is the next version', async () => {
    const s = setup(false)
    const registry = createRegistry(createHandlers(s.services), () => {})
    expect(await registry.invoke('summary:get', { threadId: s.threadId })).toEqual({
      ok: true,
      data: null
    })
    const first = (await registry.invoke('summary:update', {
      threadId: s.threadId,
      content: 'Goal: ship it'
    })) as { ok: true; data: ThreadSummaryView }
    expect(first.data).toMatchObject({ content: 'Goal: ship it', version: 1, source: 'user' })
    const second = (await registry.invoke('summary:update', {
      threadId: s.threadId,
      content: 'Goal: ship it today'
    })) as { ok: true; data: ThreadSummaryView }
    expect(second.data.version).toBe(2)
    const preview = await s.services.context.preview(s.threadId, 'hi')
    expect(JSON.stringify(preview.messages)).toContain('Goal: ship it today')
    s.db.close()
  })
})

function isSummaryPrompt(body: unknown): boolean {
  const messages = (body as { messages?: { role: string }[] }).messages ?? []
  return messages.length === 1
}

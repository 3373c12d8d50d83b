/**
 * "/compress [focus]" (`summary.compress`) and the summary race (a background update that
 * finishes after the user's edit): real services and SQLite, the scripted server as the model.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ThreadSummaryView } from '@shared/domain'
import type { IpcResult } from '@shared/result'
import type { SummaryCompressResult } from '@shared/summaryCompression'
import { createHandlers } from '../../src/main/ipc/handlers'
import { createRegistry } from '../../src/main/ipc/registry'
import { startScriptedProvider, type ScriptedProvider } from '../support/scriptedProvider'
import { servicesIn, type TestServices } from '../support/services'
import { pollUntil } from '../support/poll'
import { useTempDir } from '../support/tempDir'

const tempDir = useTempDir()
let server: ScriptedProvider
const SECRET = 'sk-proj-AbCdEfGhIjKlMnOpQrStUv123456'

beforeAll(async () => {
  server = await startScriptedProvider()
})
afterAll(() => server.close())

type Setup = TestServices & { threadId: string; invoke: (input: unknown) => Promise<unknown> }

function setup(options: { provider: boolean; minTokens?: number; budget?: number }): Setup {
  const test = servicesIn(tempDir(), Date.now, undefined, {
    // No background summaries unless a test asks for them: /compress is what is tested.
    summaryMinTokens: options.minTokens ?? 1_000_000_000,
    streamTimeouts: { firstChunkMs: 5_000, idleMs: 5_000 }
  })
  const thread = test.services.threads.create()
  test.services.contextConfig.update('global', { totalBudget: options.budget ?? 1_500 })
  if (options.provider) {
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
  const registry = createRegistry(createHandlers(test.services), () => {})
  return {
    ...test,
    threadId: thread.id,
    invoke: (input) => registry.invoke('summary:compress', input)
  }
}

async function turn(s: Setup, content: string): Promise<void> {
  await s.services.chat.send(s.threadId, content)
  await s.services.chat.settled(s.threadId)
  await s.services.summaries.settled(s.threadId)
}

const TOPICS = [
  'We planned the database migration to add a currency column to invoices.',
  'The CSV importer should keep amounts in integer cents.',
  'Decided to run the database migration in two steps: add the column, then backfill.',
  'The login page needs a password reset link.',
  '数据库迁移需要先备份生产数据。',
  'Unit tests for the date parser are failing on 03.02.2024.'
]
// About 60 tokens each: with a total budget of 1,500 the tail (20 %, 300 tokens) is the 8-message floor.
const line = (n: number) =>
  `Message ${n}: ${TOPICS[n % TOPICS.length]!} ${'and some more details about it '.repeat(8)}`

async function compress(s: Setup, focusTopic?: string): Promise<SummaryCompressResult> {
  const result = (await s.invoke({
    threadId: s.threadId,
    ...(focusTopic !== undefined && { focusTopic })
  })) as IpcResult<SummaryCompressResult>
  if (!result.ok) throw new Error(result.error.message)
  return result.data
}

const isSummaryPrompt = (body: unknown): boolean =>
  ((body as { messages?: unknown[] }).messages ?? []).length === 1

describe('summary.compress (/compress)', () => {
  it('without a model: folds all but the tail into an extractive summary, with the focus', async () => {
    const s = setup({ provider: false })
    for (let i = 1; i <= 20; i++) await turn(s, line(i))
    const before = s.services.messages.list(s.threadId)

    const result = await compress(s, 'database migration')

    expect(result.status).toBe('compressed')
    if (result.status !== 'compressed') return
    expect(result.compressedMessages).toBe(12)
    expect(result.tailMessages).toBe(8)
    expect(result.focusTopic).toBe('database migration')
    expect(result.modelError).toBeNull()
    expect(result.summary).toMatchObject({ source: 'fallback', lastMessageSeq: 12, version: 1 })
    expect(result.summary.content).toContain('database migration')
    expect(s.services.summaries.get(s.threadId)).toEqual(result.summary)
    expect(s.published.filter((e) => e.event === 'summary:changed').at(-1)?.payload).toEqual(
      result.summary
    )
    // Nothing the user wrote is lost: the thread is exactly as it was.
    expect(s.services.messages.list(s.threadId)).toEqual(before)

    // The next request sends the summary and the tail; the inspector says why #1-#12 are not.
    const preview = await s.services.context.preview(s.threadId, 'what next?')
    expect(preview.metadata.usedSummary).toBe(true)
    const covered =
      preview.trace.filter((e) => e.decision === 'covered_by_summary').length +
      preview.collapsed
        .filter((c) => c.decision === 'covered_by_summary')
        .reduce((n, c) => n + c.count, 0)
    expect(covered).toBe(12)
    const included = preview.trace
      .filter((e) => e.kind === 'message' && e.decision === 'included')
      .map((e) => e.seq)
    expect(included).toEqual([13, 14, 15, 16, 17, 18, 19, 20])
    expect(JSON.stringify(preview.messages)).toContain(
      '[Summary of the conversation up to message #12]'
    )
    s.db.close()
  })

  it('is iterative, takes a Chinese focus, and says when there is nothing left to fold', async () => {
    const s = setup({ provider: false })
    for (let i = 1; i <= 14; i++) await turn(s, line(i))
    const first = await compress(s)
    expect(first).toMatchObject({ status: 'compressed', compressedMessages: 6, focusTopic: null })

    expect(await compress(s)).toEqual({
      status: 'nothing_to_compress',
      reason: 'all_in_tail',
      tailMessages: 8
    })

    for (let i = 15; i <= 18; i++) await turn(s, line(i))
    const second = await compress(s, '数据库迁移')
    expect(second).toMatchObject({
      status: 'compressed',
      compressedMessages: 4,
      focusTopic: '数据库迁移'
    })
    if (second.status !== 'compressed' || first.status !== 'compressed') return
    expect(second.summary).toMatchObject({ lastMessageSeq: 10, version: 2 })
    s.db.close()
  })

  it('an empty thread has nothing to compress; bad input is refused', async () => {
    const s = setup({ provider: false })
    expect(await compress(s)).toEqual({
      status: 'nothing_to_compress',
      reason: 'empty',
      tailMessages: 0
    })
    const tooLong = (await s.invoke({
      threadId: s.threadId,
      focusTopic: 'x'.repeat(501)
    })) as IpcResult<unknown>
    expect(tooLong).toMatchObject({ ok: false, error: { code: 'invalid_input' } })
    const unknown = (await s.invoke({
      threadId: '00000000-0000-4000-8000-000000000000'
    })) as IpcResult<unknown>
    expect(unknown.ok).toBe(false)
    expect(s.services.summaries.get(s.threadId)).toBeNull()
    s.db.close()
  })

  it("with the thread's model: one summary prompt with the previous summary, the focus and no secrets", async () => {
    const s = setup({ provider: true })
    server.route = () => ({ type: 'reply', chunks: ['ok'] })
    try {
      for (let i = 1; i <= 11; i++)
        await turn(s, i === 2 ? `${line(i)} my key is ${SECRET}` : line(i))
    } finally {
      server.route = null
    }
    s.services.summaries.update(s.threadId, 'Hand-written: the user is migrating a database.')
    const prompts: string[] = []
    server.route = (body) => {
      if (!isSummaryPrompt(body)) return { type: 'reply', chunks: ['ok'] }
      prompts.push(JSON.stringify(body))
      return { type: 'reply', chunks: ['## Goal\nMigrate the invoices table (model summary)'] }
    }
    let result: SummaryCompressResult
    try {
      result = await compress(s, 'database migration')
    } finally {
      server.route = null
    }
    expect(result).toMatchObject({ status: 'compressed', modelError: null })
    expect(prompts).toHaveLength(1)
    expect(prompts[0]).toContain('Hand-written: the user is migrating a database.')
    expect(prompts[0]).toContain('database migration')
    expect(prompts[0]).toContain('Message 1:')
    expect(prompts[0]).not.toContain(SECRET)
    expect(s.services.summaries.get(s.threadId)).toMatchObject({
      source: 'model',
      content: '## Goal\nMigrate the invoices table (model summary)'
    })
    s.db.close()
  })

  it('a model failure (even auth) falls back to the extractive summary and says why', async () => {
    const s = setup({ provider: true })
    server.route = () => ({ type: 'reply', chunks: ['ok'] })
    try {
      for (let i = 1; i <= 10; i++) await turn(s, line(i))
    } finally {
      server.route = null
    }
    server.route = (body) =>
      isSummaryPrompt(body) ? { type: 'error', status: 401, kind: 'auth' } : undefined
    let result: SummaryCompressResult
    try {
      result = await compress(s)
    } finally {
      server.route = null
    }
    expect(result.status).toBe('compressed')
    if (result.status !== 'compressed') return
    expect(result.summary.source).toBe('fallback')
    expect(result.modelError).toBeTruthy()
    s.db.close()
  })

  it('a user edit made while /compress runs wins; the compression reports it was superseded', async () => {
    const s = setup({ provider: true })
    server.route = () => ({ type: 'reply', chunks: ['ok'] })
    try {
      for (let i = 1; i <= 10; i++) await turn(s, line(i))
    } finally {
      server.route = null
    }
    server.route = (body) =>
      isSummaryPrompt(body)
        ? { type: 'reply', chunks: ['slow ', 'model ', 'summary'], chunkDelayMs: 400 }
        : undefined
    try {
      const requestsBefore = server.completions().length
      const running = compress(s)
      await pollUntil(() => server.completions().length > requestsBefore, {
        what: 'the summary request to reach the provider'
      })
      const edited = s.services.summaries.update(s.threadId, 'My own words.')
      expect(await running).toEqual({ status: 'superseded' })
      expect(s.services.summaries.get(s.threadId)).toEqual(edited)
    } finally {
      server.route = null
    }
    s.db.close()
  })
})

describe('a background summary that finishes after the user edit', () => {
  it('does not overwrite the edit; the next turn re-plans from the edited text', async () => {
    const s = setup({ provider: true, minTokens: 100, budget: 800 })
    const prompts: string[] = []
    let slow = true
    server.route = (body) => {
      if (!isSummaryPrompt(body)) return { type: 'reply', chunks: ['ok'] }
      prompts.push(JSON.stringify(body))
      return slow
        ? { type: 'reply', chunks: ['stale ', 'model ', 'summary'], chunkDelayMs: 400 }
        : { type: 'reply', chunks: ['## Goal\nfresh model summary'] }
    }
    try {
      // Turns until a background update is on its way (it streams slowly).
      for (let i = 1; i <= 30 && prompts.length === 0; i++) {
        await s.services.chat.send(s.threadId, `${line(i)} ${'padding words '.repeat(40)}`)
        await s.services.chat.settled(s.threadId)
      }
      expect(prompts).toHaveLength(1)
      const edited = s.services.summaries.update(s.threadId, 'User summary: migrating invoices.')
      await s.services.summaries.settled(s.threadId)

      expect(s.services.summaries.get(s.threadId)).toEqual(edited)
      expect(s.logged.some((l) => l.includes('dropped: the summary changed'))).toBe(true)
      expect(
        s.published.filter((e) => e.event === 'summary:changed').map((e) => e.payload)
      ).toEqual([edited])

      // The next update is planned from the user's text, iteratively.
      slow = false
      for (let i = 31; i <= 60 && prompts.length < 2; i++) {
        await turn(s, `${line(i)} ${'padding words '.repeat(40)}`)
      }
      expect(prompts).toHaveLength(2)
      expect(prompts[1]).toContain('User summary: migrating invoices.')
      expect(prompts[1]).not.toContain('stale model summary')
      const latest = s.services.summaries.get(s.threadId) as ThreadSummaryView
      expect(latest).toMatchObject({ source: 'model', version: edited.version + 1 })
      expect(latest.lastMessageSeq).toBeGreaterThanOrEqual(edited.lastMessageSeq)
    } finally {
      server.route = null
    }
    s.db.close()
  })
})

describe('a background summary still running when /compress starts', () => {
  it('is stopped and never overwrites the compression', async () => {
    const s = setup({ provider: true, minTokens: 100, budget: 800 })
    let summaryPrompts = 0
    server.route = (body) => {
      if (!isSummaryPrompt(body)) return { type: 'reply', chunks: ['ok'] }
      summaryPrompts += 1
      return summaryPrompts === 1
        ? { type: 'reply', chunks: ['stale ', 'background ', 'summary'], chunkDelayMs: 400 }
        : { type: 'reply', chunks: ['## Goal\ncompressed summary'] }
    }
    try {
      for (let i = 1; i <= 30 && summaryPrompts === 0; i++) {
        await s.services.chat.send(s.threadId, `${line(i)} ${'padding words '.repeat(40)}`)
        await s.services.chat.settled(s.threadId)
      }
      expect(summaryPrompts).toBe(1)
      const result = await compress(s)
      await s.services.summaries.settled(s.threadId)

      expect(result.status).toBe('compressed')
      if (result.status !== 'compressed') return
      expect(s.services.summaries.get(s.threadId)).toEqual(result.summary)
      expect(result.summary.content).toBe('## Goal\ncompressed summary')
      expect(s.logged.some((l) => l.includes('dropped: the summary changed'))).toBe(true)
    } finally {
      server.route = null
    }
    s.db.close()
  })
})

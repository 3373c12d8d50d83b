/**
 * Compression the user can check: versions with before/after and restore, exempt messages,
 * stale marking on edit and exclusion, the not-smaller rule and the stop after three failures.
 * Real services and SQLite, the scripted HTTP server as the thread's model.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ThreadSummaryView } from '@shared/domain'
import type { IpcResult } from '@shared/result'
import type {
  SummaryAutomationStatus,
  SummaryComparison,
  SummaryCompressResult
} from '@shared/summaryCompression'
import { createHandlers } from '../../src/main/ipc/handlers'
import { createRegistry } from '../../src/main/ipc/registry'
import { o200kCounter } from '../../src/main/context/tokens/tokenCounter'
import { MAX_CONSECUTIVE_FAILURES } from '../../src/main/services/summaries/summaryAutomation'
import { startScriptedProvider, type ScriptedProvider } from '../support/scriptedProvider'
import { servicesIn, type TestServices } from '../support/services'
import { useTempDir } from '../support/tempDir'

const tempDir = useTempDir()
let server: ScriptedProvider

beforeAll(async () => {
  server = await startScriptedProvider()
})
afterAll(() => server.close())

const LONG = (n: number) =>
  `Message ${n}: ${'we discussed the plan for the parser refactor in detail '.repeat(16)}`

type Setup = TestServices & {
  threadId: string
  invoke: <T>(channel: string, input: unknown) => Promise<T>
  prompts: string[]
}

function setup(options: { minTokens?: number; contextWindow?: number } = {}): Setup {
  const test = servicesIn(tempDir(), Date.now, undefined, {
    summaryMinTokens: options.minTokens ?? 100,
    streamTimeouts: { firstChunkMs: 5_000, idleMs: 5_000 }
  })
  const thread = test.services.threads.create()
  test.services.contextConfig.update('global', { totalBudget: 800 })
  const provider = test.services.providers.create({
    kind: 'openai-compatible',
    name: 'Scripted',
    baseUrl: server.v1,
    models: [
      { id: 'scripted-model', contextWindow: options.contextWindow ?? 32_000, maxOutput: 2_000 }
    ]
  })
  test.services.threads.setModel(thread.id, { providerId: provider.id, modelId: 'scripted-model' })
  const registry = createRegistry(createHandlers(test.services), () => {})
  const prompts: string[] = []
  return {
    ...test,
    threadId: thread.id,
    prompts,
    invoke: async <T>(channel: string, input: unknown) => {
      const result = (await registry.invoke(channel, input)) as IpcResult<T>
      if (!result.ok) throw new Error(result.error.message)
      return result.data
    }
  }
}

/** Chat replies say "ok"; summary prompts get `summary(n)` and are recorded. */
function answerSummaries(
  s: Setup,
  summary: (n: number) => ReturnType<NonNullable<ScriptedProvider['route']>>
) {
  server.route = (body) => {
    const messages = (body as { messages?: { content: unknown }[] }).messages ?? []
    if (messages.length !== 1) return { type: 'reply', chunks: ['ok'] }
    s.prompts.push(JSON.stringify(body))
    return summary(s.prompts.length)
  }
}

async function turn(s: Setup, content: string): Promise<void> {
  await s.services.chat.send(s.threadId, content)
  await s.services.chat.settled(s.threadId)
  await s.services.summaries.settled(s.threadId)
}

const short = (n: number) => ({
  type: 'reply' as const,
  chunks: [`## Goal\nParser refactor (v${n})`]
})

describe('summaries the user can check', () => {
  it('keeps an exempt message out of the summarizer, and marks the summary stale on edit and exclude', async () => {
    const s = setup()
    answerSummaries(s, short)
    try {
      await turn(s, `${LONG(1)} SECRET-PLAN-ALPHA`)
      const first = s.services.messages.list(s.threadId)[0]!
      s.services.messages.setFlags(first.id, { summaryExempt: true })
      // Until the summary covers #5: the checks below exclude #3 and edit #5 (how far the
      // first summary reaches depends on how much history the window keeps at 800 tokens).
      const coveredThrough = () => s.services.summaries.get(s.threadId)?.lastMessageSeq ?? 0
      for (let i = 2; i <= 20 && coveredThrough() < 5; i++) await turn(s, LONG(i))
      const summary = s.services.summaries.get(s.threadId)!
      expect(summary.lastMessageSeq).toBeGreaterThanOrEqual(first.seq)
      expect(s.prompts.length).toBeGreaterThan(0)
      for (const prompt of s.prompts) expect(prompt).not.toContain('SECRET-PLAN-ALPHA')
      expect(s.prompts[0]).toContain('Message 2:')
      expect(s.services.messages.list(s.threadId)[0]?.summaryExempt).toBe(true)

      // Excluding a covered message: stale, published, an update scheduled and visible.
      const covered = s.services.messages.list(s.threadId).find((m) => m.seq === 3)!
      expect(covered.content).toContain('Message 2:')
      s.services.messages.setFlags(covered.id, { excluded: true })
      const stale = s.services.summaries.get(s.threadId)!
      expect(stale.staleSinceSeq).toBe(3)
      expect(s.published.filter((e) => e.event === 'summary:changed').at(-1)?.payload).toEqual(
        stale
      )
      expect(
        await s.invoke<SummaryAutomationStatus>('summary:status', { threadId: s.threadId })
      ).toMatchObject({ stale: true, scheduled: true, paused: false })

      // The next turn rewrites it from the messages as they are now (without #3 or the exempt #1).
      const prompts = s.prompts.length
      await turn(s, LONG(30))
      const rewritten = s.services.summaries.get(s.threadId)!
      expect(rewritten.staleSinceSeq).toBeUndefined()
      expect(rewritten.version).toBe(summary.version + 1)
      expect(s.prompts.length).toBe(prompts + 1)
      const prompt = s.prompts.at(-1)!
      expect(prompt).not.toContain('Message 2:')
      expect(prompt).not.toContain('SECRET-PLAN-ALPHA')
      expect(prompt).toContain('Message 3:')

      // Editing and resending a covered message marks it stale too (the edit is a new turn).
      const edited = s.services.messages.list(s.threadId).find((m) => m.seq === 5)!
      await s.services.chat.editResend(edited.id, 'Message 3, corrected: the other parser')
      await s.services.chat.settled(s.threadId)
      await s.services.summaries.settled(s.threadId)
      const marks = s.published
        .filter((e) => e.event === 'summary:changed')
        .map((e) => e.payload as ThreadSummaryView)
      expect(marks.some((m) => m.staleSinceSeq === 5)).toBe(true)
    } finally {
      server.route = null
    }
    s.db.close()
  })

  it('rejects a summary that is not smaller than what it replaces', async () => {
    const s = setup({ minTokens: 1_000_000_000 })
    for (let i = 1; i <= 14; i++) await turn(s, LONG(i))
    answerSummaries(s, () => ({
      type: 'reply',
      chunks: ['A summary far longer than the messages it replaces. '.repeat(1_000)]
    }))
    try {
      const result = await s.invoke<SummaryCompressResult>('summary:compress', {
        threadId: s.threadId
      })
      expect(result.status).toBe('not_smaller')
      if (result.status !== 'not_smaller') return
      expect(result.summaryTokens).toBeGreaterThanOrEqual(result.replacedTokens)
      expect(s.services.summaries.get(s.threadId)).toBeNull()
      expect(await s.invoke('summary:versions', { threadId: s.threadId })).toEqual([])
    } finally {
      server.route = null
    }
    s.db.close()
  })

  it(`stops automatic summaries after ${MAX_CONSECUTIVE_FAILURES} failures; Retry resumes them`, async () => {
    const s = setup()
    // An auth error: background updates never paper over it with the extractive summary.
    answerSummaries(s, () => ({ type: 'error', status: 401, kind: 'auth' }))
    try {
      for (let i = 1; i <= 20; i++) await turn(s, LONG(i))
      expect(s.prompts).toHaveLength(MAX_CONSECUTIVE_FAILURES)
      const status = await s.invoke<SummaryAutomationStatus>('summary:status', {
        threadId: s.threadId
      })
      expect(status).toMatchObject({ paused: true, failures: MAX_CONSECUTIVE_FAILURES })
      expect(status.lastError).toBeTruthy()
      const published = s.published
        .filter((e) => e.event === 'summary:status')
        .map((e) => e.payload as SummaryAutomationStatus)
      expect(published.at(-1)).toMatchObject({ paused: true })
      expect(s.services.summaries.get(s.threadId)).toBeNull()

      // Retry: the model works again; an update runs now and automation continues.
      answerSummaries(s, short)
      const resumed = await s.invoke<SummaryAutomationStatus>('summary:retry', {
        threadId: s.threadId
      })
      expect(resumed).toMatchObject({ paused: false, failures: 0 })
      await s.services.summaries.settled(s.threadId)
      expect(s.services.summaries.get(s.threadId)).toMatchObject({ source: 'model', version: 1 })
    } finally {
      server.route = null
    }
    s.db.close()
  })

  it('/compress always fits: what it folds goes to the model in batches within its window', async () => {
    const contextWindow = 5_000
    const s = setup({ minTokens: 1_000_000_000, contextWindow })
    answerSummaries(s, short)
    try {
      for (let i = 1; i <= 40; i++) await turn(s, LONG(i))
      s.prompts.length = 0
      const result = await s.invoke<SummaryCompressResult>('summary:compress', {
        threadId: s.threadId
      })
      expect(result.status).toBe('compressed')
      if (result.status !== 'compressed') return
      expect(result.compressedTokens).toBeGreaterThan(contextWindow)
      expect(s.prompts.length).toBeGreaterThan(1)
      for (const prompt of s.prompts) {
        const body = JSON.parse(prompt) as {
          messages: { content: string }[]
          max_tokens?: number
          max_completion_tokens?: number
        }
        const sent = o200kCounter.count(body.messages[0]!.content)
        const reply = body.max_tokens ?? body.max_completion_tokens ?? 0
        expect(sent + reply).toBeLessThanOrEqual(contextWindow)
      }
      // Every folded message reached the model once, in order.
      const folded = s.prompts.join('\n')
      for (let i = 1; i <= 5; i++) expect(folded).toContain(`Message ${i}:`)
      // Each batch after the first carries the summary so far (iterative).
      expect(s.prompts[1]).toContain('Parser refactor (v1)')
    } finally {
      server.route = null
    }
    s.db.close()
  })

  it('keeps every version: before/after of a /compress, and restoring an older one', async () => {
    const s = setup({ minTokens: 1_000_000_000 })
    answerSummaries(s, short)
    try {
      for (let i = 1; i <= 14; i++) await turn(s, LONG(i))
      const first = await s.invoke<SummaryCompressResult>('summary:compress', {
        threadId: s.threadId
      })
      expect(first.status).toBe('compressed')
      for (let i = 15; i <= 22; i++) await turn(s, LONG(i))
      const second = await s.invoke<SummaryCompressResult>('summary:compress', {
        threadId: s.threadId
      })
      if (first.status !== 'compressed' || second.status !== 'compressed') {
        throw new Error('both compressions should fold messages')
      }
      const comparison = await s.invoke<SummaryComparison>('summary:compare', {
        threadId: s.threadId,
        version: 2
      })
      expect(comparison.version).toMatchObject({ version: 2, kind: 'compress' })
      expect(comparison.previous?.content).toBe(first.summary.content)
      // The messages it replaced: exactly those after v1's boundary up to v2's.
      expect(comparison.replaced.map((m) => m.seq)).toEqual(
        Array.from(
          { length: second.summary.lastMessageSeq - first.summary.lastMessageSeq },
          (_, i) => first.summary.lastMessageSeq + 1 + i
        )
      )
      expect(comparison.replaced).toEqual(
        s.services.messages
          .list(s.threadId)
          .filter(
            (m) => m.seq > first.summary.lastMessageSeq && m.seq <= second.summary.lastMessageSeq
          )
      )
      expect(comparison.version.summaryTokens).toBeLessThan(comparison.version.replacedTokens)

      const restored = await s.invoke<ThreadSummaryView>('summary:restore', {
        threadId: s.threadId,
        version: 1
      })
      expect(restored).toMatchObject({
        version: 3,
        content: first.summary.content,
        lastMessageSeq: first.summary.lastMessageSeq
      })
      const versions = await s.invoke<{ version: number; kind: string }[]>('summary:versions', {
        threadId: s.threadId
      })
      expect(versions.map((v) => [v.version, v.kind])).toEqual([
        [3, 'restore'],
        [2, 'compress'],
        [1, 'compress']
      ])
      const preview = await s.services.context.preview(s.threadId, 'next')
      expect(preview.messages.some((m) => m.content.includes(first.summary.content))).toBe(true)
      await expect(
        s.invoke('summary:restore', { threadId: s.threadId, version: 99 })
      ).rejects.toThrow(/no longer exists/)
    } finally {
      server.route = null
    }
    s.db.close()
  })
})

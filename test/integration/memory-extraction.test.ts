/**
 * Automatic memory extraction after a turn: real services over a real SQLite file, the real AI
 * SDK client, and the scripted server playing the thread's model (its `extraction` answer).
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { MemoryExtracted } from '@shared/domain'
import { EXTRACTION_PROMPT_HEAD } from '../../src/main/context/recall/memoryExtractionPrompt'
import {
  startScriptedProvider,
  type Script,
  type ScriptedProvider
} from '../support/scriptedProvider'
import { servicesIn, type TestServices } from '../support/services'
import { useTempDir } from '../support/tempDir'

const KEY = 'sk-test-Extraction-Key-0a1b2c3d4e5f'
const tempDir = useTempDir()
let server: ScriptedProvider

beforeAll(async () => {
  server = await startScriptedProvider({ requiredKey: KEY, models: ['scripted-model'] })
})
afterAll(() => server.close())
afterEach(() => {
  server.extraction = { type: 'reply', chunks: ['{"memories":[]}'] }
})

const answer = (memories: { content: string; category: string }[]): Script => ({
  type: 'reply',
  // Split mid-JSON, as a real stream is.
  chunks: ['Here you go:\n```json\n{"memories":', JSON.stringify(memories), '}\n```']
})

interface Setup extends TestServices {
  threadId: string
  providerId: string
}

function setup(withProvider = true): Setup {
  const test = servicesIn(tempDir(), Date.now, undefined, {
    streamTimeouts: { firstChunkMs: 5_000, idleMs: 5_000 }
  })
  const thread = test.services.threads.create()
  let providerId = ''
  if (withProvider) {
    providerId = test.services.providers.create({
      kind: 'openai-compatible',
      name: 'Scripted',
      baseUrl: server.v1,
      apiKey: KEY,
      models: [{ id: 'scripted-model', contextWindow: 32_000, maxOutput: 2_000 }]
    }).id
    test.services.threads.setModel(thread.id, { providerId, modelId: 'scripted-model' })
  }
  return { ...test, threadId: thread.id, providerId }
}

async function turn(s: Setup, content: string, threadId = s.threadId): Promise<void> {
  await s.services.chat.send(threadId, content)
  await s.services.chat.settled(threadId)
  await s.services.memoryExtraction.settled(threadId)
}

const bodyText = (body: unknown): string => JSON.stringify(body)

describe('automatic memory extraction', () => {
  it('saves a preference from the user message, linked to it, and says so', async () => {
    const s = setup()
    const chatsBefore = server.completions().length
    const extractionsBefore = server.extractions().length
    server.extraction = answer([
      { content: 'The user takes oat milk in their coffee.', category: 'user_preference' },
      { content: 'Summarise this conversation', category: 'task' }
    ])
    await turn(s, 'By the way, I only ever take oat milk in my coffee. What is a flat white?')

    // One chat request and one extraction request, which carried the user's words.
    expect(server.completions().length - chatsBefore).toBe(1)
    const requests = server.extractions().slice(extractionsBefore)
    expect(requests).toHaveLength(1)
    expect(bodyText(requests[0]?.body)).toContain(EXTRACTION_PROMPT_HEAD)
    expect(bodyText(requests[0]?.body)).toContain('oat milk in my coffee')

    // Only the preference was kept: a task is not a long-term memory.
    const page = s.services.memory.list({})
    expect(page.items.map((m) => [m.content, m.category])).toEqual([
      ['The user takes oat milk in their coffee.', 'user_preference']
    ])
    const user = s.services.messages.list(s.threadId).find((m) => m.role === 'user')
    const origin = s.services.memory.origin(page.items[0]?.id ?? 0)
    expect(origin.source?.messageId).toBe(user?.id)
    expect(origin.history.map((h) => h.reason)).toEqual(['extraction'])

    const extracted = s.published
      .filter((e) => e.event === 'memory:extracted')
      .map((e) => e.payload as MemoryExtracted)
    expect(extracted).toHaveLength(1)
    expect(extracted[0]?.messageId).toBe(user?.id)
    expect(extracted[0]?.changes[0]?.action).toBe('created')
    s.db.close()
  })

  it('updates instead of duplicating when the same preference is stated again', async () => {
    const s = setup()
    server.extraction = answer([{ content: '用户喝咖啡只加燕麦奶。', category: 'user_preference' }])
    await turn(s, '我喝咖啡只加燕麦奶。')
    await turn(s, '再说一次：咖啡里只加燕麦奶，谢谢。')
    const page = s.services.memory.list({})
    expect(page.total).toBe(1)
    expect(page.items[0]?.content).toBe('用户喝咖啡只加燕麦奶。')
    const changes = s.published
      .filter((e) => e.event === 'memory:extracted')
      .map((e) => (e.payload as MemoryExtracted).changes[0]?.action)
    expect(changes).toEqual(['created', 'unchanged'])
    s.db.close()
  })

  it('brings an extracted preference back in another thread', async () => {
    const s = setup()
    server.extraction = answer([{ content: 'The user is allergic to peanuts.', category: 'fact' }])
    await turn(s, 'Note that I am allergic to peanuts, so keep that in mind for recipes.')
    const other = s.services.threads.create()
    s.services.threads.setModel(other.id, { providerId: s.providerId, modelId: 'scripted-model' })
    const preview = await s.services.context.preview(other.id, 'Any ideas for a peanut sauce?')
    const retrieved = preview.trace.filter(
      (t) => t.section === 'retrieved' && t.decision === 'included'
    )
    expect(retrieved.some((t) => t.kind === 'memory' && t.preview?.includes('peanuts'))).toBe(true)
    expect(preview.messages.some((m) => m.content.includes('allergic to peanuts'))).toBe(true)
    s.db.close()
  })

  it('never sends a secret the user pasted to the extractor', async () => {
    const s = setup()
    const before = server.extractions().length
    await turn(s, 'My key is sk-proj-AbCdEfGhIjKlMnOpQrStUv123456, I prefer short answers.')
    const body = bodyText(server.extractions().slice(before)[0]?.body)
    expect(body).toContain('I prefer short answers')
    expect(body).not.toContain('AbCdEfGhIjKlMnOpQrStUv123456')
    s.db.close()
  })

  it('saves nothing and keeps the reply when the model answers badly or fails', async () => {
    const s = setup()
    server.extraction = { type: 'reply', chunks: ['Sure! The user likes tea.'] }
    await turn(s, 'I like tea in the afternoon.')
    server.extraction = { type: 'error', status: 500, kind: 'server' }
    await turn(s, 'And green tea in the morning.')
    expect(s.services.memory.list({}).total).toBe(0)
    const replies = s.services.messages.list(s.threadId).filter((m) => m.role === 'assistant')
    expect(replies.map((m) => m.reply?.status)).toEqual(['complete', 'complete'])
    expect(s.logged.filter((l) => l.startsWith('memory extraction'))).toHaveLength(2)
    s.db.close()
  })

  it('reads a regenerated turn once, and nothing when switched off', async () => {
    const s = setup()
    const before = server.extractions().length
    await turn(s, 'I work as a nurse on night shifts.')
    await s.services.chat.regenerate(s.threadId)
    await s.services.chat.settled(s.threadId)
    await s.services.memoryExtraction.settled(s.threadId)
    expect(server.extractions().length - before).toBe(1)

    await s.services.memoryModel.updateSettings({ autoExtract: false })
    await turn(s, 'I also live in Lyon.')
    expect(server.extractions().length - before).toBe(1)
    s.db.close()
  })

  it('without a provider: nothing is extracted and nothing fails', async () => {
    const s = setup(false)
    const before = server.requests.length
    await turn(s, 'I prefer metric units.')
    expect(server.requests.length).toBe(before)
    expect(s.services.memory.list({}).total).toBe(0)
    expect(s.logged).toEqual([])
    s.db.close()
  })
})

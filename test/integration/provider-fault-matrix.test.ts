/**
 * The provider fault matrix: every kind of provider (OpenAI, OpenAI-compatible, Anthropic,
 * Ollama) against the scripted HTTP server on 127.0.0.1, through the real chat path (real
 * services, a real SQLite file, the real SDK clients). For each fault it checks what the user
 * would notice: what is stored and with which status, that the error keeps the provider's own
 * words, that the user's message is stored intact, that the thread still works afterwards, and
 * that nothing empty is ever sent back to the model.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ChatDone, ChatErrorEvent, Message } from '@shared/domain'
import type { ProviderErrorKind, ProviderKind } from '@shared/providers'
import type { StreamTimeouts } from '../../src/main/services/providers/modelClient'
import {
  startScriptedProvider,
  type Script,
  type ScriptedProvider
} from '../support/scriptedProvider'
import { servicesIn, type TestServices } from '../support/services'
import { useTempDir } from '../support/tempDir'

const KEY = 'sk-fault-matrix-0123456789abcdef'
const MODEL = 'scripted-model'
/** Chinese, an emoji and markup: the user's words must come back exactly as typed. */
const QUESTION = '为什么天空是蓝色的？ 🌈 <b>and</b> `why`'
const tempDir = useTempDir()
let server: ScriptedProvider

beforeAll(async () => {
  server = await startScriptedProvider({ requiredKey: KEY, models: [MODEL] })
})
afterAll(() => server.close())

interface Chat extends TestServices {
  threadId: string
  events<T>(name: string): T[]
}

function chatWith(kind: ProviderKind, timeouts: Partial<StreamTimeouts>): Chat {
  const test = servicesIn(tempDir(), Date.now, undefined, { streamTimeouts: timeouts })
  // Ollama takes no key; the others must send the right one.
  server.requiredKey = kind === 'ollama' ? null : KEY
  const provider = test.services.providers.create({
    kind,
    name: `Scripted ${kind}`,
    baseUrl: kind === 'ollama' ? server.url : server.v1,
    ...(kind !== 'ollama' && { apiKey: KEY }),
    models: [{ id: MODEL, contextWindow: 16_000, maxOutput: 1_000 }]
  })
  const thread = test.services.threads.create()
  test.services.threads.setModel(thread.id, { providerId: provider.id, modelId: MODEL })
  return {
    ...test,
    threadId: thread.id,
    events: <T>(name: string) =>
      test.published.filter((e) => e.event === name).map((e) => e.payload as T)
  }
}

async function send(chat: Chat, content: string): Promise<void> {
  const outcome = await chat.services.chat.send(chat.threadId, content)
  expect(outcome.status).toBe('streaming')
  await chat.services.chat.settled(chat.threadId)
}

type Expected =
  | {
      /** No reply stored; `chat:error` with this kind and the provider's words. */
      error: ProviderErrorKind
      words: RegExp
      status?: number
      retryAfterMs?: number
      /** Text that arrived before the failure: stored as a `failed` reply. */
      partial?: string
    }
  | { empty: true }

interface Fault {
  name: string
  scripts: Script[]
  expected: Expected
  /** The hang needs a short first-token timeout; everything else gets a generous one. */
  timeouts?: Partial<StreamTimeouts>
}

const PROVIDER_WORDS = 'Overloaded: the model is busy, please try again shortly.'

function faultsFor(kind: ProviderKind): Fault[] {
  const contextWords =
    kind === 'anthropic' ? /prompt is too long: 208310 tokens/ : /maximum context length is 128000/
  return [
    {
      name: '401 unauthorized',
      scripts: [{ type: 'error', status: 401, kind: 'auth' }],
      expected: { error: 'auth', status: 401, words: /Incorrect API key provided/ }
    },
    {
      name: '403 forbidden',
      scripts: [{ type: 'error', status: 403, kind: 'forbidden' }],
      expected: { error: 'auth', status: 403, words: /does not have permission/ }
    },
    {
      name: '429 with Retry-After',
      scripts: [{ type: 'error', status: 429, kind: 'rate_limit', retryAfter: '7' }],
      expected: {
        error: 'rate_limit',
        status: 429,
        retryAfterMs: 7_000,
        words: /Rate limit reached/
      }
    },
    {
      name: '503 server error',
      scripts: [{ type: 'error', status: 503, kind: 'server' }],
      expected: { error: 'server', status: 503, words: /server had an error/ }
    },
    {
      name: 'a hang (no bytes at all)',
      scripts: [{ type: 'hang' }],
      timeouts: { firstChunkMs: 1_000, idleMs: 1_000 },
      expected: { error: 'timeout', words: /No reply from scripted-model within 1 s/ }
    },
    {
      name: 'a hang after the response headers',
      scripts: [{ type: 'hang', headers: true }],
      timeouts: { firstChunkMs: 1_000, idleMs: 1_000 },
      expected: { error: 'timeout', words: /No reply from scripted-model within 1 s/ }
    },
    {
      name: 'a stream cut mid-way',
      scripts: [{ type: 'cut', chunks: ['Partial ', 'answer'] }],
      expected: { error: 'network', words: /closed the connection/, partial: 'Partial answer' }
    },
    {
      name: 'a malformed line',
      scripts: [{ type: 'malformed', chunks: ['Half ', 'said'] }],
      expected: { error: 'bad_response', words: /./, partial: 'Half said' }
    },
    {
      name: 'an error event inside the stream',
      scripts: [{ type: 'stream_error', chunks: ['Starting '], message: PROVIDER_WORDS }],
      expected: {
        error: 'server',
        words: /Overloaded: the model is busy/,
        partial: 'Starting '
      }
    },
    {
      name: 'context exceeded (after the one smaller retry)',
      scripts: [
        { type: 'error', status: 400, kind: 'context_length' },
        { type: 'error', status: 400, kind: 'context_length' }
      ],
      expected: { error: 'context_length', status: 400, words: contextWords }
    },
    {
      name: 'an empty reply',
      scripts: [{ type: 'reply', chunks: [] }],
      expected: { empty: true }
    }
  ]
}

const KINDS: ProviderKind[] = ['openai', 'openai-compatible', 'anthropic', 'ollama']

describe.each(KINDS)('provider fault matrix: %s', (kind) => {
  it.each(faultsFor(kind).map((fault) => [fault.name, fault] as const))(
    '%s',
    async (_name, fault) => {
      const chat = chatWith(kind, fault.timeouts ?? { firstChunkMs: 10_000, idleMs: 10_000 })
      server.enqueue(...fault.scripts)
      await send(chat, QUESTION)

      const stored = chat.services.messages.list(chat.threadId)
      // The user's message is stored first, exactly as typed, whatever the provider did.
      expect(stored[0]).toMatchObject({ role: 'user', content: QUESTION })
      const expected = fault.expected
      if ('empty' in expected) {
        // An empty reply is stored as such, never as a complete (blank) answer.
        expect(stored).toHaveLength(2)
        expect(stored[1]).toMatchObject({ role: 'assistant', content: '' })
        expect(stored[1]?.reply?.status).toBe('empty')
        const [done] = chat.events<ChatDone>('chat:done')
        expect(done?.message.reply?.status).toBe('empty')
        expect(chat.events('chat:error')).toEqual([])
      } else {
        const [event] = chat.events<ChatErrorEvent>('chat:error')
        expect(event?.error.kind).toBe(expected.error)
        expect(event?.error.message).toMatch(expected.words)
        if (expected.status !== undefined) expect(event?.error.status).toBe(expected.status)
        if (expected.retryAfterMs !== undefined) {
          expect(event?.error.retryAfterMs).toBe(expected.retryAfterMs)
        }
        expect(JSON.stringify(event)).not.toContain(KEY)
        if (expected.partial !== undefined) {
          expect(stored.map((m) => m.content)).toEqual([QUESTION, expected.partial])
          expect(stored[1]?.reply?.status).toBe('failed')
          expect(event?.message?.id).toBe(stored[1]?.id)
        } else {
          expect(stored.map((m) => m.content)).toEqual([QUESTION])
          expect(event?.message).toBeNull()
        }
      }

      // The thread stays usable: the next message gets a complete reply.
      server.enqueue({ type: 'reply', chunks: ['Back ', 'again.'] })
      await send(chat, 'Try once more')
      const after = chat.services.messages.list(chat.threadId)
      const last = after.at(-1) as Message
      expect(last).toMatchObject({ role: 'assistant', content: 'Back again.' })
      expect(last.reply?.status).toBe('complete')
      expect(after.filter((m) => m.role === 'user').map((m) => m.content)).toEqual([
        QUESTION,
        'Try once more'
      ])

      // What the model received next: the user's words intact, and no empty assistant turn.
      const body = JSON.stringify(server.completions().at(-1)?.body)
      expect(body).toContain(JSON.stringify(QUESTION).slice(1, -1))
      expect(emptyAssistantTurns(kind, server.completions().at(-1)?.body)).toBe(0)
      chat.db.close()
    }
  )
})

/** Assistant turns with no text and no tool calls, in each dialect's request shape. */
function emptyAssistantTurns(kind: ProviderKind, body: unknown): number {
  const messages = (body as { messages?: { role: string; content: unknown }[] }).messages ?? []
  return messages.filter((m) => {
    if (m.role !== 'assistant') return false
    if (typeof m.content === 'string') return m.content.trim() === ''
    if (Array.isArray(m.content)) return m.content.length === 0
    return kind !== 'anthropic' && m.content == null
  }).length
}

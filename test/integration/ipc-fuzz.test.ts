import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { z } from 'zod'
import { contract, endpoints, MAX_MESSAGE_CHARS } from '@shared/contract'
import type { IpcResult } from '@shared/result'
import { createHandlers } from '../../src/main/ipc/handlers'
import { createRegistry, type HandlerRegistry } from '../../src/main/ipc/registry'
import { closedPort } from '../support/closedPort'
import { servicesIn, type TestServices } from '../support/services'
import { arbitraryFor, HOSTILE_STRINGS, type Anchors } from '../support/zodArbitrary'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/**
 * Every channel of the contract (read from it, so a new channel is fuzzed without a change
 * here) through the real handler registry over a real SQLite file. An answer must be a typed
 * result: `ok`, `invalid_input`, or another specific code; never `internal`, never a database
 * error leaking out of bad input, never a thrown exception. Afterwards the store still works.
 */

// Channels whose valid payloads reach a network: a plausible payload could name a provider's
// real default host. Their hostile whole payloads are still fuzzed here; the provider fault
// tests cover their network failures.
const NETWORK = new Set([
  'providers:test',
  'providers:listRemoteModels',
  // A valid, enabled MCP server is started: a process spawned or a URL connected to.
  // test/integration/tools-mcp.test.ts runs a real one.
  'tools:addServer',
  'tools:updateServer',
  'tools:restartServer'
])

const schemaOf = (domain: string, method: string): z.ZodType =>
  (contract as unknown as Record<string, Record<string, { input: z.ZodType }>>)[domain]![method]!
    .input

function deep(levels: number, leaf: unknown): unknown {
  let value = leaf
  for (let i = 0; i < levels; i++) value = { a: value }
  return value
}

function deepArray(levels: number): unknown {
  let value: unknown = []
  for (let i = 0; i < levels; i++) value = [value]
  return value
}

/** Payloads no channel should choke on, whatever its schema. */
const HOSTILE_PAYLOADS: [string, () => unknown][] = [
  ['undefined', () => undefined],
  ['null', () => null],
  ['zero', () => 0],
  ['NaN', () => NaN],
  ['a string', () => 'hello'],
  ['a NUL string', () => '\0'],
  ['true', () => true],
  ['an empty array', () => []],
  ['an empty object', () => ({})],
  ['a null-prototype object', () => Object.create(null)],
  ['a __proto__ key', () => JSON.parse('{"__proto__": {"polluted": 1}}')],
  ['a constructor.prototype key', () => ({ constructor: { prototype: { polluted: 1 } } })],
  ['10,000 levels of objects', () => deep(10_000, 'x')],
  ['10,000 levels of arrays', () => deepArray(10_000)],
  ['an array of a million numbers', () => new Array(1_000_000).fill(1)],
  ['a string over the message limit', () => 'x'.repeat(MAX_MESSAGE_CHARS + 1)],
  ['a Date', () => new Date(0)],
  ['a Map', () => new Map([['id', 1]])],
  ['a BigInt', () => 1n],
  ['bytes', () => new Uint8Array(16)]
]

/** Values to put in one field of an otherwise plausible payload. */
const HOSTILE_FIELDS: [string, () => unknown][] = [
  ...HOSTILE_STRINGS.map((text): [string, () => unknown] => [JSON.stringify(text), () => text]),
  ['a string over the message limit', () => 'x'.repeat(MAX_MESSAGE_CHARS + 1)],
  ['100,000 characters of one letter', () => 'a'.repeat(100_000)],
  ['a number', () => 7],
  ['NaN', () => NaN],
  ['-Infinity', () => -Infinity],
  ['a huge integer', () => 2 ** 63],
  ['a negative id', () => -1],
  ['a float id', () => 1.5],
  ['null', () => null],
  ['an array', () => ['a', 'b']],
  ['an object', () => ({ nested: true })],
  ['1,000 levels of objects', () => deep(1_000, 'x')],
  ['a __proto__ object', () => JSON.parse('{"__proto__": {"polluted": 1}}')]
]

let registry: HandlerRegistry
let store: TestServices
let url: string
let dir: string
const unexpected: string[] = []
/** Channels where some payload got past validation, so the fuzz exercised the handler too. */
const reached = new Set<string>()

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'context-lens-fuzz-'))
  store = servicesIn(dir, Date.now, undefined, {
    detectOllama: async () => ({ found: false, baseUrl: url, reason: 'not_running' })
  })
  registry = createRegistry(createHandlers(store.services), (channel, error) =>
    unexpected.push(`${channel}: ${error instanceof Error ? error.stack : String(error)}`)
  )
  url = `http://127.0.0.1:${await closedPort()}`
})

afterAll(() => {
  store.db.close()
  rmSync(dir, { recursive: true, force: true })
})

/**
 * A thread with a message, a memory and a provider that exist right now (an earlier payload
 * may have deleted the last ones), so generated ids reach past the handlers' lookups.
 */
async function freshAnchors(): Promise<Anchors> {
  const data = <T>(result: IpcResult<unknown>) => (result as { ok: true; data: T }).data
  const thread = data<{ id: string }>(await call('threads:create', { title: 'fuzz' }))
  const sent = data<{ message: { id: number } }>(
    await call('messages:send', { threadId: thread.id, content: 'a first message' })
  )
  const memory = data<{ memory: { id: number } }>(
    await call('memory:create', { content: `I prefer tea ${thread.id}` })
  )
  const provider = data<{ id: string }>(
    await call('providers:create', {
      kind: 'openai-compatible',
      name: 'Closed port',
      baseUrl: url,
      models: [{ id: 'model' }]
    })
  )
  return {
    uuids: [thread.id],
    ids: [sent.message.id, memory.memory.id],
    strings: [provider.id, 'model'],
    url
  }
}

async function call(channel: string, payload: unknown): Promise<IpcResult<unknown>> {
  return registry.invoke(channel, payload)
}

/** What is wrong with one answer, or null when it is a typed result. */
async function problemWith(channel: string, payload: () => unknown): Promise<string | null> {
  let result: IpcResult<unknown>
  try {
    result = await call(channel, payload())
  } catch (error) {
    return `threw ${error instanceof Error ? error.message : String(error)}`
  }
  if (typeof result !== 'object' || result === null || typeof result.ok !== 'boolean') {
    return `not a result: ${String(result)}`
  }
  if (result.ok || result.error.code !== 'invalid_input') reached.add(channel)
  if (result.ok) return null
  const { code, message } = result.error
  if (code === 'internal' || code === 'storage_error') return `${code}: ${message}`
  if (typeof message !== 'string' || message.length === 0) return `${code} without a message`
  return null
}

function describeValue(value: unknown): string {
  try {
    const text = JSON.stringify(value) ?? String(value)
    return text.length > 120 ? `${text.slice(0, 120)}… (${text.length} chars)` : text
  } catch {
    return String(value)
  }
}

const channels = endpoints()

describe('IPC fuzz over every contract channel', () => {
  it('covers every channel of the contract', () => {
    expect(channels.length).toBe(registry.channels.length)
    expect(channels.length).toBeGreaterThan(40)
  })

  it('answers hostile payloads with typed results', async () => {
    const problems: string[] = []
    for (const { channel } of channels) {
      for (const [name, payload] of HOSTILE_PAYLOADS) {
        const problem = await problemWith(channel, payload)
        if (problem) problems.push(`${channel} with ${name}: ${problem}`)
      }
    }
    expect(problems).toEqual([])
  })

  it('answers a hostile value in any one field of a plausible payload with a typed result', async () => {
    const problems: string[] = []
    for (const { domain, method, channel } of channels) {
      if (NETWORK.has(channel)) continue
      const schema = schemaOf(domain, method)
      const anchors = await freshAnchors()
      const [base] = fc.sample(arbitraryFor(schema, anchors), { numRuns: 1, seed: 7 })
      const keys = Object.keys(shapeOf(schema))
      for (const key of keys) {
        for (const [name, value] of HOSTILE_FIELDS) {
          const payload = () => ({ ...(base as object), [key]: value() })
          const problem = await problemWith(channel, payload)
          if (problem) problems.push(`${channel} with ${key} = ${name}: ${problem}`)
        }
      }
    }
    expect(problems).toEqual([])
  })

  it('refuses a key the contract does not know on every channel, before any handler runs', async () => {
    const accepted: string[] = []
    for (const { domain, method, channel } of channels) {
      const [base] = fc.sample(arbitraryFor(schemaOf(domain, method), await freshAnchors()), {
        numRuns: 1,
        seed: 7
      })
      const result = await call(channel, { ...(base as object), isAdmin: true })
      if (result.ok || result.error.code !== 'invalid_input') accepted.push(channel)
    }
    expect(accepted).toEqual([])
  })

  it('answers random payloads shaped like the contract with typed results', async () => {
    for (const { domain, method, channel } of channels) {
      if (NETWORK.has(channel)) continue
      const anchors = await freshAnchors()
      const payloads = fc.oneof(
        { weight: 4, arbitrary: arbitraryFor(schemaOf(domain, method), anchors) },
        { weight: 1, arbitrary: fc.anything() }
      )
      await fc.assert(
        fc.asyncProperty(payloads, async (payload) => {
          const problem = await problemWith(channel, () => payload)
          if (problem) throw new Error(`${channel} with ${describeValue(payload)}: ${problem}`)
        }),
        { numRuns: 25, seed: 42, endOnFailure: true }
      )
    }
  })

  it('leaves the process and the database usable', async () => {
    expect(unexpected).toEqual([])
    expect(
      channels.map((e) => e.channel).filter((c) => !reached.has(c) && !NETWORK.has(c))
    ).toEqual([])
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
    expect(Object.prototype).not.toHaveProperty('polluted')
    expect(store.db.pragma('integrity_check', { simple: true })).toBe('ok')
    const thread = await call('threads:create', { title: 'after the fuzz' })
    expect(thread.ok).toBe(true)
    const threadId = (thread as { data: { id: string } }).data.id
    expect(await call('messages:send', { threadId, content: 'still here 你好' })).toMatchObject({
      ok: true
    })
    expect(await call('messages:list', { threadId })).toMatchObject({
      ok: true,
      data: { messages: [{ content: 'still here 你好' }], hasOlder: false }
    })
    expect(await call('search:query', { query: 'still here' })).toMatchObject({
      ok: true,
      data: [expect.objectContaining({ threadId })]
    })
  })
})

/** The fields of an object schema (through optional/refine wrappers); none for other kinds. */
function shapeOf(schema: z.ZodType): Record<string, z.ZodType> {
  const def = (schema as unknown as { _zod: { def: Record<string, unknown> } })._zod.def
  if (def.shape) return def.shape as Record<string, z.ZodType>
  if (def.innerType) return shapeOf(def.innerType as z.ZodType)
  if (def.in) return shapeOf(def.in as z.ZodType)
  return {}
}

/**
 * The prompt cache on the real send path (issue #17): a conversation replayed turn by turn
 * through `TurnService.send` (real services, a real SQLite file, the real embedding model,
 * memory recall over other threads, background summaries and memory extraction all on)
 * against a local server that computes what a provider's prompt cache would serve. `ctx
 * simulate` replays the builder alone; this is what reaches the provider.
 *
 * The server speaks OpenAI's chat completions or Anthropic's messages, and caches as that
 * provider does (promptCacheEmulation.ts: OpenAI's automatic prefix caching, Anthropic's
 * explicit breakpoints). Background requests (summary, extraction) go through it too and are
 * reported apart (docs/CONTEXT.md, "Prompt caching").
 *
 * Each message is sent as typed: the draft's query vector is embedded first, as the
 * inspector's preview does while the user types.
 *
 * The conversation is LoCoMo's conv-26 read at run time from ../shared/benchdata (never
 * copied): its first speaker is the user, the second speaker's next turn is the reply; two
 * other conversations of the file, a thread per session, are the history recall searches.
 */
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { encode } from 'gpt-tokenizer/encoding/o200k_base'
import type { ContextConfigPatch } from '@shared/contextConfig'
import { E5_MODEL_ID } from '@shared/embeddingModelIds'
import { EXTRACTION_PROMPT_HEAD } from '../../src/main/context/recall/memoryExtractionPrompt'
import type { Services } from '../../src/main/services/serviceTypes'
import { countMessageTokens } from '../../src/main/context/tokens/messageTokens'
import { o200kCounter } from '../../src/main/context/tokens/tokenCounter'
import { openDatabase } from '../../src/main/store/database'
import { MessageRepository } from '../../src/main/store/messageRepository'
import { ThreadRepository } from '../../src/main/store/threadRepository'
import { EmbeddingClient } from '../../src/main/workers/embedding/embeddingClient'
import { modelSpec } from '../../src/main/workers/embedding/embeddingModels'
import { benchServices, closeBenchSession, defaultToLocalServer } from './benchServices'
import { anthropicCache, openaiCache, type Served } from './promptCacheEmulation'

const MODEL_ID = 'gpt-4o'
const ANTHROPIC_MODEL_ID = 'claude-sonnet-4-5'
const SUMMARY_HEAD = 'You write the checkpoint summary'

interface Turn {
  user: string
  reply: string
}

interface LocomoSession {
  speaker: string
  text: string
}

/** The turns of one LoCoMo conversation as user/reply pairs, and its sessions as threads. */
function readLocomo(path: string): {
  turns: Turn[]
  haystack: { title: string; messages: { role: 'user' | 'assistant'; content: string }[] }[]
} {
  const data = JSON.parse(readFileSync(path, 'utf8')) as {
    conversation: Record<string, unknown>
  }[]
  const sessionsOf = (conversation: Record<string, unknown>): LocomoSession[][] => {
    const sessions: LocomoSession[][] = []
    for (let n = 1; Array.isArray(conversation[`session_${n}`]); n++) {
      sessions.push(conversation[`session_${n}`] as LocomoSession[])
    }
    return sessions
  }
  const [first, ...others] = data
  if (!first) throw new Error('LoCoMo file has no conversation')
  const speakerA = first.conversation.speaker_a as string
  const turns: Turn[] = []
  const flat = sessionsOf(first.conversation).flat()
  for (let i = 0; i < flat.length - 1; i++) {
    const turn = flat[i] as LocomoSession
    const next = flat[i + 1] as LocomoSession
    if (turn.speaker === speakerA && next.speaker !== speakerA) {
      turns.push({ user: turn.text, reply: next.text })
      i++
    }
  }
  const haystack = others.slice(0, 2).flatMap((entry, c) => {
    const a = entry.conversation.speaker_a as string
    return sessionsOf(entry.conversation).map((session, s) => ({
      title: `Conversation ${c + 1}, session ${s + 1}`,
      messages: session.map((m) => ({
        role: m.speaker === a ? ('user' as const) : ('assistant' as const),
        content: m.text
      }))
    }))
  })
  return { turns, haystack }
}

type RequestKind = 'turn' | 'summary' | 'extraction'
export type Dialect = 'openai' | 'anthropic'

interface ServedRequest extends Served {
  kind: RequestKind
}

/**
 * A server that answers every request from a script, as OpenAI's chat completions or
 * Anthropic's messages: a turn with the next reply of the conversation, a summary with a short
 * checkpoint, an extraction with nothing; and notes the cached tokens that provider's prompt
 * cache would report (promptCacheEmulation.ts).
 */
async function startCachingServer(dialect: Dialect, nextReply: () => string) {
  const served: ServedRequest[] = []
  const cache = dialect === 'openai' ? openaiCache() : anthropicCache()
  const server: Server = createServer((request, response) => {
    const parts: Buffer[] = []
    request.on('data', (part: Buffer) => parts.push(part))
    request.on('end', () => {
      const raw = Buffer.concat(parts).toString('utf8')
      const kind: RequestKind = raw.includes(EXTRACTION_PROMPT_HEAD)
        ? 'extraction'
        : raw.includes(SUMMARY_HEAD)
          ? 'summary'
          : 'turn'
      const usage = (cache as (body: unknown) => Served)(JSON.parse(raw))
      served.push({ kind, ...usage })
      const text =
        kind === 'extraction'
          ? '{"memories":[]}'
          : kind === 'summary'
            ? '## Goal\nThe user talks about their week.\n## Critical context\n- Recent plans.'
            : nextReply()
      response.writeHead(200, { 'content-type': 'text/event-stream' })
      response.end(dialect === 'openai' ? openaiStream(text, usage) : anthropicStream(text, usage))
    })
  })
  server.keepAliveTimeout = 120_000
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    v1: `http://127.0.0.1:${port}/v1`,
    served,
    close: () => new Promise<void>((resolve) => server.close(() => resolve()))
  }
}

function openaiStream(text: string, usage: Served): string {
  const event = (delta: object, finish: string | null, extra?: object) =>
    `data: ${JSON.stringify({ id: 'replay', object: 'chat.completion.chunk', created: 0, model: MODEL_ID, choices: [{ index: 0, delta, finish_reason: finish }], ...extra })}\n\n`
  const completion = encode(text).length
  return [
    event({ role: 'assistant', content: text }, null),
    event({}, 'stop', {
      usage: {
        prompt_tokens: usage.prompt,
        completion_tokens: completion,
        total_tokens: usage.prompt + completion,
        prompt_tokens_details: { cached_tokens: usage.cached }
      }
    }),
    'data: [DONE]\n\n'
  ].join('')
}

function anthropicStream(text: string, usage: Served): string {
  const event = (name: string, data: object) =>
    `event: ${name}\ndata: ${JSON.stringify({ type: name, ...data })}\n\n`
  return [
    event('message_start', {
      message: {
        id: 'replay',
        type: 'message',
        role: 'assistant',
        model: ANTHROPIC_MODEL_ID,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: {
          // Anthropic's input_tokens leaves out what was read from or written to the cache.
          input_tokens: usage.prompt - usage.cached - usage.written,
          cache_read_input_tokens: usage.cached,
          cache_creation_input_tokens: usage.written,
          output_tokens: 1
        }
      }
    }),
    event('content_block_start', { index: 0, content_block: { type: 'text', text: '' } }),
    event('content_block_delta', { index: 0, delta: { type: 'text_delta', text } }),
    event('content_block_stop', { index: 0 }),
    event('message_delta', {
      delta: { stop_reason: 'end_turn', stop_sequence: null },
      usage: { output_tokens: encode(text).length }
    }),
    event('message_stop', {})
  ].join('')
}

export interface ReplayRow {
  budget: number | 'default'
  policy: 'chunked' | 'sliding'
  /** Whose prompt cache the server emulates (and whose API the app talks to). */
  dialect: Dialect
  turns: number
  /** Cached prompt tokens / prompt tokens, over the conversation's own requests. */
  cachedShare: number
  /** Anthropic: prompt tokens written to the cache / prompt tokens (billed at 1.25×). */
  writtenShare: number
  promptTokens: number
  /** Recalled tokens sent per turn, on average (the retrieved section). */
  retrievedPerTurn: number
  /** The same per group: memories, this thread's older messages, other threads' messages. */
  recalledPerTurn: { memories: number; thisThread: number; otherThreads: number }
  /** Background requests (summaries, extractions) and their cached share. */
  background: { requests: number; cachedShare: number }
  summaries: number
}

export interface ReplayOptions {
  locomoPath: string
  modelsRoot: string
  workerPath: string
  turns: number
  budgets: readonly (number | 'default')[]
  policies?: readonly ('chunked' | 'sliding')[]
  dialects?: readonly Dialect[]
  /** Applied to the replayed thread before its budget and window policy (a what-if). */
  config?: ContextConfigPatch
  progress?: (line: string) => void
}

/** The haystack store, indexed once with the real model, copied for every configuration. */
async function seedHaystack(
  dir: string,
  haystack: ReturnType<typeof readLocomo>['haystack'],
  options: ReplayOptions
): Promise<string> {
  const path = join(dir, 'haystack.sqlite')
  const db = openDatabase(path)
  // Written as the app writes them (the queue triggers enqueue each for the indexer).
  const threads = new ThreadRepository(db)
  const messages = new MessageRepository(db)
  db.transaction(() => {
    haystack.forEach((thread, t) => {
      const id = `00000000-0000-4000-8000-${String(t).padStart(12, '0')}`
      threads.create({ id, title: thread.title, now: Date.now(), settings: {} })
      for (const m of thread.messages) {
        messages.append({
          threadId: id,
          role: m.role,
          content: m.content,
          tokenCount: countMessageTokens(o200kCounter, { content: m.content }),
          createdAt: Date.now()
        })
      }
    })
  })()
  const services = await servicesOn(db, path, options)
  await services.memoryIndexer.drained(30 * 60_000)
  await services.memoryModel.stop()
  db.close()
  return path
}

async function servicesOn(
  db: ReturnType<typeof openDatabase>,
  path: string,
  options: ReplayOptions
): Promise<Services> {
  const spec = modelSpec(E5_MODEL_ID)
  const services = benchServices(db, path, {
    embeddings: () => ({
      embedder: new EmbeddingClient({
        workerPath: options.workerPath,
        spec,
        source: { kind: 'folder', root: options.modelsRoot, name: E5_MODEL_ID },
        threads: 1
      }),
      spec
    }),
    detectOllama: async () => ({ found: false, baseUrl: '', reason: 'not_running' })
  })
  services.memoryModel.start()
  await services.memoryIndexer.embedder()?.ready()
  return services
}

async function replayOne(
  seeded: string,
  turns: readonly Turn[],
  budget: number | 'default',
  policy: 'chunked' | 'sliding',
  dialect: Dialect,
  options: ReplayOptions
): Promise<ReplayRow> {
  const dir = mkdtempSync(join(tmpdir(), 'cache-replay-'))
  const path = join(dir, 'store.sqlite')
  copyFileSync(seeded, path)
  let next = 0
  const server = await startCachingServer(dialect, () => turns[next - 1]?.reply ?? 'Sure.')
  const db = openDatabase(path)
  const services = await servicesOn(db, path, options)
  try {
    await services.memory.warmedUp()
    // The same window either way, so each budget means the same for both providers.
    defaultToLocalServer(
      services,
      server.v1,
      {
        id: dialect === 'openai' ? MODEL_ID : ANTHROPIC_MODEL_ID,
        contextWindow: 128_000,
        maxOutput: 4_096
      },
      'Replay server',
      dialect === 'openai' ? 'openai-compatible' : 'anthropic'
    )
    const thread = services.threads.create('Replayed conversation')
    const patch: ContextConfigPatch = {
      ...options.config,
      window: { ...options.config?.window, policy },
      ...(budget === 'default' ? {} : { totalBudget: budget })
    }
    services.contextConfig.update('thread', patch, thread.id)
    let retrieved = 0
    const groups = { memories: 0, thisThread: 0, otherThreads: 0 }
    for (const turn of turns) {
      next++
      // Typed, as the inspector previews a draft: its query vector is ready when it is sent,
      // so a loaded bench machine measures the cache, not a words-only fallback.
      await services.memory.search(turn.user, { timeoutMs: 30_000 })
      const outcome = await services.chat.send(thread.id, turn.user)
      retrieved += outcome.build?.context.tokenStats.sections.retrieved.used ?? 0
      const recall = outcome.build?.context.recall
      for (const group of ['memories', 'thisThread', 'otherThreads'] as const) {
        groups[group] += recall?.[group].tokens ?? 0
      }

      await services.chat.settled(thread.id)
      if (next % 40 === 0) {
        options.progress?.(`${dialect} ${policy} ${budget}: turn ${next}/${turns.length}`)
      }
    }
    await services.chat.settled()
    const mine = server.served.filter((s) => s.kind === 'turn')
    const rest = server.served.filter((s) => s.kind !== 'turn')
    const share = (list: ServedRequest[]) => {
      const prompt = list.reduce((sum, s) => sum + s.prompt, 0)
      return prompt === 0 ? 0 : list.reduce((sum, s) => sum + s.cached, 0) / prompt
    }
    const promptOf = (list: ServedRequest[]) => list.reduce((sum, s) => sum + s.prompt, 0)
    const writtenOf = (list: ServedRequest[]) => list.reduce((sum, s) => sum + s.written, 0)
    return {
      budget,
      policy,
      dialect,
      turns: mine.length,
      cachedShare: Math.round(share(mine) * 1000) / 1000,
      writtenShare: Math.round((writtenOf(mine) / Math.max(1, promptOf(mine))) * 1000) / 1000,
      promptTokens: promptOf(mine),
      retrievedPerTurn: Math.round(retrieved / Math.max(1, turns.length)),
      recalledPerTurn: {
        memories: Math.round(groups.memories / Math.max(1, turns.length)),
        thisThread: Math.round(groups.thisThread / Math.max(1, turns.length)),
        otherThreads: Math.round(groups.otherThreads / Math.max(1, turns.length))
      },
      background: { requests: rest.length, cachedShare: Math.round(share(rest) * 1000) / 1000 },
      summaries: rest.filter((s) => s.kind === 'summary').length
    }
  } finally {
    await closeBenchSession(services, db, server, dir)
  }
}

export async function cacheReplayFigures(options: ReplayOptions): Promise<ReplayRow[] | null> {
  if (!existsSync(options.locomoPath)) return null
  const { turns, haystack } = readLocomo(options.locomoPath)
  const dir = mkdtempSync(join(tmpdir(), 'cache-haystack-'))
  try {
    options.progress?.(`indexing ${haystack.length} threads of other conversations`)
    const seeded = await seedHaystack(dir, haystack, options)
    const rows: ReplayRow[] = []
    const replayed = turns.slice(0, options.turns)
    for (const budget of options.budgets) {
      for (const dialect of options.dialects ?? ['openai', 'anthropic']) {
        for (const policy of options.policies ?? ['chunked', 'sliding']) {
          rows.push(await replayOne(seeded, replayed, budget, policy, dialect, options))
        }
      }
    }
    return rows
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

export function cacheReplayReport(
  rows: readonly ReplayRow[],
  table: (header: string[], rows: string[][]) => string
): string {
  return [
    'Prompt cache on the real send path (OpenAI prefix caching, Anthropic breakpoints; recall, summaries and extraction on)',
    table(
      [
        'budget',
        'provider',
        'window',
        'turns',
        'cached share',
        'written share',
        'prompt tokens',
        'retrieved / turn (memories · this thread · other threads)',
        'summaries',
        'background cached'
      ],
      rows.map((r) => [
        String(r.budget),
        r.dialect,
        r.policy,
        String(r.turns),
        r.cachedShare.toFixed(3),
        r.dialect === 'anthropic' ? r.writtenShare.toFixed(3) : '-',
        r.promptTokens.toLocaleString('en-US'),
        `${r.retrievedPerTurn} (${r.recalledPerTurn.memories} · ${r.recalledPerTurn.thisThread} · ${r.recalledPerTurn.otherThreads})`,
        String(r.summaries),
        `${r.background.requests} requests, ${r.background.cachedShare.toFixed(3)}`
      ])
    )
  ].join('\n')
}

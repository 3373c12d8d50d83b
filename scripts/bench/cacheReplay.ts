/**
 * The prompt cache on the real send path (issue #17): a conversation replayed turn by turn
 * through `ChatService.send` (real services, a real SQLite file, the real embedding model,
 * memory recall over other threads, background summaries and memory extraction all on)
 * against a local server that computes what a provider's prompt cache would serve. `ctx
 * simulate` replays the builder alone; this is what reaches the provider.
 *
 * The server caches as OpenAI's automatic prefix caching does: a request's cached tokens are
 * its longest common prefix with any earlier request, counted in 128-token steps from 1,024
 * (o200k tokens of each message's role and content, in order). Background requests (summary,
 * extraction) go through it too and are reported apart. Anthropic's explicit breakpoints are
 * not emulated here (docs/PERFORMANCE.md, "Prompt cache on the real path").
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
import { EXTRACTION_PROMPT_HEAD } from '../../src/main/context/memoryExtractionPrompt'
import type { Services } from '../../src/main/services/createServices'
import { countMessageTokens } from '../../src/main/context/messageTokens'
import { o200kCounter } from '../../src/main/context/tokenCounter'
import { openDatabase } from '../../src/main/store/database'
import { MessageRepository } from '../../src/main/store/messageRepository'
import { ThreadRepository } from '../../src/main/store/threadRepository'
import { EmbeddingClient } from '../../src/main/workers/embeddingClient'
import { modelSpec } from '../../src/main/workers/embeddingModels'
import { benchServices, closeBenchSession, defaultToLocalServer } from './benchServices'

const MODEL_ID = 'gpt-4o'
const MIN_CACHED = 1024
const CACHE_STEP = 128
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

interface Served {
  kind: RequestKind
  prompt: number
  cached: number
}

/** Tokens of a request's messages as one sequence: role and content of each, in order. */
function promptTokens(messages: { role: string; content?: unknown }[]): number[] {
  const tokens: number[] = []
  for (const m of messages) {
    const content = typeof m.content === 'string' ? m.content : JSON.stringify(m.content ?? '')
    tokens.push(...encode(`<|${m.role}|>`), ...encode(content))
  }
  return tokens
}

function commonPrefix(a: readonly number[], b: readonly number[]): number {
  const n = Math.min(a.length, b.length)
  let i = 0
  while (i < n && a[i] === b[i]) i++
  return i
}

/**
 * An OpenAI-compatible server that answers every request from a script: a turn with the next
 * reply of the conversation, a summary with a short checkpoint, an extraction with nothing, and
 * notes the cached tokens OpenAI's prefix caching would report.
 */
async function startCachingServer(nextReply: () => string) {
  const seen: number[][] = []
  const served: Served[] = []
  const server: Server = createServer((request, response) => {
    const parts: Buffer[] = []
    request.on('data', (part: Buffer) => parts.push(part))
    request.on('end', () => {
      const raw = Buffer.concat(parts).toString('utf8')
      const body = JSON.parse(raw) as { messages: { role: string; content?: unknown }[] }
      const kind: RequestKind = raw.includes(EXTRACTION_PROMPT_HEAD)
        ? 'extraction'
        : raw.includes(SUMMARY_HEAD)
          ? 'summary'
          : 'turn'
      const tokens = promptTokens(body.messages)
      const longest = seen.reduce(
        (best, earlier) => Math.max(best, commonPrefix(earlier, tokens)),
        0
      )
      const cached = longest >= MIN_CACHED ? Math.floor(longest / CACHE_STEP) * CACHE_STEP : 0
      seen.push(tokens)
      served.push({ kind, prompt: tokens.length, cached })
      const text =
        kind === 'extraction'
          ? '{"memories":[]}'
          : kind === 'summary'
            ? '## Goal\nThe user talks about their week.\n## Critical context\n- Recent plans.'
            : nextReply()
      const event = (delta: object, finish: string | null, usage?: object) =>
        `data: ${JSON.stringify({ id: 'replay', object: 'chat.completion.chunk', created: 0, model: MODEL_ID, choices: [{ index: 0, delta, finish_reason: finish }], ...(usage && { usage }) })}\n\n`
      response.writeHead(200, { 'content-type': 'text/event-stream' })
      response.write(event({ role: 'assistant', content: text }, null))
      response.write(
        event({}, 'stop', {
          prompt_tokens: tokens.length,
          completion_tokens: encode(text).length,
          total_tokens: tokens.length + encode(text).length,
          prompt_tokens_details: { cached_tokens: cached }
        })
      )
      response.end('data: [DONE]\n\n')
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

export interface ReplayRow {
  budget: number | 'default'
  policy: 'chunked' | 'sliding'
  turns: number
  /** Cached prompt tokens / prompt tokens, over the conversation's own requests. */
  cachedShare: number
  promptTokens: number
  /** Recalled tokens sent per turn, on average (the retrieved section). */
  retrievedPerTurn: number
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
  options: ReplayOptions
): Promise<ReplayRow> {
  const dir = mkdtempSync(join(tmpdir(), 'cache-replay-'))
  const path = join(dir, 'store.sqlite')
  copyFileSync(seeded, path)
  let next = 0
  const server = await startCachingServer(() => turns[next - 1]?.reply ?? 'Sure.')
  const db = openDatabase(path)
  const services = await servicesOn(db, path, options)
  try {
    await services.memory.warmedUp()
    defaultToLocalServer(
      services,
      server.v1,
      { id: MODEL_ID, contextWindow: 128_000, maxOutput: 4_096 },
      'Replay server'
    )
    const thread = services.threads.create('Replayed conversation')
    const patch: ContextConfigPatch = {
      window: { policy },
      ...(budget === 'default' ? {} : { totalBudget: budget })
    }
    services.context.updateConfig('thread', patch, thread.id)
    let retrieved = 0
    for (const turn of turns) {
      next++
      // Typed, as the inspector previews a draft: its query vector is ready when it is sent,
      // so a loaded bench machine measures the cache, not a words-only fallback.
      await services.memory.search(turn.user, { timeoutMs: 30_000 })
      const outcome = await services.chat.send(thread.id, turn.user)
      retrieved += outcome.build?.context.tokenStats.sections.retrieved.used ?? 0

      await services.chat.settled(thread.id)
      if (next % 40 === 0) options.progress?.(`${policy} ${budget}: turn ${next}/${turns.length}`)
    }
    await services.chat.settled()
    const mine = server.served.filter((s) => s.kind === 'turn')
    const rest = server.served.filter((s) => s.kind !== 'turn')
    const share = (list: Served[]) => {
      const prompt = list.reduce((sum, s) => sum + s.prompt, 0)
      return prompt === 0 ? 0 : list.reduce((sum, s) => sum + s.cached, 0) / prompt
    }
    return {
      budget,
      policy,
      turns: mine.length,
      cachedShare: Math.round(share(mine) * 1000) / 1000,
      promptTokens: mine.reduce((sum, s) => sum + s.prompt, 0),
      retrievedPerTurn: Math.round(retrieved / Math.max(1, turns.length)),
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
    for (const budget of options.budgets) {
      for (const policy of options.policies ?? ['chunked', 'sliding']) {
        rows.push(await replayOne(seeded, turns.slice(0, options.turns), budget, policy, options))
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
    'Prompt cache on the real send path (OpenAI-style prefix caching; recall, summaries and extraction on)',
    table(
      [
        'budget',
        'window',
        'turns',
        'cached share',
        'prompt tokens',
        'retrieved / turn',
        'summaries',
        'background cached'
      ],
      rows.map((r) => [
        String(r.budget),
        r.policy,
        String(r.turns),
        r.cachedShare.toFixed(3),
        r.promptTokens.toLocaleString('en-US'),
        String(r.retrievedPerTurn),
        String(r.summaries),
        `${r.background.requests} requests, ${r.background.cachedShare.toFixed(3)}`
      ])
    )
  ].join('\n')
}

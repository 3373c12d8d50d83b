/**
 * Deterministic synthetic threads for the benchmark: a seeded PRNG mixes English and Chinese
 * chat, mixed-language messages and tool-call groups with code-like results, so the same seed
 * always yields the same thread and the same numbers.
 */
import type { ToolCall } from '@shared/domain'
import { ActiveTaskTracker } from '../../src/main/context/sections/activeTaskTracker'
import { countMessageTokens } from '../../src/main/context/tokens/messageTokens'
import type { TokenCounter } from '../../src/main/context/tokens/tokenCounter'
import type { ActiveTaskState, ContextMessage, MemoryCandidate } from '@shared/context'

/** mulberry32: tiny, fast, good enough for test data. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** A unit vector of uniform random components: unrelated vectors, for vector-index tests. */
export function randomUnitVector(random: () => number, dimension: number): Float32Array {
  const v = Float32Array.from({ length: dimension }, () => random() - 0.5)
  const norm = Math.hypot(...v)
  return v.map((x) => x / norm)
}

const ENGLISH_WORDS = (
  'the a to of and in that is for it with as on this be are was can you we should will not ' +
  'context window budget message summary memory token model request user assistant thread ' +
  'build test parser file function value error result because however which would make sure ' +
  'import export config section order cache provider reply input output pinned excluded recent'
).split(' ')

const CHINESE_PHRASES = (
  '我们 需要 这个 函数 上下文 窗口 预算 消息 摘要 记忆 模型 请求 用户 助手 线程 ' +
  '构建 测试 解析 文件 结果 错误 因为 但是 所以 可以 应该 已经 还是 问题 方案 配置 缓存'
).split(' ')

const CODE_LINES = [
  'export function parseRows(text: string): Row[] {',
  "  const { data } = Papa.parse<string[]>(text, { delimiter: ';' })",
  '  return data.slice(1).map(([date, payee, amount]) => ({ date, payee, amount }))',
  '}',
  'const total = rows.reduce((sum, row) => sum + row.cents, 0)',
  '{"path":"src/import/csv.ts","size":2143,"modified":"2024-03-02T10:15:00Z"}',
  "  if (!row.date) throw new Error('missing date in row ' + index)"
]

function pick<T>(random: () => number, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)] as T
}

function english(random: () => number, words: number): string {
  const out: string[] = []
  for (let i = 0; i < words; i++) out.push(pick(random, ENGLISH_WORDS))
  return `${out.join(' ')}.`
}

function chinese(random: () => number, phrases: number): string {
  let out = ''
  for (let i = 0; i < phrases; i++)
    out += pick(random, CHINESE_PHRASES) + (random() < 0.1 ? '，' : '')
  return `${out}。`
}

function code(random: () => number, lines: number): string {
  return Array.from({ length: lines }, () => pick(random, CODE_LINES)).join('\n')
}

function prose(random: () => number, size: number): string {
  const kind = random()
  if (kind < 0.55) return english(random, size)
  if (kind < 0.85) return chinese(random, Math.ceil(size / 2))
  return `${chinese(random, Math.ceil(size / 4))} ${english(random, Math.ceil(size / 2))}`
}

export interface SyntheticThread {
  messages: ContextMessage[]
  pinned: ContextMessage[]
  taskState: ActiveTaskState
}

/**
 * `count` messages: user turns of 5-60 words, assistant turns of 20-200, and about one turn in
 * eight an assistant tool call with one or two results of code (2-25 lines). Tokens are counted
 * once per message, as the app does at insert. Every 20,000th message is pinned.
 */
export function syntheticThread(count: number, counter: TokenCounter, seed = 42): SyntheticThread {
  const random = seededRandom(seed)
  const messages: ContextMessage[] = []
  const tasks = new ActiveTaskTracker()
  const push = (
    m: Omit<ContextMessage, 'seq' | 'id' | 'tokenCount' | 'pinned' | 'excluded'>
  ): void => {
    const seq = messages.length + 1
    messages.push({
      ...m,
      id: seq,
      seq,
      tokenCount: countMessageTokens(counter, m),
      pinned: seq % 20_000 === 0,
      excluded: random() < 0.002
    })
  }
  while (messages.length < count) {
    const request = prose(random, 5 + Math.floor(random() * 55))
    const content = random() < 0.3 ? `Please ${request}` : request
    push({ role: 'user', content, toolCalls: null, toolCallId: null })
    tasks.observe(content, messages.length)
    if (random() < 0.125 && messages.length + 3 < count) {
      const calls: ToolCall[] = Array.from({ length: random() < 0.3 ? 2 : 1 }, (_, i) => ({
        id: `call_${messages.length}_${i}`,
        name: pick(random, ['read_file', 'search', 'run_tests']),
        arguments: JSON.stringify({ path: `src/file${Math.floor(random() * 100)}.ts` })
      }))
      push({ role: 'assistant', content: '', toolCalls: calls, toolCallId: null })
      for (const c of calls) {
        push({
          role: 'tool',
          content: code(random, 2 + Math.floor(random() * 24)),
          toolCalls: null,
          toolCallId: c.id
        })
      }
    }
    if (messages.length < count) {
      push({
        role: 'assistant',
        content: prose(random, 20 + Math.floor(random() * 180)),
        toolCalls: null,
        toolCallId: null
      })
    }
  }
  return { messages, pinned: messages.filter((m) => m.pinned), taskState: tasks.state }
}

export function syntheticMemories(count: number, seed = 7): MemoryCandidate[] {
  const random = seededRandom(seed)
  return Array.from({ length: count }, (_, i) => ({
    id: `mem-${i}`,
    content: prose(random, 10 + Math.floor(random() * 30)),
    score: 0.9 - i * 0.05,
    source: 'memory'
  }))
}

export function syntheticText(kind: 'english' | 'chinese', chars: number, seed = 1): string {
  const random = seededRandom(seed)
  let out = ''
  while (out.length < chars)
    out += `${kind === 'english' ? english(random, 40) : chinese(random, 30)}\n`
  return out.slice(0, chars)
}

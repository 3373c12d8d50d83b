/**
 * A summary without a model: when the summarizer fails for a reason retrying will not fix, or
 * when no provider is configured, the thread still gets a deterministic record of what matters
 * most (what the user asked, what was decided, which files and which errors), and says plainly
 * that no model wrote it.
 */
import type { ProviderMessage } from '@shared/context'
import { redactSecrets } from './redactSecrets'
import type { SummaryLanguage } from './summaryLanguage'
import { sectionHeading } from './summaryTemplate'

export interface ExtractiveSummaryOptions {
  /** Lines about this topic come first and may take most of the length. */
  focusTopic?: string | null
  /** Kept, shortened, so repeated fallbacks do not forget what came before. */
  previousSummary?: string | null
  /** The whole summary's length limit in characters (default 8,000). */
  maxChars?: number
}

export const EXTRACTIVE_MARKER: Record<SummaryLanguage, string> = {
  en: 'Summary generated without a model',
  zh: '此摘要未使用模型生成'
}

const NOTE: Record<SummaryLanguage, (n: number) => string> = {
  en: (n) =>
    `[${EXTRACTIVE_MARKER.en}: extracted from ${n} messages (user asks, decisions, file paths, errors).]`,
  zh: (n) => `[${EXTRACTIVE_MARKER.zh}：从 ${n} 条消息中抽取（用户请求、决策、文件路径、错误）。]`
}

const HEADINGS: Record<
  SummaryLanguage,
  Record<'focus' | 'previous' | 'asks' | 'errors' | 'tools', string>
> = {
  en: {
    focus: 'Focus',
    previous: 'Earlier summary',
    asks: 'User asks',
    errors: 'Errors',
    tools: 'Tools used'
  },
  zh: {
    focus: '重点',
    previous: '更早的摘要',
    asks: '用户请求',
    errors: '错误',
    tools: '使用的工具'
  }
}

const DEFAULT_MAX_CHARS = 8_000
const ITEM_MAX_CHARS = 240
const MAX_ASKS = 12
const MAX_DECISIONS = 10
const MAX_FILES = 30
const MAX_ERRORS = 10
const MAX_FOCUS_LINES = 15

const DECISION =
  /\b(?:decided|decide to|we'll use|we will use|let's use|let's go with|going with|chose|choose to|switch(?:ed)? to|settled on|agreed|instead of)\b|决定|采用|选择|改用|换成|就用|确定用|同意/i
const ERROR =
  /\b(?:error|exception|fail(?:ed|s|ure)?|traceback|cannot|can't|not found|denied|timed? ?out|panic)\b|错误|失败|报错|异常|无法|超时/i
const URL = /\bhttps?:\/\/\S+/g
// The lookbehind keeps this linear: a path can only start where a run of path characters does.
const PATH =
  /(?<![\w.\-/\\])(?:[A-Za-z]:\\|~\/|\.{1,2}\/|\/)?(?:[\w.-]+[/\\])*[\w-][\w.-]*\.[A-Za-z][A-Za-z0-9]{0,7}\b/g
const CODE_EXTENSION =
  /\.(?:ts|tsx|js|jsx|mjs|cjs|json|md|py|rs|go|java|kt|swift|c|cc|cpp|h|hpp|cs|rb|php|css|scss|html|vue|svelte|yml|yaml|toml|ini|sql|sh|txt|csv|xml|lock|env)$/i

function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim()
  return flat.length <= ITEM_MAX_CHARS ? flat : `${flat.slice(0, ITEM_MAX_CHARS - 1)}…`
}

function sentences(text: string): string[] {
  return (
    text
      // A full stop ends a sentence before a space (not in "parseAmount.ts"); CJK ones always.
      .split(/\n+|(?<=[.!?])\s+|(?<=[。！？；])/)
      .map((s) => s.trim())
      .filter(Boolean)
  )
}

function filePaths(text: string): string[] {
  const found: string[] = []
  for (const match of text.replace(URL, ' ').matchAll(PATH)) {
    const path = match[0]
    if (/[/\\]/.test(path) || CODE_EXTENSION.test(path)) found.push(path)
  }
  return found
}

/** Sets keep first-seen order and make each addition O(1): tool output can repeat a line 1,000 times. */
function add(set: Set<string>, value: string): void {
  if (value) set.add(value)
}

function last(set: Set<string>, count: number): string[] {
  return [...set].slice(-count)
}

function focusWords(topic: string): string[] {
  const words = topic
    .toLowerCase()
    .split(/[\s,，、;；]+/)
    .filter((w) => w.length >= 2 || /\P{ASCII}/u.test(w))
  return words.length > 0 ? words : [topic.toLowerCase()]
}

/** Adds lines under a heading until the character budget is spent. */
class SummaryWriter {
  private readonly parts: string[] = []
  private used = 0

  constructor(private readonly maxChars: number) {}

  section(heading: string, items: readonly string[], budget = this.maxChars - this.used): void {
    if (items.length === 0) return
    const lines = [`## ${heading}`]
    let size = lines[0]!.length + 2
    for (const item of items) {
      const line = `- ${item}`
      if (size + line.length + 1 > budget || this.used + size + line.length + 1 > this.maxChars) {
        break
      }
      lines.push(line)
      size += line.length + 1
    }
    if (lines.length === 1) return
    this.parts.push(lines.join('\n'))
    this.used += size
  }

  text(block: string): void {
    this.parts.push(block)
    this.used += block.length + 2
  }

  toString(): string {
    return this.parts.join('\n\n')
  }
}

/** A deterministic summary of `messages`: same input, same text. */
export function extractiveSummary(
  messages: readonly ProviderMessage[],
  language: SummaryLanguage,
  options: ExtractiveSummaryOptions = {}
): string {
  const maxChars = options.maxChars ?? DEFAULT_MAX_CHARS
  const headings = HEADINGS[language]
  const asks = new Set<string>()
  const decisions = new Set<string>()
  const files = new Set<string>()
  const errors = new Set<string>()
  const focusLines = new Set<string>()
  const tools = new Map<string, number>()
  const topic = options.focusTopic?.trim()
  const words = topic ? focusWords(topic) : []

  for (const m of messages) {
    const content = redactSecrets(m.content)
    if (m.role === 'user' && content.trim()) add(asks, oneLine(content))
    if (m.role === 'user' || m.role === 'assistant') {
      for (const s of sentences(content)) if (DECISION.test(s)) add(decisions, oneLine(s))
    }
    if (m.role === 'tool' || m.role === 'assistant') {
      for (const line of content.split('\n')) if (ERROR.test(line)) add(errors, oneLine(line))
    }
    for (const path of filePaths(content)) add(files, path)
    for (const call of m.toolCalls ?? []) {
      tools.set(call.name, (tools.get(call.name) ?? 0) + 1)
      for (const path of filePaths(redactSecrets(call.arguments))) add(files, path)
    }
    if (words.length > 0 && m.role !== 'system') {
      for (const s of sentences(content)) {
        const lower = s.toLowerCase()
        if (words.some((w) => lower.includes(w))) add(focusLines, oneLine(s))
      }
    }
  }

  const writer = new SummaryWriter(maxChars)
  writer.text(NOTE[language](messages.length))
  if (topic) {
    // The focus takes up to 60 % of the summary, like the model's "two thirds" instruction.
    writer.section(`${headings.focus}: ${topic}`, last(focusLines, MAX_FOCUS_LINES), maxChars * 0.6)
  }
  const previous = options.previousSummary?.trim()
  if (previous) {
    const limit = Math.floor(maxChars * 0.25)
    const kept = previous.length <= limit ? previous : `${previous.slice(0, limit - 1)}…`
    writer.text(`## ${headings.previous}\n${redactSecrets(kept)}`)
  }
  writer.section(headings.asks, last(asks, MAX_ASKS))
  writer.section(sectionHeading('decisions', language), last(decisions, MAX_DECISIONS))
  writer.section(sectionHeading('relevantFiles', language), [...files].slice(0, MAX_FILES))
  writer.section(headings.errors, last(errors, MAX_ERRORS))
  writer.section(
    headings.tools,
    [...tools].map(([name, count]) => (count > 1 ? `${name} ×${count}` : name))
  )
  return writer.toString()
}

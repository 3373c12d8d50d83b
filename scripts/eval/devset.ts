/**
 * Our own bilingual dev set (test/fixtures/devset/*.txt, written for this project) →
 * context-eval/1, one dataset per person: about 80 curated memories in Chinese, English or
 * both, and short companionship dialogues whose last user turn is the question. The evidence
 * is the memories the question needs, often only implied ("any ideas for the weekend?" ←
 * "I started learning to climb"). Categories: `zh` and `en` (question and memory in one
 * language), `cross` (memory in one language, question in the other).
 *
 * Source format, one item per line (`#` comments and blank lines ignored):
 *
 *   persona <id> <display name>
 *   memory <id> <pref|fact|task|other> <text>
 *   question <id> <zh|en|cross> <evidence memory id>...
 *   offtopic <id> <zh|en>      (a control question: nothing in the memories answers it)
 *   > a user turn
 *   < an assistant turn
 *
 * A question's turns follow it; its last `>` line is the question, the turns before it are
 * its thread (which only that question sees). Times are fixed, so the output is deterministic:
 * memories a day apart from 2026-01-01, dialogues from 2026-06-01, a minute per turn.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { basename, join } from 'node:path'
import { FORMAT, parseDataset, type EvalDataset } from './format'

const DEVSET_CATEGORIES = ['zh', 'en', 'cross'] as const

const CATEGORY_NAMES: Record<string, string> = {
  pref: 'user_preference',
  fact: 'fact',
  task: 'task',
  other: 'other'
}

const MEMORY_EPOCH = Date.UTC(2026, 0, 1)
const DIALOGUE_EPOCH = Date.UTC(2026, 5, 1)
const DAY = 86_400_000
const HOUR = 3_600_000
const MINUTE = 60_000

const iso = (ms: number): string => new Date(ms).toISOString().replace('.000Z', 'Z')

interface PendingQuestion {
  id: string
  category: string
  evidence: string[]
  turns: { role: 'user' | 'assistant'; content: string }[]
  line: number
}

/** Parses one person's file; `source` names it in errors. */
export function convertDevsetPersona(text: string, source = 'devset'): EvalDataset {
  let persona: string | null = null
  const memories: NonNullable<EvalDataset['memories']> = []
  const questions: PendingQuestion[] = []
  const fail = (line: number, message: string): never => {
    throw new Error(`${source}:${line}: ${message}`)
  }
  text.split('\n').forEach((raw, index) => {
    const line = index + 1
    const content = raw.trim()
    if (content === '' || content.startsWith('#')) return
    if (content.startsWith('>') || content.startsWith('<')) {
      const question = questions.at(-1) ?? fail(line, 'a turn before any question')
      const turn = content.slice(1).trim()
      if (!turn) fail(line, 'an empty turn')
      question.turns.push({ role: content.startsWith('>') ? 'user' : 'assistant', content: turn })
      return
    }
    const [keyword, id, kind, ...rest] = content.split(/\s+/u)
    if (keyword === 'persona') {
      if (persona !== null) fail(line, 'a second persona line')
      persona = id ?? fail(line, 'persona needs an id')
    } else if (keyword === 'memory') {
      const category = CATEGORY_NAMES[kind ?? ''] ?? fail(line, `unknown memory category "${kind}"`)
      const body = content.split(/\s+/u).slice(3).join(' ')
      if (!id || !body) fail(line, 'memory needs an id, a category and a text')
      memories.push({
        id: `${persona ?? fail(line, 'memory before persona')}/${id}`,
        content: body,
        category,
        created_at: iso(MEMORY_EPOCH + memories.length * DAY)
      })
    } else if (keyword === 'question') {
      if (!id || !DEVSET_CATEGORIES.includes(kind as (typeof DEVSET_CATEGORIES)[number])) {
        fail(line, `question needs an id and one of ${DEVSET_CATEGORIES.join(', ')}`)
      }
      if (rest.length === 0) fail(line, 'question needs at least one evidence memory')
      questions.push({
        id: id as string,
        category: kind as string,
        evidence: rest,
        turns: [],
        line
      })
    } else if (keyword === 'offtopic') {
      // Evidence-free by its own keyword, so a question that lost its ids is an error instead.
      if (!id || (kind !== 'zh' && kind !== 'en') || rest.length > 0) {
        fail(line, 'offtopic needs an id and zh or en, and no evidence')
      }
      questions.push({
        id: id as string,
        category: `offtopic ${kind}`,
        evidence: [],
        turns: [],
        line
      })
    } else {
      fail(line, `unknown line "${keyword}"`)
    }
  })
  if (persona === null) throw new Error(`${source}: no persona line`)
  const known = new Set(memories.map((m) => m.id))
  const dataset: EvalDataset = {
    format: FORMAT,
    name: `devset/${persona}`,
    threads: [],
    memories,
    questions: []
  }
  questions.forEach((question, q) => {
    const last = question.turns.at(-1)
    if (last?.role !== 'user') fail(question.line, `question ${question.id} must end with a > turn`)
    const threadId = `${persona}/${question.id}`
    const start = DIALOGUE_EPOCH + q * HOUR
    const history = question.turns.slice(0, -1)
    if (history.length > 0) {
      dataset.threads.push({
        id: threadId,
        messages: history.map((turn, t) => ({
          id: `${threadId}/t${t + 1}`,
          role: turn.role,
          content: turn.content,
          created_at: iso(start + t * MINUTE)
        }))
      })
    }
    const evidence = question.evidence.map((id) => `${persona}/${id}`)
    const unknown = evidence.filter((id) => !known.has(id))
    if (unknown.length > 0) fail(question.line, `unknown evidence ${unknown.join(', ')}`)
    dataset.questions.push({
      id: threadId,
      thread_id: threadId,
      // Each dialogue is its own conversation: the others are not part of this one's history.
      scope_thread_ids: [threadId],
      question: (last as { content: string }).content,
      asked_at: iso(start + history.length * MINUTE),
      evidence,
      category: question.category
    })
  })
  return parseDataset(dataset)
}

/** Every `*.txt` of a folder, one dataset per person, in file-name order. */
export function convertDevset(folder: string): EvalDataset[] {
  return readdirSync(folder)
    .filter((name) => name.endsWith('.txt'))
    .sort()
    .map((name) => convertDevsetPersona(readFileSync(join(folder, name), 'utf8'), basename(name)))
}

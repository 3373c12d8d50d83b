/**
 * The two tools the app itself offers the model, so it can recover what the window and the
 * summaries left out: `search_history` (hybrid search over every thread) and `open_message`
 * (a stored message and its neighbours, in full). They read the store only, and go through the
 * same approval as any MCP tool.
 */
import type { MemorySearchResult, Message } from '@shared/domain'
import type { BuiltinToolName, ToolDescriptor } from '@shared/tools'
import type { MemorySearchOptions } from '../memory/hybridSearch'
import type { MessageRepository } from '../../store/messageRepository'
import { builtinToolKey } from './toolNames'

export interface BuiltinToolDeps {
  search: (query: string, options: MemorySearchOptions) => Promise<MemorySearchResult>
  messages: MessageRepository
  threadTitle: (threadId: string) => string | null
}

const SEARCH_LIMIT_MAX = 20
const NEIGHBOURS_MAX = 5
/** A hit's text in a search result; the whole message is one open_message away. */
const SNIPPET_CHARS = 400
/**
 * Below the interactive search's floor (0.6): results are ranked, the model reads them all and
 * judges, and a paraphrase in another wording than the stored message often lands in between.
 */
const TOOL_MIN_SIMILARITY = 0.5

const definitions: Record<
  BuiltinToolName,
  Omit<ToolDescriptor, 'key' | 'source' | 'sourceName'>
> = {
  search_history: {
    name: 'search_history',
    description:
      'Search every conversation stored in this app (hybrid full-text and semantic search). Returns matching messages with their message id, thread, role and date. Use open_message with an id to read a message in full.',
    parameters: {
      type: 'object',
      properties: {
        query: { type: 'string', description: 'What to look for, in any language.' },
        limit: {
          type: 'integer',
          minimum: 1,
          maximum: SEARCH_LIMIT_MAX,
          description: `How many results (default 8, at most ${SEARCH_LIMIT_MAX}).`
        }
      },
      required: ['query'],
      additionalProperties: false
    }
  },
  open_message: {
    name: 'open_message',
    description:
      'Read one stored message in full by its id (from search_history), with the messages just before and after it in its thread.',
    parameters: {
      type: 'object',
      properties: {
        id: { type: 'integer', minimum: 1, description: 'The message id.' },
        neighbours: {
          type: 'integer',
          minimum: 0,
          maximum: NEIGHBOURS_MAX,
          description: `Messages to include on each side (default 1, at most ${NEIGHBOURS_MAX}).`
        }
      },
      required: ['id'],
      additionalProperties: false
    }
  }
}

export const BUILTIN_TOOLS: ToolDescriptor[] = Object.values(definitions).map((d) => ({
  ...d,
  key: builtinToolKey(d.name),
  source: 'builtin',
  sourceName: 'Built-in'
}))

const isoDate = (ms: number): string => new Date(ms).toISOString().replace('T', ' ').slice(0, 16)

function intArg(args: Record<string, unknown>, name: string, fallback: number, max: number) {
  const value = args[name]
  if (value === undefined) return fallback
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) {
    throw new Error(`"${name}" must be a whole number.`)
  }
  return Math.min(value, max)
}

/** Runs a built-in tool; a bad argument is an error result the model can read and correct. */
export async function runBuiltinTool(
  deps: BuiltinToolDeps,
  name: BuiltinToolName,
  args: Record<string, unknown>
): Promise<string> {
  if (name === 'search_history') {
    const query = typeof args.query === 'string' ? args.query.trim() : ''
    if (!query) throw new Error('"query" must be a non-empty string.')
    const limit = Math.max(1, intArg(args, 'limit', 8, SEARCH_LIMIT_MAX))
    const result = await deps.search(query.slice(0, 500), {
      limit,
      scope: 'all',
      kinds: ['message'],
      minSimilarity: TOOL_MIN_SIMILARITY,
      timeoutMs: 2000
    })
    if (result.hits.length === 0) return `No stored message matches "${query}".`
    const lines = result.hits.map((hit) => {
      const text =
        hit.content.length > SNIPPET_CHARS
          ? `${hit.content.slice(0, SNIPPET_CHARS)}… [${hit.content.length} chars]`
          : hit.content
      return `- id ${hit.id} · thread "${hit.threadTitle ?? 'untitled'}" · ${hit.role ?? 'message'} · ${isoDate(hit.createdAt)}\n  ${text.replace(/\n/g, '\n  ')}`
    })
    const mode = result.mode === 'hybrid' ? '' : ' (full-text only: the memory model is not ready)'
    return `${result.hits.length} result${result.hits.length === 1 ? '' : 's'}${mode}:\n${lines.join('\n')}`
  }
  const id = args.id
  if (typeof id !== 'number' || !Number.isInteger(id) || id < 1) {
    throw new Error('"id" must be a message id (a positive whole number).')
  }
  const target = deps.messages.get(id)
  if (!target) return `No message has id ${id}.`
  const around = intArg(args, 'neighbours', 1, NEIGHBOURS_MAX)
  const list = deps.messages.listSeqRange(target.threadId, target.seq - around, target.seq + around)
  const title = deps.threadTitle(target.threadId) ?? 'untitled'
  return [
    `Thread "${title}" (${target.threadId}), messages ${list[0]?.seq ?? target.seq}-${list.at(-1)?.seq ?? target.seq}:`,
    ...list.map((m) => formatMessage(m, m.id === id))
  ].join('\n\n')
}

function formatMessage(m: Message, isTarget: boolean): string {
  const mark = isTarget ? ' (requested)' : ''
  return `--- id ${m.id} · #${m.seq} · ${m.role} · ${isoDate(m.createdAt)}${mark}\n${m.content}`
}

/**
 * ChatGPT's data export (`conversations.json`): each conversation is a tree of nodes in
 * `mapping` (`parent`, `children`, `message`), and `current_node` is the leaf the user last
 * saw. The active branch is the path from the root to `current_node`; every other leaf is an
 * abandoned branch (an edited question, a regenerated answer).
 */
import { createHash } from 'node:crypto'
import type { SkipReason } from '@shared/history'
import {
  addSkip,
  conversationLabel,
  FieldReader,
  type ImportedMessage,
  type ImportedRecord,
  type ImportedThread,
  type ImportFormat,
  type MapOptions
} from './importTypes'
import { importTitle } from './importTitle'

type Converted = { message: ImportedMessage } | { skip: SkipReason }

/** Content the user saw as text; everything else is scaffolding or tool traffic. */
const TEXT_TYPES = new Set(['text', 'multimodal_text'])
const HIDDEN_TYPES = new Set(['thoughts', 'reasoning_recap', 'model_editable_context'])
const SYSTEM_TYPES = new Set(['user_editable_context'])
const TOOL_TYPES = new Set([
  'code',
  'execution_output',
  'tether_browsing_display',
  'tether_quote',
  'system_error',
  'sonic_webpage'
])

export const chatgptFormat: ImportFormat = {
  name: 'chatgpt',
  detect: (first) =>
    typeof first === 'object' &&
    first !== null &&
    typeof (first as Record<string, unknown>).mapping === 'object',
  map: mapConversation
}

function mapConversation(element: unknown, position: number, options: MapOptions): ImportedRecord {
  const title = (element as { title?: unknown } | null)?.title
  const r = new FieldReader(conversationLabel(position, title))
  const conversation = r.object(element, 'the conversation')
  const mapping = r.object(conversation.mapping, 'mapping')
  const current = r.string(conversation.current_node, 'current_node')
  if (!(current in mapping))
    r.fail('current_node', `names node "${current}", which is not in mapping`)
  const created = r.seconds(conversation.create_time, 'create_time')
  const updated = r.seconds(conversation.update_time, 'update_time')
  const id =
    r.optionalString(conversation.conversation_id, 'conversation_id') ??
    r.optionalString(conversation.id, 'id') ??
    createHash('sha256')
      .update(`${String(title)}\u0000${created}\u0000${current}`)
      .digest('hex')
      .slice(0, 32)

  const converted = new Map<string, Converted>()
  let lastTime = created ?? 0
  const convert = (nodeId: string): Converted => {
    const known = converted.get(nodeId)
    if (known) return known
    const result = convertNode(r, mapping, nodeId, lastTime)
    if ('message' in result) lastTime = result.message.createdAt
    converted.set(nodeId, result)
    return result
  }
  const pathTo = (leaf: string): string[] => {
    const path: string[] = []
    const seen = new Set<string>()
    for (let node: string | null = leaf; node !== null;) {
      if (seen.has(node)) r.fail(`mapping.${node}.parent`, 'forms a loop')
      seen.add(node)
      path.push(node)
      const entry = r.object(mapping[node], `mapping.${node}`)
      const parent = r.optionalString(entry.parent, `mapping.${node}.parent`)
      if (parent !== null && !(parent in mapping))
        r.fail(`mapping.${node}.parent`, `names node "${parent}", which is not in mapping`)
      node = parent
    }
    return path.reverse()
  }
  const messagesOf = (path: string[]) =>
    path.flatMap((node) => {
      const result = convert(node)
      return 'message' in result ? [result.message] : []
    })

  const skipped: ImportedRecord['skipped'] = {}
  const active = pathTo(current)
  const onActive = new Set(active)
  for (const node of active) {
    const result = convert(node)
    if ('skip' in result) addSkip(skipped, result.skip)
  }
  const name = importTitle(title)
  const main: ImportedThread = {
    key: `chatgpt:${id}`,
    title: name,
    createdAt: created ?? 0,
    updatedAt: updated ?? created ?? 0,
    messages: messagesOf(active)
  }
  fillTimes(main)

  // Abandoned branches: every leaf off the active path, in the order of the file.
  const leaves = Object.keys(mapping).filter((node) => {
    if (onActive.has(node)) return false
    const children = (mapping[node] as { children?: unknown } | null)?.children
    return !Array.isArray(children) || children.length === 0
  })
  const threads = [main]
  const branchOnly = new Set<string>()
  for (const leaf of leaves) {
    const path = pathTo(leaf)
    let shared = 0
    while (shared < path.length && onActive.has(path[shared] as string)) shared++
    const own = path.slice(shared).filter((node) => !branchOnly.has(node))
    for (const node of own) branchOnly.add(node)
    for (const node of own) {
      const result = convert(node)
      if ('skip' in result) addSkip(skipped, result.skip)
    }
    const ownMessages = messagesOf(path.slice(shared))
    if (!options.withBranches) {
      addSkip(skipped, 'branch', messagesOf(own).length)
      continue
    }
    if (ownMessages.length === 0) continue
    const fork: ImportedThread = {
      key: `chatgpt:${id}:${leaf}`,
      title: importTitle(`${name} · ${threads.length + 1}`),
      createdAt: ownMessages[0]?.createdAt ?? main.createdAt,
      updatedAt: ownMessages[ownMessages.length - 1]?.createdAt ?? main.updatedAt,
      messages: messagesOf(path),
      forkOf: { key: main.key, seq: messagesOf(path.slice(0, shared)).length }
    }
    threads.push(fork)
  }
  return { threads, memories: [], skipped }
}

/** Times missing from the file are taken from the messages, so the sidebar can order them. */
function fillTimes(thread: ImportedThread): void {
  const first = thread.messages[0]?.createdAt
  const last = thread.messages[thread.messages.length - 1]?.createdAt
  if (!thread.createdAt && first) thread.createdAt = first
  if (!thread.updatedAt || (last && last > thread.updatedAt))
    thread.updatedAt = last ?? thread.createdAt
}

function convertNode(
  r: FieldReader,
  mapping: Record<string, unknown>,
  nodeId: string,
  previousTime: number
): Converted {
  const at = `mapping.${nodeId}`
  const node = r.object(mapping[nodeId], at)
  if (node.message === undefined || node.message === null) return { skip: 'empty' }
  const message = r.object(node.message, `${at}.message`)
  const author = r.object(message.author, `${at}.message.author`)
  const role = r.string(author.role, `${at}.message.author.role`)
  const metadata =
    message.metadata === undefined || message.metadata === null
      ? {}
      : r.object(message.metadata, `${at}.message.metadata`)
  const content = r.object(message.content, `${at}.message.content`)
  const type = r.string(content.content_type, `${at}.message.content.content_type`)
  if (role === 'system' || SYSTEM_TYPES.has(type)) return { skip: 'system' }
  if (metadata.is_visually_hidden_from_conversation === true) return { skip: 'hidden' }
  if (role === 'tool' || TOOL_TYPES.has(type)) return { skip: 'tool' }
  if (HIDDEN_TYPES.has(type)) return { skip: 'hidden' }
  if (role !== 'user' && role !== 'assistant') return { skip: 'unsupported' }
  // An assistant message addressed to a tool (recipient "python", "browser", ...) is a call.
  if (role === 'assistant' && typeof message.recipient === 'string' && message.recipient !== 'all')
    return { skip: 'tool' }
  if (!TEXT_TYPES.has(type)) return { skip: 'unsupported' }

  const names = attachmentNames(r, metadata, `${at}.message.metadata.attachments`)
  const parts = r.array(content.parts, `${at}.message.content.parts`).map((part, i) => {
    if (typeof part === 'string') return part
    const field = `${at}.message.content.parts.${i}`
    const object = r.object(part, field)
    if (object.content_type === 'image_asset_pointer') {
      const pointer = typeof object.asset_pointer === 'string' ? object.asset_pointer : ''
      const fileId = pointer.replace(/^.*:\/\//, '')
      return `[image: ${names.get(fileId) ?? (fileId || 'image')}]`
    }
    if (typeof object.text === 'string') return object.text // audio transcriptions
    return `[attachment: ${typeof object.name === 'string' ? object.name : 'file'}]`
  })
  const shown = new Set(parts.join('\n').match(/\[(?:image|attachment): [^\]]*\]/g) ?? [])
  for (const [id, name] of names) {
    if (!shown.has(`[image: ${name}]`) && !shown.has(`[image: ${id}]`))
      parts.push(`[attachment: ${name}]`)
  }
  const text = parts.filter((part) => part.trim() !== '').join('\n\n')
  if (text.trim() === '') return { skip: 'empty' }
  return {
    message: {
      role,
      content: text,
      createdAt: r.seconds(message.create_time, `${at}.message.create_time`) ?? previousTime
    }
  }
}

/** metadata.attachments: [{id, name}] -> id -> name. */
function attachmentNames(
  r: FieldReader,
  metadata: Record<string, unknown>,
  field: string
): Map<string, string> {
  const names = new Map<string, string>()
  if (metadata.attachments === undefined || metadata.attachments === null) return names
  r.array(metadata.attachments, field).forEach((item, i) => {
    const attachment = r.object(item, `${field}.${i}`)
    const name = r.optionalString(attachment.name, `${field}.${i}.name`) ?? 'file'
    const id = r.optionalString(attachment.id, `${field}.${i}.id`) ?? name
    names.set(id, name)
  })
  return names
}

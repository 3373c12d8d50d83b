/**
 * Claude's data export (`conversations.json`): each conversation has `chat_messages` in order,
 * each with `sender` (human/assistant), `text` and/or `content` blocks, `created_at` (ISO
 * 8601), and `attachments`/`files` whose content is not carried over (named placeholders).
 */
import type { SkipReason } from '@shared/history'
import {
  addSkip,
  conversationLabel,
  FieldReader,
  type ImportedMessage,
  type ImportedRecord,
  type ImportFormat
} from './importTypes'
import { importTitle } from './importTitle'

export const claudeFormat: ImportFormat = {
  name: 'claude',
  detect: (first) =>
    typeof first === 'object' &&
    first !== null &&
    Array.isArray((first as Record<string, unknown>).chat_messages),
  map: mapConversation
}

function mapConversation(element: unknown, position: number): ImportedRecord {
  const title = (element as { name?: unknown } | null)?.name
  const r = new FieldReader(conversationLabel(position, title))
  const conversation = r.object(element, 'the conversation')
  const id = r.string(conversation.uuid, 'uuid')
  const created = r.isoDate(conversation.created_at, 'created_at')
  const updated = r.isoDate(conversation.updated_at, 'updated_at')
  const skipped: ImportedRecord['skipped'] = {}
  const messages: ImportedMessage[] = []
  let lastTime = created ?? 0
  r.array(conversation.chat_messages, 'chat_messages').forEach((item, i) => {
    const result = convertMessage(r, item, `chat_messages.${i}`, lastTime)
    if ('skip' in result) {
      addSkip(skipped, result.skip)
      return
    }
    if (result.toolBlocks > 0) addSkip(skipped, 'tool', result.toolBlocks)
    lastTime = result.message.createdAt
    messages.push(result.message)
  })
  const first = messages[0]?.createdAt ?? 0
  const last = messages[messages.length - 1]?.createdAt ?? first
  return {
    threads: [
      {
        key: `claude:${id}`,
        title: importTitle(title),
        createdAt: created ?? first,
        updatedAt: Math.max(updated ?? 0, last, created ?? 0),
        messages
      }
    ],
    memories: [],
    skipped
  }
}

function convertMessage(
  r: FieldReader,
  item: unknown,
  at: string,
  previousTime: number
): { message: ImportedMessage; toolBlocks: number } | { skip: SkipReason } {
  const message = r.object(item, at)
  const sender = r.string(message.sender, `${at}.sender`)
  if (sender !== 'human' && sender !== 'assistant') return { skip: 'unsupported' }
  const createdAt = r.isoDate(message.created_at, `${at}.created_at`) ?? previousTime
  let toolBlocks = 0
  const parts: string[] = []
  if (message.content !== undefined && message.content !== null) {
    r.array(message.content, `${at}.content`).forEach((block, i) => {
      const field = `${at}.content.${i}`
      const object = r.object(block, field)
      const type = r.string(object.type, `${field}.type`)
      if (type === 'text') parts.push(r.string(object.text, `${field}.text`))
      else if (type === 'tool_use' || type === 'tool_result') toolBlocks++
      // thinking and other block kinds were not shown as the reply's text
    })
  }
  // Older exports have only `text`; newer ones have both (the same words).
  if (parts.length === 0) parts.push(r.optionalString(message.text, `${at}.text`) ?? '')
  for (const list of ['attachments', 'files'] as const) {
    if (message[list] === undefined || message[list] === null) continue
    r.array(message[list], `${at}.${list}`).forEach((entry, i) => {
      const file = r.object(entry, `${at}.${list}.${i}`)
      const name = r.optionalString(file.file_name, `${at}.${list}.${i}.file_name`) ?? 'file'
      parts.push(`[attachment: ${name}]`)
    })
  }
  const text = parts.filter((part) => part.trim() !== '').join('\n\n')
  if (text.trim() === '') return { skip: toolBlocks > 0 ? 'tool' : 'empty' }
  return {
    message: { role: sender === 'human' ? 'user' : 'assistant', content: text, createdAt },
    toolBlocks
  }
}

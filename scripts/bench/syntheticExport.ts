/**
 * A synthetic ChatGPT data export (`conversations.json`) of any size, written to disk as it is
 * generated (never held whole): each conversation is a `mapping` tree with an empty root, a
 * hidden system node, then alternating user/assistant messages of mixed English and Chinese,
 * and, every fifth conversation, an abandoned branch (an edited question). Seeded, so the same
 * arguments always give the same file.
 */
import { closeSync, openSync, writeSync } from 'node:fs'
import { seededRandom } from './syntheticThread'

const ENGLISH = (
  'the context window budget message summary memory token model request user assistant ' +
  'import export config section order cache provider reply input output because however'
).split(' ')
const CHINESE =
  '我们 需要 这个 函数 上下文 窗口 预算 消息 摘要 记忆 模型 请求 用户 助手 导入 导出'.split(' ')

export interface SyntheticExportSize {
  conversations: number
  /** Messages per conversation on the active branch. */
  messagesPerConversation: number
  /** Characters per message, about. */
  chars?: number
}

function sentence(random: () => number, chars: number): string {
  let out = ''
  while (out.length < chars) {
    const words = random() < 0.3 ? CHINESE : ENGLISH
    out += `${words[Math.floor(random() * words.length)]}${words === CHINESE ? '' : ' '}`
  }
  return out.trim()
}

function node(id: string, parent: string | null, children: string[], message: unknown) {
  return { id, parent, children, message }
}

function message(id: string, role: string, text: string, time: number, hidden = false) {
  return {
    id,
    author: { role, name: null, metadata: {} },
    create_time: time,
    content: { content_type: 'text', parts: [text] },
    status: 'finished_successfully',
    metadata: hidden ? { is_visually_hidden_from_conversation: true } : {},
    recipient: 'all'
  }
}

export function syntheticConversation(index: number, size: SyntheticExportSize, seed = 11) {
  const random = seededRandom(seed * 100_003 + index)
  const chars = size.chars ?? 200
  const start = 1_700_000_000 + index * 3600
  const mapping: Record<string, ReturnType<typeof node>> = {}
  mapping.root = node('root', null, ['sys'], null)
  mapping.sys = node('sys', 'root', [], message('sys', 'system', '', start, true))
  let parent = 'sys'
  for (let i = 0; i < size.messagesPerConversation; i++) {
    const id = `m${i}`
    const role = i % 2 === 0 ? 'user' : 'assistant'
    const text = `${index}-${i} ${sentence(random, chars)}`
    mapping[id] = node(id, parent, [], message(id, role, text, start + i * 10))
    mapping[parent]?.children.push(id)
    parent = id
  }
  if (index % 5 === 0 && size.messagesPerConversation > 2) {
    // An edited first question: its old version and answer stay as an abandoned branch.
    mapping.old = node(
      'old',
      'm0',
      ['oldReply'],
      message('old', 'user', sentence(random, chars), start + 5)
    )
    mapping.oldReply = node(
      'oldReply',
      'old',
      [],
      message('oldReply', 'assistant', sentence(random, chars), start + 6)
    )
    mapping.m0?.children.push('old')
  }
  return {
    title: `Conversation ${index} 对话`,
    create_time: start,
    update_time: start + size.messagesPerConversation * 10,
    conversation_id: `00000000-0000-4000-8000-${String(index).padStart(12, '0')}`,
    current_node: parent,
    mapping
  }
}

/** Writes the export to `path`; returns its size in bytes. */
export function writeSyntheticExport(path: string, size: SyntheticExportSize, seed = 11): number {
  const fd = openSync(path, 'w')
  let bytes = 0
  const write = (text: string) => {
    bytes += writeSync(fd, text)
  }
  try {
    write('[')
    for (let i = 0; i < size.conversations; i++) {
      write(`${i ? ',\n' : '\n'}${JSON.stringify(syntheticConversation(i, size, seed))}`)
    }
    write('\n]\n')
  } finally {
    closeSync(fd)
  }
  return bytes
}

/** One thread as readable Markdown: title, dates, who said what and when, and its summary. */
import type { StoredBuild } from '@shared/context'
import type { Message, Role, ThreadSummaryView } from '@shared/domain'
import type { ExportThreadRow } from '../../store/historyRepository'

export type MarkdownLocale = 'en' | 'zh-CN'

/** The export's labels for a language tag: Chinese for any zh variant, else English. */
export function markdownLocaleFor(language: string): MarkdownLocale {
  return language.startsWith('zh') ? 'zh-CN' : 'en'
}

const LABELS: Record<
  MarkdownLocale,
  Record<Role, string> & {
    created: string
    forkedFrom: string
    summary: string
    pinned: string
    excluded: string
    request: string
  }
> = {
  en: {
    user: 'User',
    assistant: 'Assistant',
    system: 'System',
    tool: 'Tool',
    created: 'Created',
    forkedFrom: 'Branched from conversation {thread} after message {seq}',
    summary: 'Summary (version {version}, up to message {seq})',
    pinned: 'pinned',
    excluded: 'excluded from requests',
    request: 'Request sent'
  },
  'zh-CN': {
    user: '用户',
    assistant: '助手',
    system: '系统',
    tool: '工具',
    created: '创建于',
    forkedFrom: '从对话 {thread} 的第 {seq} 条消息处分支',
    summary: '摘要（第 {version} 版，截至第 {seq} 条消息）',
    pinned: '已置顶',
    excluded: '不发送给模型',
    request: '发送的请求'
  }
}

/** "2024-05-01 14:03 UTC": readable, and the same on every machine. */
function formatDate(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 16).replace('T', ' ')} UTC`
}

/** A fence longer than any backtick run inside, so code in the request cannot close it. */
function fenced(text: string, language: string): string {
  const longest = Math.max(2, ...(text.match(/`+/g) ?? []).map((run) => run.length))
  const fence = '`'.repeat(longest + 1)
  return `${fence}${language}\n${text}\n${fence}`
}

export function markdownThread(
  {
    thread,
    messages,
    summary,
    builds
  }: {
    thread: ExportThreadRow
    messages: readonly Message[]
    summary: ThreadSummaryView | null
    builds: readonly StoredBuild[]
  },
  locale: MarkdownLocale
): string {
  const l = LABELS[locale]
  const out: string[] = [`# ${thread.title}`, '', `*${l.created} ${formatDate(thread.createdAt)}*`]
  if (thread.forkedFromThreadId !== null) {
    out.push(
      '',
      `*${l.forkedFrom.replace('{thread}', thread.forkedFromThreadId).replace('{seq}', String(thread.forkedFromSeq ?? 0))}*`
    )
  }
  if (summary) {
    out.push(
      '',
      `> **${l.summary.replace('{version}', String(summary.version)).replace('{seq}', String(summary.lastMessageSeq))}**`,
      ...summary.content.split('\n').map((line) => `> ${line}`)
    )
  }
  const buildFor = new Map(builds.map((build) => [build.messageId, build]))
  for (const message of messages) {
    const marks = [message.pinned && l.pinned, message.excluded && l.excluded].filter(Boolean)
    out.push(
      '',
      `## ${l[message.role]} · ${formatDate(message.createdAt)}${marks.length ? ` (${marks.join(', ')})` : ''}`,
      '',
      message.content
    )
    const build = buildFor.get(message.id)
    if (build) {
      out.push(
        '',
        `<details><summary>${l.request}</summary>`,
        '',
        fenced(JSON.stringify(build.context.messages, null, 2), 'json'),
        '',
        '</details>'
      )
    }
  }
  out.push('', '---', '', '')
  return out.join('\n')
}

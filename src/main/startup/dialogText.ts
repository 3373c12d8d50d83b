import type { Language } from '@shared/domain'
import type { OpenFailureKind } from '../store/openFailureText'

/**
 * What the main process's store dialogs say, in each language the app speaks. They show before
 * the store is open, so the user's saved language cannot be read: the system's is used
 * (`languageOf(app.getLocale())`, passed in from the Electron entry). Why the store could not
 * be opened is worded in store/openFailureText.ts, the start-up failures in startupError.ts.
 */
export interface DialogText {
  choices: { recover: string; startEmpty: string; retry: string; quit: string; continue: string }
  titles: Record<OpenFailureKind, string>
  recoveryFinished: string
  recoveryFinishedRestart: string
  damagedWhileRunning(path: string, backupPath: string): string
  salvage: {
    nothingRead: string
    recovered(list: string[]): string
    couldNotRead(list: string[]): string
    everythingRead: string
    /** A table of which an unknown number of rows was lost, e.g. "all messages". */
    allOf(table: string): string
    count(n: number, table: string): string
    retitled(n: number, title: string): string
    rebuilding: string
    keptAt(backupPath: string): string
  }
}

/** Salvaged tables in words: [one, many] in English; [name, name with its measure word] in Chinese. */
const ENGLISH_TABLES: Record<string, [string, string]> = {
  threads: ['conversation', 'conversations'],
  messages: ['message', 'messages'],
  thread_summaries: ['summary', 'summaries'],
  message_usage: ['usage record', 'usage records'],
  context_builds: ['inspector build', 'inspector builds'],
  settings: ['setting', 'settings'],
  memories: ['memory', 'memories'],
  memory_history: ['memory history entry', 'memory history entries'],
  mcp_servers: ['MCP server', 'MCP servers']
}

/** The same words as the renderer's recovery notice (i18n/zh-CN/app.ts). */
const CHINESE_TABLES: Record<string, [string, string]> = {
  threads: ['对话', '个对话'],
  messages: ['消息', '条消息'],
  thread_summaries: ['摘要', '条摘要'],
  message_usage: ['用量记录', '条用量记录'],
  context_builds: ['检查器构建', '次检查器构建'],
  settings: ['设置', '项设置'],
  memories: ['记忆', '条记忆'],
  memory_history: ['记忆历史', '条记忆历史'],
  mcp_servers: ['MCP 服务器', '个 MCP 服务器']
}

const english: DialogText = {
  choices: {
    recover: 'Recover what can be read',
    startEmpty: 'Start with an empty database',
    retry: 'Try again',
    quit: 'Quit',
    continue: 'Continue'
  },
  titles: {
    corrupt: 'Your conversations file is damaged.',
    empty: 'Your conversations file is empty.',
    readonly: 'Your conversations file cannot be written.',
    full: 'The disk is full.',
    unreadable: 'Your conversations could not be opened.',
    too_new: 'Your conversations were saved by a newer version of Context Lens.'
  },
  recoveryFinished: 'Recovery finished.',
  recoveryFinishedRestart: 'Recovery finished. Context Lens will restart.',
  damagedWhileRunning: (path, backupPath) =>
    `Part of ${path} can no longer be read. A copy of it as it is now was saved to ${backupPath}. Context Lens can copy everything that can still be read into a new file and restart.`,
  salvage: {
    nothingRead: 'Nothing could be read from the damaged file; the new database is empty.',
    recovered: (list) => `Recovered: ${list.length > 0 ? list.join(', ') : 'nothing'}.`,
    couldNotRead: (list) => `Could not be read: ${list.join(', ')}.`,
    everythingRead: 'Everything could be read.',
    allOf: (table) => `all ${ENGLISH_TABLES[table]?.[1] ?? table}`,
    count: (n, table) => {
      const [one, many] = ENGLISH_TABLES[table] ?? [table, table]
      return `${n} ${n === 1 ? one : many}`
    },
    retitled: (n, title) =>
      `${n} ${n === 1 ? 'conversation' : 'conversations'} lost ${n === 1 ? 'its' : 'their'} title and ${n === 1 ? 'is' : 'are'} now called "${title}".`,
    rebuilding: 'Search and memory recall are rebuilt in the background.',
    keptAt: (backupPath) => `The damaged file is kept unchanged at ${backupPath}.`
  }
}

const chinese: DialogText = {
  choices: {
    recover: '恢复仍可读取的内容',
    startEmpty: '使用空数据库开始',
    retry: '重试',
    quit: '退出',
    continue: '继续'
  },
  titles: {
    corrupt: '你的对话文件已损坏。',
    empty: '你的对话文件是空的。',
    readonly: '你的对话文件无法写入。',
    full: '磁盘已满。',
    unreadable: '无法打开你的对话。',
    too_new: '你的对话是由更新版本的 Context Lens 保存的。'
  },
  recoveryFinished: '恢复完成。',
  recoveryFinishedRestart: '恢复完成。Context Lens 将重新启动。',
  damagedWhileRunning: (path, backupPath) =>
    `${path} 中有一部分已经无法读取。它当前状态的副本已保存到 ${backupPath}。Context Lens 可以把仍可读取的内容全部复制到一个新文件中，然后重新启动。`,
  salvage: {
    nothingRead: '损坏的文件中没有任何内容可以读取，新的数据库是空的。',
    recovered: (list) => `已恢复：${list.length > 0 ? list.join('、') : '无'}。`,
    couldNotRead: (list) => `无法读取：${list.join('、')}。`,
    everythingRead: '所有内容都已读取。',
    allOf: (table) => `全部${CHINESE_TABLES[table]?.[0] ?? table}`,
    count: (n, table) => `${n} ${CHINESE_TABLES[table]?.[1] ?? table}`,
    retitled: (n, title) => `${n} 个对话的标题已丢失，现在名为“${title}”。`,
    rebuilding: '搜索和记忆召回会在后台重建。',
    keptAt: (backupPath) => `损坏的文件原样保留在 ${backupPath}。`
  }
}

export const DIALOG_TEXT: Record<Language, DialogText> = { en: english, 'zh-CN': chinese }

/** The app's language for a system locale (`zh`, `zh-CN`, `zh-Hans-CN`, ...); English otherwise. */
export function languageOf(locale: string | undefined): Language {
  return locale?.toLowerCase().startsWith('zh') ? 'zh-CN' : 'en'
}

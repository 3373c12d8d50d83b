/** Plain data shapes shared by main, preload and renderer. No behaviour lives here. */
import type { StoredBuild } from './context'

export type Role = 'system' | 'user' | 'assistant' | 'tool'

export interface ToolCall {
  id: string
  name: string
  /** JSON text exactly as the model produced it. */
  arguments: string
}

export interface Thread {
  id: string
  title: string
  createdAt: number
  updatedAt: number
  settings: Record<string, unknown>
}

export interface ThreadListItem extends Thread {
  messageCount: number
  lastMessagePreview: string | null
}

export interface Message {
  id: number
  threadId: string
  seq: number
  role: Role
  content: string
  toolCalls: ToolCall[] | null
  toolCallId: string | null
  tokenCount: number
  createdAt: number
  pinned: boolean
  excluded: boolean
}

export interface SearchHit {
  kind: 'thread' | 'message'
  threadId: string
  threadTitle: string
  messageId: number | null
  seq: number | null
  role: Role | null
  /** A short excerpt around the first match, plain text. */
  snippet: string
  createdAt: number
}

export type LocalePreference = 'system' | 'en' | 'zh-CN'

export interface AppSettings {
  locale: LocalePreference
  inspectorOpen: boolean
  /** The system section of every build. */
  systemPrompt: string
}

export interface AppInfo {
  version: string
  systemLocale: string
  databasePath: string
  /** Set when the store had to be recovered from a corrupt file at start-up. */
  recoveredFromBackup: string | null
}

/** The message is stored; no model provider exists yet, so no reply follows. */
export interface SendOutcome {
  message: Message
  status: 'no_model_configured'
  /** The request that would be sent, as the inspector shows it; null if building failed. */
  build: StoredBuild | null
  /** Why there is no build; the message is stored regardless. */
  buildError: string | null
}

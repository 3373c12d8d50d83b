/** What "/compress [focus]" reports back to the renderer (`summary.compress`), and summary history. */
import type { Message, ThreadSummaryView } from './domain'

/** The longest focus topic the composer may send. */
export const MAX_FOCUS_CHARS = 500

export type SummaryCompressResult =
  | {
      status: 'compressed'
      summary: ThreadSummaryView
      /** Messages folded into the summary by this compression (excluded ones not counted). */
      compressedMessages: number
      /** Their stored tokens: what the request no longer sends verbatim. */
      compressedTokens: number
      /** Messages still sent verbatim after the summary. */
      tailMessages: number
      focusTopic: string | null
      /** Set when the model failed (or returned nothing) and the extractive summary was used. */
      modelError: string | null
    }
  /** Nothing before the protected tail is left to fold; the summary is unchanged. */
  | { status: 'nothing_to_compress'; reason: 'empty' | 'all_in_tail'; tailMessages: number }
  /** The user edited the summary while this ran: the edit stays, this result was dropped. */
  | { status: 'superseded' }
  /** Every summary written was not smaller than what it would replace: the old one stays. */
  | { status: 'not_smaller'; summaryTokens: number; replacedTokens: number }

/** auto: a background update; compress: "/compress"; edit: the user's; restore: an older version brought back. */
export type SummaryVersionKind = 'auto' | 'compress' | 'edit' | 'restore'

/** One stored summary version (summary_versions). */
export interface SummaryVersionView {
  threadId: string
  version: number
  content: string
  lastMessageSeq: number
  source: ThreadSummaryView['source']
  kind: SummaryVersionKind
  /** The messages this version folded in (its "before"), oldest first. */
  foldedIds: number[]
  /** Tokens of what it replaced: the previous summary plus the folded messages. */
  replacedTokens: number
  summaryTokens: number
  createdAt: number
}

/** A version beside what it replaced: the previous version and the messages it folded in. */
export interface SummaryComparison {
  version: SummaryVersionView
  previous: SummaryVersionView | null
  /** The folded messages that still exist, oldest first. */
  replaced: Message[]
}

/** Whether automatic summaries run for a thread, and what is waiting. */
export interface SummaryAutomationStatus {
  threadId: string
  /** Consecutive automatic updates that failed or were rejected. */
  failures: number
  /** Stopped after too many failures until the user presses Retry. */
  paused: boolean
  lastError: string | null
  /** The summary covers a message that was edited or excluded since (see staleSinceSeq). */
  stale: boolean
  /** An update will run after the next turn (stale, or the window's cut moved). */
  scheduled: boolean
  running: boolean
}

/** What "/compress [focus]" reports back to the renderer (`summary.compress`). */
import type { ThreadSummaryView } from './domain'

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

/**
 * The moments of one turn, reported as they happen so the whole-turn benchmark
 * (scripts/bench/wholeTurn.ts) can split a send into stages without a second code path. The
 * app passes none; calling it must not throw or block.
 */
export type TurnMark =
  /** Memory search is asked (everything before it: counting, storing, per-thread state). */
  | 'search_start'
  | 'search_end'
  /** The request is built (the safety net's rebuilds included). */
  | 'built'
  /** The HTTP request is handed to fetch, its body serialised. */
  | 'request_sent'
  /** The build is stored for the inspector (after the request left). */
  | 'saved'

export type TurnProbe = (threadId: string, mark: TurnMark) => void

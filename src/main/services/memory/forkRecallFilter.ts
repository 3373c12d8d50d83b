import type { MemoryCandidate } from '@shared/context'
import type { ForkLink } from '../../store/forkRepository'

/** What the filter reads about fork lineage (ForkRepository in the app). */
export interface ForkLineage {
  /** The thread's origins, nearest first (a fork of a fork has two). */
  ancestry(threadId: string): ForkLink[]
  places(
    messageIds: readonly number[]
  ): Map<number, { threadId: string; seq: number; forkedAtSeq: number | null }>
}

/**
 * Recall searches the messages of every thread, so a fork would find its origin's later
 * messages there: the branch it left. This leaves out, for the thread being built:
 * - every message of its ancestors: after the fork point it is the other branch, before it a
 *   duplicate of the fork's own copy (which recall can find in the fork itself);
 * - in any other thread, the part it copied from its own origin (seq at or before its fork
 *   point): a duplicate of the original, and for a sibling fork possibly a later message of a
 *   shared ancestor.
 * Memories (curated facts) are global and always pass.
 */
export function leaveOutOtherBranches(
  threadId: string,
  candidates: MemoryCandidate[],
  lineage: ForkLineage
): MemoryCandidate[] {
  const messageIds = candidates.flatMap((c) =>
    c.messageId === undefined ? [] : [Number(c.messageId)]
  )
  if (messageIds.length === 0) return candidates
  const ancestors = new Set(lineage.ancestry(threadId).map((link) => link.threadId))
  const places = lineage.places(messageIds)
  return candidates.filter((candidate) => {
    if (candidate.messageId === undefined) return true
    const place = places.get(Number(candidate.messageId))
    // Deleted since it was found: nothing of it can be sent.
    if (!place) return false
    if (ancestors.has(place.threadId)) return false
    return (
      place.threadId === threadId || place.forkedAtSeq === null || place.seq > place.forkedAtSeq
    )
  })
}

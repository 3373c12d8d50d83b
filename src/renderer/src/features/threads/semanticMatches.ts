import type { MemorySearchHit, SearchHit } from '@shared/domain'

/** A message hit of `memory.search` that the sidebar can open. */
export type SemanticHit = MemorySearchHit & { kind: 'message'; threadId: string }

/**
 * The "related by meaning" group: messages the vector search matched (a text-only match is
 * what the full-text group already shows, with better snippets), minus any message the
 * full-text group lists already.
 */
export function semanticMatches(exact: SearchHit[], semantic: MemorySearchHit[]): SemanticHit[] {
  const shown = new Set(exact.map((hit) => hit.messageId).filter((id) => id !== null))
  return semantic.filter(
    (hit): hit is SemanticHit =>
      hit.kind === 'message' &&
      hit.threadId !== null &&
      hit.matchedBy.includes('vector') &&
      !shown.has(hit.id)
  )
}

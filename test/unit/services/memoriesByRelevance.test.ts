import { describe, expect, it } from 'vitest'
import type { MemorySearchHit } from '@shared/domain'
import { memoriesByRelevance } from '../../../src/main/services/memory/searchHits'

const hit = (
  kind: MemorySearchHit['kind'],
  id: number,
  score: number,
  relevance?: number
): MemorySearchHit => ({
  kind,
  ref: `${kind}:${id}`,
  id,
  content: `${kind} ${id}`,
  score,
  similarity: relevance ?? null,
  cosine: null,
  matchedBy: ['vector'],
  category: null,
  ...(relevance !== undefined && { relevance }),
  threadId: null,
  threadTitle: null,
  messageId: null,
  seq: null,
  role: null,
  createdAt: 0
})

const order = (hits: MemorySearchHit[]) =>
  [...hits].sort((a, b) => b.score - a.score).map((h) => h.ref)

describe('memoriesByRelevance', () => {
  it('puts the most relevant memory first, on the best score a memory earned', () => {
    // Fused ranks put a memory that shares a common word (m1) ahead of the one the question
    // implies (m2); messages rank between them.
    const hits = [
      hit('memory', 1, 0.9, 0.58),
      hit('message', 7, 0.8, 0.7),
      hit('memory', 2, 0.5, 0.66),
      hit('message', 8, 0.4, 0.6),
      hit('memory', 3, 0.3, 0.62)
    ]
    const placed = memoriesByRelevance(hits)
    expect(order(placed)).toEqual(['memory:2', 'message:7', 'memory:3', 'message:8', 'memory:1'])
    expect(placed.find((h) => h.ref === 'memory:2')?.score).toBe(0.9)
    // Messages, and everything but a memory's score, are as they were.
    expect(placed.filter((h) => h.kind === 'message')).toEqual(
      hits.filter((h) => h.kind === 'message')
    )
    expect(placed.find((h) => h.ref === 'memory:1')).toMatchObject({ relevance: 0.58, score: 0.3 })
  })

  it('leaves a list without relevance (an ungated search) as it is', () => {
    const hits = [hit('memory', 1, 0.9), hit('memory', 2, 0.5)]
    expect(memoriesByRelevance(hits)).toEqual(hits)
  })
})

import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CachedEmbedder, EmbeddingCache } from '../../scripts/eval/embeddingCache'
import { parseDataset, type EvalDataset } from '../../scripts/eval/format'
import { evaluate, type EvaluationResult } from '../../scripts/eval/runner'
import type { EmbeddingClient } from '../../src/main/workers/embedding/embeddingClient'
import { defaultModel, prepareEmbeddings, testEmbedder } from '../support/embeddings'
import { useTempDir } from '../support/tempDir'

/**
 * The evaluator end to end on a tiny hand-made dataset: real SQLite stores through the app's
 * repositories and services, the real embedding model behind the on-disk cache, and the
 * metric arithmetic checked against what each build must contain.
 */

const tempDir = useTempDir()
let client: EmbeddingClient

beforeAll(async () => {
  client = testEmbedder(await prepareEmbeddings())
  await client.ready()
}, 300_000)

afterAll(async () => {
  await client?.close()
})

const FILLER = [
  'The tomatoes need more sun, so I moved the pots to the south side of the yard.',
  'That sounds sensible; tomatoes like six to eight hours of direct light a day.',
  'I also bought a new watering can with a long spout for the hanging baskets.',
  'A long spout helps reach the roots without splashing the leaves, which limits mildew.',
  'The neighbour gave me cuttings of rosemary and thyme from her herb garden.',
  'Rosemary and thyme root well in sandy soil; keep them slightly dry between waterings.'
]

function chatMessages() {
  const start = Date.parse('2024-04-01T09:00:00Z')
  const texts = [
    'My sister Marguerite moved to Quebec City last spring to teach chemistry.',
    ...Array.from({ length: 10 }, () => FILLER).flat(),
    'Tomorrow I will repot the basil on the balcony into a bigger terracotta pot.'
  ]
  return texts.map((content, i) => ({
    id: `chat-${i + 1}`,
    role: i % 2 === 0 ? ('user' as const) : ('assistant' as const),
    content,
    created_at: new Date(start + i * 60_000).toISOString()
  }))
}

function tinyDataset(): EvalDataset {
  const messages = chatMessages()
  const last = messages.at(-1)!
  return parseDataset({
    format: 'context-eval/1',
    name: 'tiny/garden',
    threads: [{ id: 'chat', title: 'Garden', messages }],
    memories: [{ id: 'mem-1', content: 'The user is allergic to peanuts.', category: 'fact' }],
    questions: [
      {
        id: 'q-last',
        thread_id: 'chat',
        question: 'What will I repot tomorrow?',
        evidence: [last.id],
        category: 'recent'
      },
      {
        id: 'q-old',
        thread_id: 'chat',
        question: 'Where did Marguerite move?',
        evidence: ['chat-1'],
        category: 'old'
      },
      {
        id: 'q-new',
        thread_id: 'fresh-1',
        scope_thread_ids: ['chat'],
        question: 'Which city did my sister Marguerite move to?',
        evidence: ['chat-1'],
        category: 'old'
      },
      {
        id: 'q-empty',
        thread_id: 'chat',
        question: 'Anything else I should know?',
        evidence: [],
        category: 'recent'
      },
      {
        // Asked a minute before the last message was written: it cannot be in the history.
        id: 'q-late',
        thread_id: 'fresh-2',
        scope_thread_ids: ['chat'],
        asked_at: new Date(Date.parse(last.created_at) - 30_000).toISOString(),
        question: 'What will I repot tomorrow?',
        evidence: [last.id, 'no-such-id'],
        category: 'recent'
      },
      {
        id: 'q-mem',
        thread_id: 'fresh-3',
        question: 'Am I allergic to peanuts?',
        evidence: ['mem-1'],
        category: 'memory'
      }
    ]
  })
}

describe('npm run eval on a tiny dataset', () => {
  let result: EvaluationResult
  let cacheDir: string

  beforeAll(async () => {
    // Outlives the tests (useTempDir's folders go after each one): the rerun reads it.
    cacheDir = mkdtempSync(join(tmpdir(), 'context-lens-eval-cache-'))
    const { spec } = defaultModel()
    const { dimension } = await client.ready()
    const cache = new EmbeddingCache(cacheDir, { spec, dimension, weights: null })
    try {
      result = await evaluate(tinyDataset(), {
        budgets: [1000],
        strategies: ['builder', 'window'],
        embedder: { embedder: new CachedEmbedder(client, cache), spec },
        tmpDir: tempDir()
      })
    } finally {
      cache.close()
    }
  }, 180_000)

  afterAll(() => {
    if (cacheDir) rmSync(cacheDir, { recursive: true, force: true })
  })

  const row = (strategy: string) => result.results.find((r) => r.strategy === strategy)!
  const found = (strategy: string, questionId: string) =>
    result.records.find((r) => r.strategy === strategy && r.questionId === questionId)?.found

  it('loads one store per distinct visible history and counts the evidence it cannot see', () => {
    // chat + memory (q-last, q-old, q-empty, q-new, q-mem); chat up to asked_at (q-late)
    expect(result.stores).toBe(2)
    expect(result.questions).toBe(6)
    expect(result.unknownEvidence).toBe(1)
    expect(result.unreachableEvidence).toBe(1)
  })

  it('window: only what the recent window holds, nothing in a new thread', () => {
    const window = row('window')
    expect(window).toMatchObject({ questions: 5, control_questions: 1, retrieved_share: 0 })
    // q-last 1/1, q-old 0/1, q-new 0/1, q-late 0/1 (unreachable), q-mem 0/1
    expect(window.evidence_recall).toBe(0.2)
    expect(window.all_evidence_rate).toBe(0.2)
    expect(window.by_category).toMatchObject({
      memory: { questions: 1, evidence_recall: 0, all_evidence_rate: 0 },
      old: { questions: 2, evidence_recall: 0, all_evidence_rate: 0 },
      recent: { questions: 2, evidence_recall: 0.5, all_evidence_rate: 0.5 }
    })
    expect(window.mean_context_tokens).toBeLessThanOrEqual(1000)
  })

  it('builder: recall brings back the old message and the memory, within the budget', () => {
    expect(found('builder', 'q-last')).toBe(1)
    expect(found('builder', 'q-old')).toBe(1)
    expect(found('builder', 'q-new')).toBe(1)
    expect(found('builder', 'q-mem')).toBe(1)
    expect(found('builder', 'q-late')).toBe(0)
    const builder = row('builder')
    expect(builder.evidence_recall).toBe(0.8)
    expect(builder.retrieved_share).toBe(0.75)
    expect(builder.builds_with_upstream_warnings).toBe(0)
    expect(builder.mean_context_tokens).toBeLessThanOrEqual(1000)
    expect(builder.p95_build_ms).toBeGreaterThanOrEqual(builder.p50_build_ms)
  })

  it('embeds each text once: a second run reads every vector from the cache', async () => {
    expect(result.embedding?.embedded).toBeGreaterThan(0)
    const { spec } = defaultModel()
    const { dimension } = await client.ready()
    const cache = new EmbeddingCache(cacheDir, { spec, dimension, weights: null })
    try {
      const again = await evaluate(tinyDataset(), {
        budgets: [1000],
        strategies: ['builder'],
        embedder: { embedder: new CachedEmbedder(client, cache), spec },
        tmpDir: tempDir()
      })
      expect(again.embedding).toMatchObject({ embedded: 0, cacheMisses: 0 })
      expect(again.results[0]?.evidence_recall).toBe(row('builder').evidence_recall)
    } finally {
      cache.close()
    }
  }, 120_000)
})

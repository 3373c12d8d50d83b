/**
 * Messages longer than e5's 512-token window: the worker embeds their first and last halves
 * (spec `longText: 'head+tail'`), so what a user wrote at the end of a long message can still
 * be found. Real model (the converted multilingual-e5-small), real worker.
 */
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { EmbeddingClient } from '../../src/main/workers/embedding/embeddingClient'
import { modelSpec } from '../../src/main/workers/embedding/embeddingModels'
import { E5_MODEL_ID } from '../../src/shared/embeddingModelIds'
import { e5Model, prepareEmbeddings, testEmbedder } from '../support/embeddings'

const fixture = JSON.parse(
  readFileSync(resolve(import.meta.dirname, '../fixtures/e5-fidelity.json'), 'utf8')
) as { sentences: string[] }
const english = fixture.sentences.filter((s) => /^[\x20-\x7e]+$/.test(s))

/** About 1,200 tokens of unrelated everyday sentences. */
const filler = (offset: number) =>
  Array.from({ length: 70 }, (_, i) => english[(offset + i * 7) % english.length]).join(' ')

const NEEDLE =
  'By the way, my violin lessons moved to Tuesday evenings with a new teacher called Ruth.'
const QUERY = 'When are my violin lessons now?'

let app: EmbeddingClient
let headOnly: EmbeddingClient

beforeAll(async () => {
  const workerPath = await prepareEmbeddings()
  app = testEmbedder(workerPath, e5Model())
  // The same model cut the old way, to show what the policy changes.
  headOnly = testEmbedder(workerPath, {
    ...e5Model(),
    spec: modelSpec(E5_MODEL_ID, { longText: 'head' })
  })
  await Promise.all([app.ready(), headOnly.ready()])
}, 600_000)
afterAll(async () => {
  await app?.close()
  await headOnly?.close()
})

const dot = (a: Float32Array, b: Float32Array) => a.reduce((s, x, i) => s + x * (b[i] as number), 0)

/** The query's cosine to each message, under one client. */
async function scores(client: EmbeddingClient, messages: string[]): Promise<number[]> {
  const [query] = await client.embed([QUERY], { role: 'query' })
  const vectors = await client.embed(messages)
  return vectors.map((v) => dot(query!, v))
}

describe('long messages on multilingual-e5-small', () => {
  it('finds a fact stated at the end of a message longer than the window', async () => {
    const withNeedle = `${filler(0)} ${NEEDLE}`
    const others = [filler(3), filler(5), filler(11)]
    const [needle, ...rest] = await scores(app, [withNeedle, ...others])
    expect(needle).toBeGreaterThan(Math.max(...rest))

    // Cut to its start, the message no longer says anything about violin lessons.
    const [needleHead, ...restHead] = await scores(headOnly, [withNeedle, ...others])
    expect(needle! - Math.max(...rest)).toBeGreaterThan(needleHead! - Math.max(...restHead) + 0.01)
  })

  it('embeds a message that fits the window exactly as before', async () => {
    const short = `${english.slice(0, 8).join(' ')} ${NEEDLE}`
    const [a] = await app.embed([short])
    const [b] = await headOnly.embed([short])
    expect(dot(a!, b!)).toBeGreaterThan(0.9999)
  })
})

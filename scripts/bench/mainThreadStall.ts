/**
 * How long the main thread stalls while a user sends, or types on in, a huge paste: the real
 * services (TurnService.send, ContextBuildService.preview) on a real SQLite file with the app's
 * search workers (full-text lists, the log's checkpoints), gpt-4o (o200k,
 * 128k window, so the safety net trims the input), no model configured (the send stores the
 * message and builds the request). Stalls are measured with `monitorEventLoopDelay`, the same
 * figure a user feels as a frozen window and queued IPC.
 *
 * Baseline, in the same run: the counting the old code did synchronously on the main thread
 * (one gpt-tokenizer count of the whole text; the old send did at least this, its build and
 * safety net did more), on a smaller input, because the old count is quadratic in a run
 * without breaks and would take minutes at 2 M characters.
 */
import { clearMergeCache, countTokens } from 'gpt-tokenizer/encoding/o200k_base'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { monitorEventLoopDelay } from 'node:perf_hooks'
import type { BuiltContext } from '@shared/context'
import { benchServices } from './benchServices'
import { longestStall } from './longestStall'
import { openDatabase } from '../../src/main/store/database'
import { INDEXED_CHARS } from '../../src/main/store/schema/searchIndexBounds'
import {
  closeSearchWorkers,
  startSearchWorkers
} from '../../src/main/workers/search/searchWorkerClient'
import { seededRandom, syntheticText } from './syntheticThread'

export const INPUT_KINDS = [
  'base64',
  'minified JS',
  'Chinese',
  'mixed',
  'letters only',
  'one letter repeated',
  'one Chinese character repeated',
  'repeated trigram',
  'digits'
] as const
export type InputKind = (typeof INPUT_KINDS)[number]

/**
 * Kinds that are one run without a break, quadratic for plain BPE: their old count is measured
 * on 20,000 characters (200,000 of one Chinese character took 5.5 minutes).
 */
const RUNS_WITHOUT_BREAKS: readonly InputKind[] = [
  'letters only',
  'one letter repeated',
  'one Chinese character repeated',
  'repeated trigram'
]

interface Stall {
  p50: number
  p99: number
  max: number
}

export interface StallFigures {
  kind: InputKind
  chars: number
  send: {
    ms: number
    stall: Stall
    counted: string
    ftsWriteMs: number
    /** From the call until the message is in the store (what an app closed meanwhile keeps). */
    storedMs: number
    /** From the call until the stored message has its exact count (counted after the request). */
    countedMs: number
  }
  /** The same text sent after its preview counted it (pasted, a look at the inspector, send). */
  typedSend: { ms: number; stall: Stall }
  /** Another text of the kind sent the moment its preview returned, its count just begun. */
  glancedSend: { ms: number; stall: Stall }
  /** The paste's preview (estimated) and its exact count in the background. */
  paste: { ms: number; stall: Stall; counted: string }
  /** Per keystroke after it: the preview's latency behind the keystroke, and the stall. */
  preview: { keystrokes: number; lagP50: number; lagMax: number; stall: Stall; counted: string }
  baseline: { chars: number; countMs: number }
}

/**
 * Seeded inputs of `chars` characters, as one flat string, the way IPC hands the renderer's
 * paste to the main process. A string built by `+=` is a tree of up to millions of pieces:
 * the first use inside a measured send flattened it, and the garbage collector marked the live
 * tree in one 74-111 ms pause that no paste from the window causes.
 */
export function hugeInput(kind: InputKind, chars: number, seed = 5): string {
  return structuredClone(generated(kind, chars, seed))
}

function generated(kind: InputKind, chars: number, seed: number): string {
  const random = seededRandom(seed)
  const pick = (alphabet: string) => alphabet[Math.floor(random() * alphabet.length)] as string
  let out = ''
  switch (kind) {
    case 'base64': {
      const bytes = Buffer.alloc(Math.ceil((chars * 3) / 4))
      for (let i = 0; i < bytes.length; i++) bytes[i] = Math.floor(random() * 256)
      return bytes.toString('base64').slice(0, chars)
    }
    case 'minified JS':
      while (out.length < chars) {
        const id = () =>
          pick('abcdefghijklmnopqrstuvwxyz_$') + pick('abcdefghijklmnopqrstuvwxyz0123456789')
        out += pick([
          `function ${id()}(${id()},${id()}){return ${id()}.${id()}(${id()})+${Math.floor(random() * 1000)}}`,
          `var ${id()}=${id()}||{};${id()}[${id()}]=!0;`,
          `if(${id()}===null)throw new Error("${id()} missing");`,
          `${id()}.prototype.${id()}=function(){return this.${id()}&&this.${id()}.length>${Math.floor(random() * 9)}};`
        ] as unknown as string)
      }
      return out.slice(0, chars)
    case 'Chinese':
      return syntheticText('chinese', chars, seed)
    case 'mixed':
      while (out.length < chars) {
        out += `${syntheticText(random() < 0.5 ? 'english' : 'chinese', 400, Math.floor(random() * 1e9))}\n`
        out += `const v${Math.floor(random() * 100)} = await build(${JSON.stringify({ ok: true, n: Math.floor(random() * 1e6) })})\n`
      }
      return out.slice(0, chars)
    // Pasted progress bars, padding and repeated tails (issue #22): the worst case for a
    // trigram phrase query, once the paste is stored and the next search meets it.
    case 'one letter repeated':
      return 'a'.repeat(chars)
    case 'one Chinese character repeated':
      return '哈'.repeat(chars)
    case 'repeated trigram':
      return 'abc'.repeat(Math.ceil(chars / 3)).slice(0, chars)
    case 'digits':
      return '1234567890'.repeat(Math.ceil(chars / 10)).slice(0, chars)
    case 'letters only':
      // Lower case only: one pre-tokenizer piece (a change of case would start a new one).
      while (out.length < chars) out += pick('abcdefghijklmnopqrstuvwxyz')
      return out
  }
}

/** Runs `work` while recording event-loop delay; returns what it returned and the stall figures. */
async function measured<T>(
  work: () => Promise<T>
): Promise<{ value: T; ms: number; stall: Stall }> {
  const histogram = monitorEventLoopDelay({ resolution: 5 })
  histogram.enable()
  const start = performance.now()
  let ms = 0
  const { value, max } = await longestStall(async () => {
    const value = await work()
    ms = performance.now() - start
    return value
  })
  histogram.disable()
  const toMs = (ns: number) => ns / 1e6
  return {
    value,
    ms,
    stall: {
      p50: toMs(histogram.percentile(50)),
      p99: toMs(histogram.percentile(99)),
      max: Math.max(toMs(histogram.max), max)
    }
  }
}

const countingOf = (context: BuiltContext | undefined): string =>
  context?.trace.find((entry) => entry.id === 'input')?.counting ?? 'none'

/** `searchWorkerPath`: the search workers, as the app runs them (full text, log checkpoints). */
export async function stallFigures(
  kind: InputKind,
  quick: boolean,
  searchWorkerPath: string
): Promise<StallFigures> {
  const chars = quick ? 500_000 : 2_000_000
  const keystrokes = quick ? 4 : 10
  const text = hugeInput(kind, chars)
  const dir = mkdtempSync(join(tmpdir(), 'context-lens-stall-'))
  const path = join(dir, 'store.sqlite')
  const db = openDatabase(path)
  const searchWorkers = startSearchWorkers(searchWorkerPath, { databasePath: path })
  try {
    const services = benchServices(db, path, {
      searchWorkers,
      detectOllama: async () => ({ found: false, baseUrl: '', reason: 'not_running' })
    })

    // The paste itself: its preview is estimated, and the exact count starts in the background.
    const typing = services.threads.create()
    // Another text of the same kind: the send's count must not be reused by the preview.
    let draft = hugeInput(kind, chars, 6)
    const paste = await measured(async () => {
      const built = await services.context.preview(typing.id, draft)
      await services.context.drafts.settled()
      return countingOf(built)
    })
    // Then typing at the end, one preview per keystroke.
    const lags: number[] = []
    let previewCounting = 'none'
    const preview = await measured(async () => {
      for (let k = 0; k < keystrokes; k++) {
        draft += k % 5 === 4 ? ' ' : 'x'
        const start = performance.now()
        const built = await services.context.preview(typing.id, draft)
        lags.push(performance.now() - start)
        previewCounting = countingOf(built)
      }
    })
    lags.sort((a, b) => a - b)
    const lagP50 = lags[Math.floor(lags.length / 2)] as number

    const thread = services.threads.create()
    // Cold, as a first paste: nothing of the preview's text stays in gpt-tokenizer's cache.
    clearMergeCache()
    const inStore = db.prepare('SELECT 1 FROM messages WHERE thread_id = ?').pluck()
    let storedMs = Number.NaN
    const sendStarted = performance.now()
    const watch = setInterval(() => {
      if (Number.isNaN(storedMs) && inStore.get(thread.id)) {
        storedMs = performance.now() - sendStarted
      }
    }, 5)
    const send = await measured(() => services.chat.send(thread.id, text))
    clearInterval(watch)
    if (Number.isNaN(storedMs)) storedMs = send.ms
    const outcome = send.value
    const stored = services.messages.list(thread.id).at(-1)
    if (stored?.content !== text) throw new Error(`the ${kind} paste was not stored whole`)
    // A paste far over the window was counted at its ends for the request; the rest now.
    await services.chat.recounted()
    const countedMs = performance.now() - sendStarted

    // As the composer sends it: the paste's preview counted it while the user looked.
    const typed = services.threads.create()
    await services.context.preview(typed.id, text)
    await services.context.drafts.settled()
    const typedSend = await measured(() => services.chat.send(typed.id, text))

    // Pasted, a glance at the inspector, Enter: the preview's count has only begun, and the
    // send takes the ends from it (DraftCounts). Cold, as a text nobody counted before.
    clearMergeCache()
    const glanced = services.threads.create()
    const another = hugeInput(kind, chars, 7)
    await services.context.preview(glanced.id, another)
    const glancedSend = await measured(() => services.chat.send(glanced.id, another))
    await services.context.drafts.settled()
    await services.chat.recounted()

    // What the store's full-text index alone costs for this text (the messages_fts trigger
    // runs inside the send's INSERT, synchronously, on the first INDEXED_CHARS): the part of
    // the send's stall that is not counting.
    db.exec("CREATE VIRTUAL TABLE bench_fts USING fts5 (content, tokenize = 'trigram')")
    const ftsStart = performance.now()
    db.prepare('INSERT INTO bench_fts (content) VALUES (substr(?, 1, ?))').run(text, INDEXED_CHARS)
    const ftsWriteMs = performance.now() - ftsStart

    // The old path: one synchronous count of the whole text, the least the old send did.
    const baselineChars = RUNS_WITHOUT_BREAKS.includes(kind) ? 20_000 : 200_000
    const sample = text.slice(0, baselineChars)
    clearMergeCache()
    const start = performance.now()
    countTokens(sample, { disallowedSpecial: new Set() })
    const countMs = performance.now() - start

    return {
      kind,
      chars,
      send: {
        ms: send.ms,
        stall: send.stall,
        counted: countingOf(outcome.build?.context),
        ftsWriteMs,
        storedMs,
        countedMs
      },
      typedSend: { ms: typedSend.ms, stall: typedSend.stall },
      glancedSend: { ms: glancedSend.ms, stall: glancedSend.stall },
      paste: { ms: paste.ms, stall: paste.stall, counted: paste.value },
      preview: {
        keystrokes,
        lagP50,
        lagMax: lags.at(-1) as number,
        stall: preview.stall,
        counted: previewCounting
      },
      baseline: { chars: baselineChars, countMs }
    }
  } finally {
    await closeSearchWorkers(searchWorkers)
    db.close()
    rmSync(dir, { recursive: true, force: true })
  }
}

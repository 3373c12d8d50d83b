/**
 * Issue #22: no paste stalls search. Pathological pastes (a run of one letter or one Chinese
 * character, a repeated trigram, base64, minified JavaScript, digits, mixed prose) go through
 * the real TurnService and ContextBuildService on a real SQLite file holding 10,000 messages, in
 * threads opened as the app opens them. The send stores each paste, so the next search meets
 * it, the worst case for a phrase query: a 40,000-letter paste once held the main thread for
 * 6.6 s in the recall query alone. Stalls are the longest gap of a 1 ms timer
 * (`longestStall`); the inputs are made before each measurement.
 */
import { join } from 'node:path'
import { beforeAll, describe, expect, it, onTestFinished } from 'vitest'
import { longestStall } from '../../scripts/bench/longestStall'
import { hugeInput, INPUT_KINDS } from '../../scripts/bench/mainThreadStall'
import { syntheticText } from '../../scripts/bench/syntheticThread'
import { openDatabase } from '../../src/main/store/database'
import { MessageRepository } from '../../src/main/store/messageRepository'
import {
  closeSearchWorkers,
  startSearchWorkers
} from '../../src/main/workers/search/searchWorkerClient'
import { prepareSearchWorker } from '../support/embeddings'
import { servicesIn } from '../support/services'
import { useTempDir } from '../support/tempDir'

const tempDir = useTempDir()

/**
 * Three times the issue's 50 ms, for a loaded CI machine: the worst measured here is 46 ms
 * (2 idle cores, the write of 2 M characters of Chinese); the bench reports the real figures
 * (docs/CONTEXT.md, "Under 50 ms"). The 2 M limit was 250 ms while the tests' inputs were
 * built by `+=` and the garbage collector marked them inside the send (74-111 ms).
 */
const STALL_LIMIT_MS = 150

let workerPath: string
beforeAll(async () => {
  workerPath = await prepareSearchWorker()
}, 120_000)

describe('a pasted text through send and preview, on a store of 10,000 messages', () => {
  it('never holds the main thread for long in search, and is stored whole', async () => {
    // With the search workers the app starts: the full-text lists and the store's log
    // checkpoints run there (a 32 MB checkpoint on the main thread took 0.2-0.3 s).
    const dir = tempDir()
    openDatabase(join(dir, 'store.sqlite')).close()
    const searchWorkers = startSearchWorkers(workerPath, {
      databasePath: join(dir, 'store.sqlite')
    })
    onTestFinished(() => closeSearchWorkers(searchWorkers))
    const { db, services } = servicesIn(dir, Date.now, undefined, { searchWorkers })
    const history = services.threads.create('History')
    const messages = new MessageRepository(db)
    db.transaction(() => {
      for (let i = 0; i < 10_000; i++) {
        const content = syntheticText(i % 3 === 0 ? 'chinese' : 'english', 300, i)
        messages.append({
          threadId: history.id,
          role: i % 2 === 0 ? 'user' : 'assistant',
          content,
          tokenCount: 80,
          createdAt: i
        })
      }
    })()
    const figures: string[] = []
    for (const chars of [20_000, 200_000, 2_000_000] as const) {
      for (const name of INPUT_KINDS) {
        const paste = hugeInput(name, chars)
        const typedOn = `${hugeInput(name, chars, 6)} and more`
        const thread = services.threads.create(name)
        await services.messages.list(thread.id)
        const pasted = performance.now()
        const sent = await longestStall(() => services.chat.send(thread.id, paste))
        const sentMs = performance.now() - pasted
        expect(services.messages.list(thread.id).at(-1)?.content).toBe(paste)
        // Its exact count, after the request, is background work of its own.
        await services.chat.recounted()
        // Typed on after the send: the draft's search meets the stored paste.
        const preview = await longestStall(() => services.context.preview(thread.id, typedOn))
        // As the composer sends: the paste's preview counted it while the user looked.
        const looked = services.threads.create(name)
        await services.messages.list(looked.id)
        await services.context.preview(looked.id, paste)
        await services.context.drafts.settled()
        const start = performance.now()
        const typed = await longestStall(() => services.chat.send(looked.id, paste))
        const typedMs = performance.now() - start
        expect(services.messages.list(looked.id).at(-1)?.content).toBe(paste)
        figures.push(
          `${name} ${chars}: sent in ${sentMs.toFixed(0)} ms; stalls send ${sent.max.toFixed(0)} ms, preview ${preview.max.toFixed(0)} ms, ` +
            `sent after its preview ${typedMs.toFixed(0)} ms (stall ${typed.max.toFixed(0)} ms)`
        )
        expect(sent.max, `${name}, ${chars} characters, send`).toBeLessThan(STALL_LIMIT_MS)
        expect(preview.max, `${name}, ${chars} characters, preview`).toBeLessThan(STALL_LIMIT_MS)
        expect(typed.max, `${name}, ${chars} characters, send after preview`).toBeLessThan(
          STALL_LIMIT_MS
        )
        // Counted once, while the user looked: the send itself writes and builds (at most
        // 132 ms measured).
        expect(typedMs, `${name}, ${chars} characters, send after preview`).toBeLessThan(500)
        // Nobody previewed it: 2 M characters are sixteen times gpt-4o's window, so only the
        // ends the request can carry are counted first (79-417 ms here with the ranked merge,
        // within the 500 ms; 0.1-1.0 s with gpt-tokenizer's, 4-10 s when the send
        // counted all of it). The limit leaves room for a loaded CI machine.
        if (chars === 2_000_000) {
          expect(sentMs, `${name}, ${chars} characters, pasted send`).toBeLessThan(1_500)
        }
      }
    }
    // The sidebar's search box takes up to 500 characters of the same.
    for (const name of INPUT_KINDS) {
      const query = hugeInput(name, 500)
      // The best of three: a garbage collection of the pastes above can land in any one.
      let best = Infinity
      for (let i = 0; i < 3; i++) {
        const { max } = await longestStall(async () => services.search.query(query, 20))
        best = Math.min(best, max)
      }
      figures.push(`search box, ${name}: ${best.toFixed(0)} ms`)
      // Reading each matched paste whole for its snippet took up to 0.23 s here.
      expect(best, `search box, ${name}`).toBeLessThan(100)
    }
    console.log(figures.join('\n'))
  }, 900_000)

  it('recalls a stored 2,000,000-character paste as an excerpt, without holding the thread', async () => {
    const { db, services } = servicesIn(tempDir())
    const logs = services.threads.create('Build logs')
    const head = 'Deploy failed: the staging database migration timed out after 300 seconds.\n'
    const paste = head + hugeInput('mixed', 2_000_000 - head.length)
    new MessageRepository(db).append({
      threadId: logs.id,
      role: 'user',
      content: paste,
      tokenCount: 600_000,
      createdAt: 0
    })
    const fresh = services.threads.create()
    const question = 'Why did the staging database migration time out?'
    const { value: built, max: stall } = await longestStall(() =>
      services.context.preview(fresh.id, question)
    )
    const recalled = built.trace.filter(
      (t) => t.section === 'retrieved' && t.decision === 'included'
    )
    // Found, and sent as the part the gate judged: about 8,000 characters, not 2 M.
    expect(recalled.map((t) => t.preview)).toEqual([expect.stringContaining('Deploy failed')])
    expect(built.tokenStats.sections.retrieved.used).toBeLessThan(8_000)
    const sent = built.messages.map((m) => (typeof m.content === 'string' ? m.content : ''))
    // Search read the message's first 8,000 characters and counted the rest.
    expect(sent.join('\n')).toContain('[…1,992,000 more characters not recalled]')
    // Counting the whole paste for the recalled section held the main thread for 11 s.
    expect(stall).toBeLessThan(250)
  }, 120_000)
})

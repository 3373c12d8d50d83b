/**
 * A 2 M-character paste through the real TurnService and ContextBuildService on a real SQLite
 * file: it is stored whole, its request fits the model's window, the trace says how it was
 * counted, the main thread keeps turning while it is counted, and a paste far over the window
 * is counted only at the ends it can send before the request (the rest after).
 */
import { randomBytes } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { MAX_MESSAGE_CHARS } from '@shared/contract'
import type { BuiltContext } from '@shared/context'
import { SAFETY_SHARE } from '@shared/context'
import { longestStall } from '../../scripts/bench/longestStall'
import {
  MESSAGE_FRAMING_TOKENS,
  REPLY_PRIMING_TOKENS
} from '../../src/main/context/tokens/messageTokens'
import { o200kCounter } from '../../src/main/context/tokens/tokenCounter'
import { runSteps } from '../../src/main/context/steps'
import { pollUntil } from '../support/poll'
import { servicesIn } from '../support/services'
import { useTempDir } from '../support/tempDir'

const tempDir = useTempDir()
const GPT_4O_WINDOW = 128_000

const inputEntry = (context: BuiltContext) => context.trace.find((entry) => entry.id === 'input')

/** Letters only, no digits or spaces: one pre-tokenizer piece, quadratic for plain BPE. */
function lettersOnly(count: number): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ'
  const bytes = randomBytes(count)
  let text = ''
  for (let i = 0; i < count; i++) text += alphabet[(bytes[i] as number) % alphabet.length]
  return text
}

describe('a 2,000,000-character paste', () => {
  it('is sent: stored whole, counted at its ends, trimmed to fit, and the loop keeps turning', async () => {
    const { services } = servicesIn(tempDir())
    const thread = services.threads.create()
    const paste = `Decode this:\n${randomBytes(1_500_000).toString('base64')}`.slice(
      0,
      MAX_MESSAGE_CHARS
    )
    expect(paste.length).toBe(2_000_000)

    const { value: outcome, turns } = await longestStall(() => services.chat.send(thread.id, paste))

    const context = outcome.build?.context as BuiltContext
    expect(context.tokenStats.total).toBeLessThanOrEqual(GPT_4O_WINDOW * SAFETY_SHARE)
    // Sixteen times the window: only the ends it could send were counted before the request.
    expect(inputEntry(context)?.counting).toBe('ends')
    expect(inputEntry(context)?.note).toMatch(/middle left out/)
    expect(context.metadata.warnings.map((w) => w.code)).toContain('input_trimmed')
    // What was sent is what the build says it costs, counted again exactly.
    const sent = context.messages.at(-1)?.content as string
    expect(sent.startsWith(paste.slice(0, 1_000))).toBe(true)
    expect(sent.endsWith(paste.slice(-1_000))).toBe(true)
    expect(o200kCounter.count(sent) + MESSAGE_FRAMING_TOKENS + REPLY_PRIMING_TOKENS).toBe(
      inputEntry(context)?.tokens
    )
    // Counting took many slices; the old code counted in one synchronous call.
    expect(turns).toBeGreaterThan(10)

    // Stored whole, with its estimate, and its exact count once the request has left.
    const stored = services.messages.list(thread.id).at(-1)
    expect(stored?.content).toBe(paste)
    await services.chat.recounted()
    const exact = runSteps(o200kCounter.countSteps(paste)).tokens
    expect(services.messages.list(thread.id).at(-1)?.tokenCount).toBe(exact)
    expect(exact).not.toBe(stored?.tokenCount)
  }, 300_000)

  it('sent while its preview still counts it, takes the ends from that count, not all of it', async () => {
    // Pasted, a glance at the inspector, Enter: the draft's background count has barely begun.
    const { services } = servicesIn(tempDir())
    const thread = services.threads.create()
    const paste = `Decode this:\n${randomBytes(1_500_000).toString('base64')}`.slice(
      0,
      MAX_MESSAGE_CHARS
    )
    const preview = await services.context.preview(thread.id, paste)
    expect(inputEntry(preview)?.counting).toBe('estimate')

    const outcome = await services.chat.send(thread.id, paste)

    const context = outcome.build?.context as BuiltContext
    expect(inputEntry(context)?.counting).toBe('ends')
    expect(context.tokenStats.total).toBeLessThanOrEqual(GPT_4O_WINDOW * SAFETY_SHARE)
    await services.context.drafts.settled()
    await services.chat.recounted()
    expect(services.messages.list(thread.id).at(-1)?.tokenCount).toBe(
      runSteps(o200kCounter.countSteps(paste)).tokens
    )
  }, 300_000)

  it('is stored whole before it is counted, with its estimate, then its exact count', async () => {
    // A paste nobody previewed takes seconds to count exactly: what the user wrote must not
    // wait for that (the app could be closed meanwhile).
    const { services } = servicesIn(tempDir())
    const thread = services.threads.create()
    const paste = randomBytes(300_000).toString('base64') // 400,000 characters
    let sent = false
    const sending = services.chat.send(thread.id, paste).finally(() => (sent = true))

    const early = await pollUntil(() => services.messages.list(thread.id).at(-1), {
      what: 'the paste in the store',
      timeoutMs: 60_000
    })
    expect(sent).toBe(false)
    expect(early.content).toBe(paste)
    await sending
    await services.chat.recounted()
    const stored = services.messages.list(thread.id).at(-1)
    expect(stored?.tokenCount).toBe(o200kCounter.count(paste))
    expect(stored?.tokenCount).not.toBe(early.tokenCount) // the estimate, then the count
  })

  it('is counted exactly before the next build reads it, however soon that comes', async () => {
    // Stored with its estimate (on base64 2.3 times under the count): a window cut by that
    // estimate would send the paste whole in the next request, far over the model's window.
    const { services } = servicesIn(tempDir())
    const thread = services.threads.create()
    const paste = randomBytes(210_000).toString('base64') // 280,000 characters
    await services.chat.send(thread.id, paste)
    const next = await services.chat.send(thread.id, 'What is in it?')

    const context = next.build?.context as BuiltContext
    const sent = context.messages.reduce((sum, m) => sum + o200kCounter.count(m.content), 0)
    expect(sent).toBeLessThanOrEqual(GPT_4O_WINDOW * SAFETY_SHARE)
    expect(services.messages.list(thread.id).at(-2)?.tokenCount).toBe(o200kCounter.count(paste))
  }, 300_000)

  it('edited into an earlier message is stored before it is counted, as a send is', async () => {
    const { services } = servicesIn(tempDir())
    const thread = services.threads.create()
    const { message: asked } = await services.chat.send(thread.id, 'Decode this for me')
    const paste = randomBytes(300_000).toString('base64') // 400,000 characters
    let resent = false
    const resending = services.chat.editResend(asked.id, paste).finally(() => (resent = true))

    const early = await pollUntil(
      () => services.messages.list(thread.id).find((m) => m.content === paste),
      { what: 'the edited paste in the store', timeoutMs: 60_000 }
    )
    expect(resent).toBe(false)
    const outcome = await resending
    expect(outcome.message.id).toBe(early.id)
    await services.chat.recounted()
    const stored = services.messages.list(thread.id).find((m) => m.id === early.id)
    expect(stored?.tokenCount).toBe(o200kCounter.count(paste))
    expect(early.tokenCount).not.toBe(stored?.tokenCount) // the estimate, then the count
    expect(services.messages.list(thread.id).find((m) => m.id === asked.id)?.excluded).toBe(true)
  })

  it('of letters without a break, within the window, is counted in chunks, and the trace says so', async () => {
    const { services } = servicesIn(tempDir())
    const thread = services.threads.create()
    // About 78,000 tokens: under the window, so counted whole before the request.
    const paste = lettersOnly(150_000)

    const outcome = await services.chat.send(thread.id, paste)

    expect(services.messages.list(thread.id).at(-1)?.content).toBe(paste)
    const context = outcome.build?.context as BuiltContext
    expect(context.tokenStats.total).toBeLessThanOrEqual(GPT_4O_WINDOW * SAFETY_SHARE)
    expect(inputEntry(context)?.counting).toBe('chunked')
    expect(inputEntry(context)?.note).toMatch(/counted in 256-byte chunks/)
    expect(context.metadata.warnings.map((w) => w.code)).toContain('input_chunked')
  }, 300_000)

  it('is previewed with the estimate at first, then exactly while typing at its end', async () => {
    const { services } = servicesIn(tempDir())
    const thread = services.threads.create()
    let draft = `${randomBytes(300_000).toString('base64')} what is this?`

    const first = await services.context.preview(thread.id, draft)
    expect(inputEntry(first)?.counting).toBe('estimate')
    expect(first.metadata.warnings.map((w) => w.code)).toContain('input_estimated')

    await services.context.drafts.settled()
    draft += ' Please decode it'
    const typed = await services.context.preview(thread.id, draft)
    expect(inputEntry(typed)?.counting).toBe('exact')
    expect(typed.metadata.warnings.map((w) => w.code)).not.toContain('input_estimated')

    // The exact preview's figure is the send's.
    const sent = await services.chat.send(thread.id, draft)
    expect(inputEntry(sent.build?.context as BuiltContext)?.tokens).toBe(inputEntry(typed)?.tokens)
  }, 300_000)
})

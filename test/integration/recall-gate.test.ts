import { describe, expect, it } from 'vitest'
import type { BuiltContext } from '@shared/context'
import { E5_MODEL_ID } from '@shared/embeddingModelIds'
import { gateCalibration } from '../../src/main/services/memory/relevanceGate'
import { MessageRepository } from '../../src/main/store/messageRepository'
import { e5Model } from '../support/embeddings'
import { useMemoryServices, type MemoryTestServices } from '../support/memoryServices'
import { useTempDir } from '../support/tempDir'

/**
 * Issue #17 as a user meets it, on a real store with the app's default model (e5): a new
 * thread's request carries what is relevant and nothing else, says what it left free, and the
 * scope decides where recall looks.
 */

const stores = useMemoryServices(useTempDir())
const setup = () => stores.withModel(e5Model())

/**
 * The preview as the inspector runs it while the user types: the draft's vector is embedded
 * (and cached) first, so a loaded test machine cannot push the query past the search's
 * deadline into a full-text-only build.
 */
async function preview(
  services: MemoryTestServices['services'],
  threadId: string,
  question: string,
  whatIf?: Parameters<MemoryTestServices['services']['context']['preview']>[2]
): Promise<BuiltContext> {
  await services.memory.search(question, { timeoutMs: 30_000 })
  const built = await services.context.preview(threadId, question, whatIf)
  expect(built.metadata.warnings).toEqual([])
  return built
}

const retrieved = (built: BuiltContext) =>
  built.trace.filter((t) => t.section === 'retrieved' && t.decision === 'included')

/** A store with a memory and two unrelated threads, the way a newcomer's looks after a week. */
async function weekOfHistory(services: MemoryTestServices['services']) {
  const memory = await services.memory.create({
    content: 'My daughter Mia is allergic to peanuts.',
    category: 'fact'
  })
  const trip = services.threads.create('Trip to Lisbon')
  await services.chat.send(trip.id, 'Which neighbourhood in Lisbon is quiet at night?')
  await services.chat.send(trip.id, 'We land at 7 pm, so a hotel near the metro would help.')
  const code = services.threads.create('Rust lifetimes')
  await services.chat.send(code.id, 'Why does the borrow checker reject my struct with a &str?')
  await services.chat.send(code.id, 'I tried adding a lifetime parameter but the error moved.')
  await services.memoryIndexer.drained()
  // Asked of a warm app, as a user's questions are: the model has run once.
  await services.memory.warmedUp()
  return { memory: memory.memory, trip, code }
}

describe('the relevance gate in a new thread', () => {
  it('sends the one relevant memory for a question about it, and nothing from other threads', async () => {
    const { services } = await setup()
    const { memory } = await weekOfHistory(services)
    const fresh = services.threads.create()
    const built = await preview(
      services,
      fresh.id,
      'Can you suggest a snack for my daughter after school?'
    )
    const items = retrieved(built)
    expect(items.map((t) => t.id)).toEqual([`memory:${memory.id}`])
    expect(built.recall).toMatchObject({
      scope: 'all',
      fillSpare: false,
      memories: { items: 1 },
      otherThreads: { items: 0 }
    })
    // Most of the budget is left free, and the build says so.
    expect(built.tokenStats.free).toBeGreaterThan(built.tokenStats.budget * 0.95)
    expect(built.messages.some((m) => m.content.includes('peanuts'))).toBe(true)
    expect(built.messages.some((m) => m.content.includes('Lisbon'))).toBe(false)
  })

  it('recalls nothing for an off-topic question, in English and in Chinese, and says why', async () => {
    const { services } = await setup()
    await weekOfHistory(services)
    const fresh = services.threads.create()
    for (const question of [
      'What is the boiling point of water on Everest?',
      '光合作用是怎么回事？'
    ]) {
      const built = await preview(services, fresh.id, question)
      expect(retrieved(built)).toEqual([])
      expect(built.tokenStats.sections.retrieved.used).toBe(0)
      // The best candidates it turned away are listed with the gate they missed.
      expect(built.recall?.gates).not.toBeNull()
      expect(built.recall?.rejected.length).toBeGreaterThan(0)
      for (const rejected of built.recall?.rejected ?? []) {
        expect(rejected.relevance).toBeLessThan(rejected.gate)
      }
    }
  })

  it('holds other chats to a higher bar when the question names someone nothing mentions', async () => {
    const { services } = await setup()
    await weekOfHistory(services)
    const hobbies = services.threads.create('Evenings')
    await services.chat.send(hobbies.id, 'After work I go for a long run by the river to unwind.')
    await services.chat.send(hobbies.id, 'Painting on weekends helps me destress too.')
    await services.memoryIndexer.drained()
    const fresh = services.threads.create()
    // About the user, the painting turn is recalled.
    const mine = await preview(services, fresh.id, 'What do I do to destress after work?')
    expect(mine.recall?.otherThreads.items).toBeGreaterThan(0)
    expect(mine.recall?.absentNames).toBeUndefined()
    // About "Caroline", whom no chat mentions, the same turn resembles the question as much
    // as it would clear the usual bar, and is left out: it is someone else's story.
    const hers = await preview(services, fresh.id, 'What does Caroline do to destress?')
    expect(retrieved(hers)).toEqual([])
    expect(hers.recall?.absentNames).toEqual(['Caroline'])
    const painting = hers.recall?.rejected.find((r) => r.preview.startsWith('Painting'))
    expect(painting?.relevance).toBeGreaterThanOrEqual(gateCalibration(E5_MODEL_ID).message.gate)
    expect(painting?.relevance).toBeLessThan(painting?.gate ?? 0)
    // A gate the user picks (the inspector's what-if) means everything over it: no name raises it.
    const tried = await preview(services, fresh.id, 'What does Caroline do to destress?', {
      recall: { minRelevance: painting?.relevance ?? 0 }
    })
    expect(tried.recall?.absentNames).toBeUndefined()
    expect(tried.messages.some((m) => m.content.includes('Painting on weekends'))).toBe(true)
    // Sent, the same: the stored input itself does not count as a mention.
    const { build } = await services.chat.send(fresh.id, 'What does Caroline do to destress?')
    expect(build?.context.recall?.absentNames).toEqual(['Caroline'])
    expect(build?.context.recall?.otherThreads.items).toBe(0)
    // Once a chat mentions her, that chat is found, and the bar is the usual one.
    await services.chat.send(hobbies.id, 'Caroline told me she paints on weekends to destress.')
    await services.memoryIndexer.drained()
    const found = await preview(services, fresh.id, 'What does Caroline do to destress?')
    expect(found.recall?.absentNames).toBeUndefined()
    expect(found.messages.some((m) => m.content.includes('Caroline told me'))).toBe(true)
  })

  it('labels a message recalled from another thread with that thread, never as a memory', async () => {
    const { services } = await setup()
    const { trip } = await weekOfHistory(services)
    const fresh = services.threads.create()
    const built = await preview(
      services,
      fresh.id,
      'Remind me: which Lisbon neighbourhood is quiet at night?'
    )
    const fromTrip = retrieved(built).filter(
      (t) => t.origin?.kind === 'message' && t.origin.threadTitle === trip.title
    )
    expect(fromTrip.length).toBeGreaterThan(0)
    expect(fromTrip.every((t) => t.origin?.kind === 'message' && t.origin.otherThread)).toBe(true)
    expect(built.recall?.otherThreads.items).toBe(fromTrip.length)
    const block = built.messages.find((m) => m.content.includes('Lisbon is quiet'))?.content ?? ''
    expect(block).toContain("[From the user's other conversations")
    expect(block).toContain('“Trip to Lisbon”')
  })

  it('answers a question about the user from what the user wrote, not the replies around it, and says so', async () => {
    const { services, db } = await setup()
    const messages = new MessageRepository(db)
    const say = (threadId: string, role: 'user' | 'assistant', content: string) =>
      messages.append({ threadId, role, content, tokenCount: 20, createdAt: 0 })
    const shoes = services.threads.create('New shoes')
    say(shoes.id, 'user', 'I finally bought the Brooks Ghost 15 for my half-marathon training.')
    say(shoes.id, 'assistant', 'Nice! How do they feel so far?')
    const gear = services.threads.create('Running gear')
    say(gear.id, 'user', 'What should a beginner look for in running shoes?')
    const advice =
      'Look for cushioned, neutral trainers that fit your feet well; many people buy two pairs and rotate them.'
    say(gear.id, 'assistant', advice)
    await services.memoryIndexer.drained()
    await services.memory.warmedUp()
    const fresh = services.threads.create()
    const sent = (built: BuiltContext, text: string) =>
      built.messages.some((m) => m.content.includes(text))

    const mine = await preview(
      services,
      fresh.id,
      'Which running shoes did I buy for my half-marathon training?'
    )
    expect(sent(mine, 'Brooks Ghost 15')).toBe(true)
    // The advice resembles the question as much as the purchase does, and says nothing of it;
    // nor does the reply the purchase got. Neither is sent, as a hit or as a neighbour.
    expect(sent(mine, advice)).toBe(false)
    expect(sent(mine, 'How do they feel')).toBe(false)
    expect(mine.recall?.aboutTheUser).toEqual(gateCalibration(E5_MODEL_ID).aboutTheUser)
    const turnedAway = mine.recall?.rejected.find((r) => r.preview.startsWith('Look for'))
    expect(turnedAway?.relevance).toBeLessThan(turnedAway?.gate ?? 0)

    // Asked about what the assistant said, its reply is what the question needs.
    const theirs = await preview(
      services,
      fresh.id,
      'Can you remind me what you said to look for in running shoes?'
    )
    expect(sent(theirs, advice)).toBe(true)
    expect(theirs.recall?.aboutTheUser).toBeUndefined()
  })

  it('searches only where the scope says', async () => {
    const { services } = await setup()
    await weekOfHistory(services)
    const fresh = services.threads.create()
    const question = 'Which Lisbon neighbourhood is quiet, and what is my daughter allergic to?'
    const kinds = async (scope: 'thread' | 'thread_memories' | 'all') => {
      const built = await preview(services, fresh.id, question, { recall: { scope } })
      expect(built.recall?.scope).toBe(scope)
      return retrieved(built).map((t) => (t.origin?.kind === 'memory' ? 'memory' : 'other thread'))
    }
    expect(await kinds('thread')).toEqual([])
    expect(await kinds('thread_memories')).toEqual(['memory'])
    const all = await kinds('all')
    expect(all).toContain('memory')
    expect(all).toContain('other thread')
  })

  it('fills spare budget only when asked to, and records that it did', async () => {
    const { services } = await setup()
    await weekOfHistory(services)
    const fresh = services.threads.create()
    const question = 'Any tips for a long weekend away with the family?'
    const gated = await preview(services, fresh.id, question)
    const filled = await preview(services, fresh.id, question, { recall: { fillSpare: true } })
    expect(gated.recall?.fillSpare).toBe(false)
    expect(filled.recall?.fillSpare).toBe(true)
    expect(retrieved(filled).length).toBeGreaterThan(retrieved(gated).length)
    expect(filled.tokenStats.sections.retrieved.used).toBeGreaterThan(
      gated.tokenStats.sections.retrieved.used
    )
  })
})

describe('the relevance gate in a running conversation', () => {
  it('recalls another thread on what the user asks now, not on what the conversation was about', async () => {
    const { services } = await setup()
    const { trip } = await weekOfHistory(services)
    const running = services.threads.create('Family holiday')
    await services.chat.send(running.id, 'We are flying to Lisbon in May and staying a week.')
    await services.memoryIndexer.drained()
    const fromTrip = (built: BuiltContext) =>
      retrieved(built).filter(
        (t) => t.origin?.kind === 'message' && t.origin.threadTitle === trip.title
      )
    // The conversation is about Lisbon; the input is not. The Lisbon thread stays out.
    const drifting = await preview(
      services,
      running.id,
      'My son asked whether he can bring his bike.'
    )
    expect(fromTrip(drifting)).toEqual([])
    // Asked outright, the other thread is found.
    const asked = await preview(
      services,
      running.id,
      'Which Lisbon neighbourhood did I say is quiet at night?'
    )
    expect(fromTrip(asked).length).toBeGreaterThan(0)
  })

  it('leaves other chats out when this conversation already holds what the input is about', async () => {
    const { services } = await setup()
    await weekOfHistory(services)
    const evenings = services.threads.create('Evenings')
    await services.chat.send(evenings.id, 'After work I go for a long run by the river to unwind.')
    const greeted = services.threads.create('Questions')
    await services.chat.send(greeted.id, 'Hi! I have a few things to ask you today.')
    const unwinding = services.threads.create('Unwinding')
    await services.chat.send(
      unwinding.id,
      'To unwind after work, a long run by the river helps me.'
    )
    await services.chat.send(unwinding.id, 'I also tried yoga, but it bored me.')
    await services.memoryIndexer.drained()
    const question = 'How do I unwind after work?'
    const fromEvenings = (built: BuiltContext) =>
      retrieved(built).filter(
        (t) => t.origin?.kind === 'message' && t.origin.threadTitle === evenings.title
      )
    // A conversation that has only said hello: the other chat is what the question needs.
    const asked = await preview(services, greeted.id, question)
    expect(fromEvenings(asked).length).toBe(1)
    expect(asked.recall?.conversationBest).toBeUndefined()
    // Here the conversation already says it: the other chat would only repeat it, after the
    // cached history, and the inspector says why it stayed out.
    const held = await preview(services, unwinding.id, question)
    expect(fromEvenings(held)).toEqual([])
    const best = held.recall?.conversationBest ?? 0
    expect(best).toBeGreaterThan(gateCalibration(E5_MODEL_ID, true).message.gate)
    expect(held.recall?.gates?.message).toBe(best)
    const run = held.recall?.rejected.find((r) => r.preview.startsWith('After work I go'))
    expect(run?.relevance).toBeGreaterThanOrEqual(gateCalibration(E5_MODEL_ID, true).message.gate)
    expect(run?.gate).toBe(best)
  })

  it('recalls this thread’s older turns however far below the best they score', async () => {
    const { services, db } = await setup()
    const biscuit = services.threads.create('Biscuit')
    const messages = new MessageRepository(db)
    const turn = (role: 'user' | 'assistant', content: string) =>
      messages.append({ threadId: biscuit.id, role, content, tokenCount: 14, createdAt: 0 })
    turn('user', 'What did the vet say about Biscuit’s weight?')
    const answer = turn('assistant', 'He should lose two kilos before his next check-up in March.')
    turn('user', 'I am repainting the kitchen this weekend, probably a pale green.')
    turn('assistant', 'Pale green works well with white cabinets.')
    await services.memoryIndexer.drained()
    const question = 'Is my dog too heavy?'
    const context = `Pale green works well with white cabinets.\n${question}`
    for (const text of [question, context])
      await services.memory.search(text, { timeoutMs: 30_000 })
    const found = await services.memory.search(question, {
      gate: {},
      threadId: biscuit.id,
      context
    })
    // The vet's answer shares no word with the question and scores far under the chat about
    // paint the conversation just had; it is what the question needs.
    expect(found.hits.map((h) => h.id)).toContain(answer.id)
  })
})

describe('the order of recalled memories', () => {
  it('lists the memories that pass by relevance, whatever order the fused ranks gave them', async () => {
    const { services } = await setup()
    for (const content of [
      'I prefer tea in the morning; coffee on an empty stomach makes me feel sick.',
      'I started learning to climb at the bouldering wall on Kirkstall Road in September.',
      'I work nights as an A&E nurse at Leeds General Infirmary, usually four on, four off.',
      'My dog Biscuit is a nine-year-old beagle with arthritis in his back legs.',
      "I've been vegetarian for six years, though I still eat eggs and cheese.",
      'My sister Ellie runs a breakfast café in Whitby.',
      "I can't stand horror films. Give me a slow British crime drama any day.",
      "I'm training for the Yorkshire Three Peaks challenge in May.",
      'I have mild asthma that flares up in cold air.',
      "I hate loud, packed pubs. I'd much rather have a few people round for dinner.",
      'I play the fiddle at the folk session in the Grove Inn on Sunday nights.',
      'I really struggle to sleep during the day after a night shift.'
    ]) {
      await services.memory.create({ content, category: 'fact' })
    }
    await services.memoryIndexer.drained()
    await services.memory.warmedUp()
    const result = await services.memory.search(
      "I've got four days off in a row. Any ideas for the weekend?",
      { gate: {}, timeoutMs: 30_000 }
    )
    const memories = result.hits.filter((hit) => hit.kind === 'memory')
    expect(memories.length).toBeGreaterThan(2)
    const relevance = memories.map((hit) => hit.relevance ?? 0)
    expect(relevance).toEqual([...relevance].sort((a, b) => b - a))
  })
})

import type { Message } from '@shared/domain'
import { yieldToEventLoop } from '@shared/eventLoop'
import { firstAtOrAfter } from '@shared/messagePages'
import type { MessageRepository } from '../store/messageRepository'

/** Rows read per step while a thread loads in the background: about 25 ms each on 2 idle cores. */
const LOAD_SLICE = 5_000

interface CachedThread {
  messages: Message[]
  /** `tokens[i]` is the sum of `tokenCount` over `messages[0..i)`: kept as messages arrive. */
  tokens: number[]
}

/**
 * The few most recently used threads' messages, kept in memory in seq order, with per-thread
 * state kept as messages arrive (running token sums), so a turn never passes over the whole
 * thread to derive it. Reading a 100,000-message thread from SQLite takes about half a second,
 * far too slow to rebuild the inspector's preview on every keystroke or to hold the window for:
 * `load` reads it in slices that give the event loop back, and opening a thread starts that in
 * the background. Every message write goes through ChatService, which keeps the cached copies
 * in step.
 */
export class ThreadMessageCache {
  private readonly threads = new Map<string, CachedThread>()
  /** Threads being read in slices: the partial copy (kept in step by `updated`) and the read. */
  private readonly loading = new Map<string, { partial: Message[]; done: Promise<Message[]> }>()

  constructor(
    private readonly repository: MessageRepository,
    private readonly capacity: number
  ) {}

  /** The thread's messages; reads the whole thread at once when it is not cached. */
  get(threadId: string): Message[] {
    return this.entry(threadId).messages
  }

  /**
   * The newest model reply before `message` that still counts (not superseded or excluded),
   * or null when a user message comes first (what automatic memory extraction reads).
   */
  previousReply(message: Message): string | null {
    const messages = this.get(message.threadId)
    for (let i = messages.length - 1; i >= 0; i--) {
      const m = messages[i] as Message
      if (m.seq >= message.seq || m.excluded || m.reply?.supersededBy) continue
      if (m.role === 'assistant') return m.content
      if (m.role === 'user') return null
    }
    return null
  }

  /** Whether `get` would answer from memory. */
  has(threadId: string): boolean {
    return this.threads.has(threadId)
  }

  /**
   * The thread's messages without holding the event loop: read in slices when not cached.
   * Concurrent calls share one read.
   */
  async load(threadId: string): Promise<Message[]> {
    if (this.threads.has(threadId)) return this.get(threadId)
    const running = this.loading.get(threadId)
    if (running) return running.done
    const partial: Message[] = []
    const done = (async () => {
      try {
        for (;;) {
          const after = partial.at(-1)?.seq ?? 0
          const slice = this.repository.listAfter(threadId, after, LOAD_SLICE)
          partial.push(...slice)
          // The last slice and the hand-over happen in one synchronous step: a message
          // appended meanwhile is either in the slice or arrives through `appended`.
          if (slice.length < LOAD_SLICE) {
            if (!this.threads.has(threadId)) this.remember(threadId, withSums(partial))
            return this.get(threadId)
          }
          await yieldToEventLoop()
        }
      } finally {
        this.loading.delete(threadId)
      }
    })()
    this.loading.set(threadId, { partial, done })
    return done
  }

  /** Tokens of the thread's messages before `index` (all of them when `index` is the length). */
  tokensBefore(threadId: string, index: number): number {
    const { tokens } = this.entry(threadId)
    return tokens[Math.max(0, Math.min(index, tokens.length - 1))] as number
  }

  /** A new message always has the thread's highest seq, so it goes at the end. */
  appended(message: Message): void {
    const cached = this.threads.get(message.threadId)
    if (!cached) return
    cached.messages.push(message)
    cached.tokens.push((cached.tokens.at(-1) as number) + message.tokenCount)
  }

  /** Flags and reply marks change; a message's text and token count never do. */
  updated(message: Message): void {
    for (const messages of [
      this.threads.get(message.threadId)?.messages,
      this.loading.get(message.threadId)?.partial
    ]) {
      if (!messages) continue
      const index = indexOfSeq(messages, message.seq)
      if (index >= 0 && messages[index]?.id === message.id) messages[index] = message
    }
  }

  private entry(threadId: string): CachedThread {
    const cached = this.threads.get(threadId)
    if (cached) {
      this.threads.delete(threadId) // re-inserted below: Map order is the LRU order
      this.threads.set(threadId, cached)
      return cached
    }
    return this.remember(threadId, withSums(this.repository.listByThread(threadId)))
  }

  private remember(threadId: string, cached: CachedThread): CachedThread {
    this.threads.set(threadId, cached)
    for (const stale of [...this.threads.keys()].slice(0, -this.capacity))
      this.threads.delete(stale)
    return cached
  }
}

function withSums(messages: Message[]): CachedThread {
  const tokens = new Array<number>(messages.length + 1)
  tokens[0] = 0
  for (let i = 0; i < messages.length; i++)
    tokens[i + 1] = (tokens[i] as number) + (messages[i] as Message).tokenCount
  return { messages, tokens }
}

/** The index of the message with `seq` in a seq-ordered list, or -1. */
function indexOfSeq(messages: readonly Message[], seq: number): number {
  const index = firstAtOrAfter(messages, seq)
  return messages[index]?.seq === seq ? index : -1
}

import type { TraceEntry } from '@shared/context'
import type { Message } from '@shared/domain'
import { yieldToEventLoop } from '@shared/eventLoop'
import { isEmptyReply } from '../../context/emptyReplies'
import { indexOfSeq, unitContaining } from '../../context/toolCallGroups'
import type { MessageOutlines } from '../../store/messageOutline'
import type { MessageRepository } from '../../store/messageRepository'

/** Rows read per step while a thread loads in the background: about 25 ms each on 2 idle cores. */
const LOAD_SLICE = 5_000
/** Outline rows read per step (store/messageOutline.ts): about 25 ms each here. */
const OUTLINE_SLICE = 25_000

/**
 * A thread as one build reads it: whole once the thread is cached; before that, its outline
 * (store/messageOutline.ts) with the newest messages and every pinned message's tool-call unit
 * read whole.
 */
export interface ThreadSnapshot {
  messages: Message[]
  /** `tokens[i]` is the sum of `tokenCount` over `messages[0..i)`. */
  tokens: number[]
  /** Indexes of the empty replies in `messages`, ascending (`BuildRequest.emptyReplies`). */
  emptyReplies: number[]
  /** Messages with a lower seq are outlines, except those in `readWhole`. */
  outlinedBefore: number
  readWhole: ReadonlySet<number>
}

/**
 * Whether a build made from `snapshot` sends a message the snapshot has only as an outline
 * (its text is a placeholder): the caller then builds again from the whole thread.
 */
export function sendsOutline(snapshot: ThreadSnapshot, trace: readonly TraceEntry[]): boolean {
  return trace.some(
    (entry) =>
      entry.kind === 'message' &&
      entry.section === 'recent' &&
      (entry.decision === 'included' || entry.decision === 'pinned') &&
      (entry.seq ?? Infinity) < snapshot.outlinedBefore &&
      !snapshot.readWhole.has(Number(entry.id))
  )
}

interface Loading {
  partial: Message[]
  done: Promise<Message[]>
  behindTurns: boolean
}

interface CachedThread {
  messages: Message[]
  /** `tokens[i]` is the sum of `tokenCount` over `messages[0..i)`: kept as messages arrive. */
  tokens: number[]
  /**
   * Indexes of the empty replies (emptyReplies.ts), kept as messages arrive: a build would
   * otherwise look at every message's text for them (7.5 ms at 100,000, on every preview).
   */
  emptyReplies: number[]
}

/**
 * The few most recently used threads' messages, kept in memory in seq order, with per-thread
 * state kept as messages arrive (running token sums), so a turn never passes over the whole
 * thread to derive it. Reading a 100,000-message thread from SQLite takes about half a second,
 * far too slow to rebuild the inspector's preview on every keystroke or to hold the window for:
 * `load` reads it in slices that give the event loop back, and opening a thread starts that in
 * the background. Every message write goes through services/chat (TurnService, MessageService),
 * which keeps the cached copies in step.
 */
export class ThreadMessageCache {
  private readonly threads = new Map<string, CachedThread>()
  /** Threads being read in slices: the partial copy (kept in step by `updated`) and the read. */
  private readonly loading = new Map<string, Loading>()
  /** Outlines of threads not cached yet (`outlineOf`). */
  private readonly outlineReads = new Map<string, Promise<Message[] | null>>()
  /** Turns holding background reads (`holdForTurn`), and what wakes those reads. */
  private turns = 0
  private resume: Promise<void> | null = null
  private wake: (() => void) | null = null

  constructor(
    private readonly repository: MessageRepository,
    private readonly outlines: MessageOutlines,
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
   * Concurrent calls share one read. With `behindTurns`, the read pauses between slices while a
   * turn holds the cache (`holdForTurn`); a caller that must have the thread now (without it)
   * makes a paused read go on.
   */
  async load(threadId: string, { behindTurns = false } = {}): Promise<Message[]> {
    if (this.threads.has(threadId)) return this.get(threadId)
    const running = this.loading.get(threadId)
    if (running) {
      if (!behindTurns && running.behindTurns) {
        running.behindTurns = false
        this.resumeLoads()
      }
      return running.done
    }
    const entry: Loading = { partial: [], done: Promise.resolve([]), behindTurns }
    entry.done = (async () => {
      try {
        for (;;) {
          const after = entry.partial.at(-1)?.seq ?? 0
          const slice = this.repository.listAfter(threadId, after, LOAD_SLICE)
          entry.partial.push(...slice)
          // The last slice and the hand-over happen in one synchronous step: a message
          // appended meanwhile is either in the slice or arrives through `appended`.
          if (slice.length < LOAD_SLICE) {
            if (!this.threads.has(threadId)) this.remember(threadId, withSums(entry.partial))
            return this.get(threadId)
          }
          await yieldToEventLoop()
          while (this.turns > 0 && entry.behindTurns) await this.turnsDone()
        }
      } finally {
        this.loading.delete(threadId)
      }
    })()
    this.loading.set(threadId, entry)
    return entry.done
  }

  /**
   * Background reads pause from here until the returned release: a 100,000-message thread
   * loads in slices of tens of ms each, which would otherwise delay the turn's search and its
   * request (a first send waited 0.5 s for the request to leave).
   */
  holdForTurn(): () => void {
    this.turns++
    let held = true
    return () => {
      if (!held) return
      held = false
      if (--this.turns === 0) this.resumeLoads()
    }
  }

  private turnsDone(): Promise<void> {
    this.resume ??= new Promise<void>((resolve) => (this.wake = resolve))
    return this.resume
  }

  private resumeLoads(): void {
    this.wake?.()
    this.resume = null
    this.wake = null
  }

  /**
   * What a build needs of the thread, without waiting for the whole thread to load: the cached
   * thread when it is cached; otherwise its outline (100,000 messages in about 140 ms, against
   * 1.5 s for the whole rows here), with the messages whose stored counts add up to
   * `tailTokens` from the newest back and every pinned message's tool-call unit read whole.
   * The whole thread goes on loading behind it for the turns that follow.
   */
  async forBuild(threadId: string, tailTokens: number): Promise<ThreadSnapshot> {
    const outline = this.threads.has(threadId) ? null : await this.outlineOf(threadId)
    if (!outline || outline.length === 0) return this.wholeSnapshot(threadId)
    const snapshot = await this.withText(threadId, outline, tailTokens)
    // Started after the snapshot: its first slice is read at once. A read that fails there
    // failed the outline's read first, which the caller reported.
    this.load(threadId, { behindTurns: true }).catch(() => undefined)
    return snapshot
  }

  /**
   * The thread's outline, read once while the thread loads: the inspector's preview asks on
   * every keystroke. A flag change drops it (`updated`); messages stored since are read with
   * the newest ones.
   */
  private outlineOf(threadId: string): Promise<Message[] | null> {
    let read = this.outlineReads.get(threadId)
    if (!read) {
      read = this.outline(threadId)
      this.outlineReads.set(threadId, read)
      read.catch(() => this.outlineReads.delete(threadId))
    }
    return read
  }

  /** The thread's outline in slices; null when the whole thread was cached meanwhile. */
  private async outline(threadId: string): Promise<Message[] | null> {
    const outline: Message[] = []
    for (;;) {
      const slice = this.outlines.after(threadId, outline.at(-1)?.seq ?? 0, OUTLINE_SLICE)
      for (const message of slice) outline.push(message)
      if (slice.length < OUTLINE_SLICE) return outline
      await yieldToEventLoop()
      if (this.threads.has(threadId)) return null
    }
  }

  private async withText(
    threadId: string,
    outline: Message[],
    tailTokens: number
  ): Promise<ThreadSnapshot> {
    let start = outline.length
    for (let tokens = 0; start > 0 && tokens < tailTokens;)
      tokens += (outline[--start] as Message).tokenCount
    const outlinedBefore = (outline[start] as Message).seq
    // Read after the outline, so a message stored meanwhile is in it; in slices, since a large
    // budget (a million-token model) can ask for a good part of the thread.
    const messages = outline.slice(0, start)
    for (let after = outlinedBefore - 1; ; await yieldToEventLoop()) {
      const slice = this.repository.listAfter(threadId, after, LOAD_SLICE)
      for (const message of slice) messages.push(message)
      if (slice.length < LOAD_SLICE) break
      after = (slice.at(-1) as Message).seq
    }
    const readWhole = new Set<number>()
    for (const pinned of this.repository.listPinned(threadId)) {
      const index = indexOfSeq(messages, pinned.seq)
      if (index < 0 || pinned.seq >= outlinedBefore || readWhole.has(pinned.id)) continue
      const unit = unitContaining(messages, index)
      const first = (messages[unit.start] as Message).seq
      const last = (messages[unit.end] as Message).seq
      this.repository.listSeqRange(threadId, first, last).forEach((message, offset) => {
        if (messages[unit.start + offset]?.id !== message.id) return
        messages[unit.start + offset] = message
        readWhole.add(message.id)
      })
    }
    return { ...withSums(messages), outlinedBefore, readWhole }
  }

  /** The whole thread as a snapshot, read in slices when it is not cached. */
  async whole(threadId: string): Promise<ThreadSnapshot> {
    await this.load(threadId)
    return this.wholeSnapshot(threadId)
  }

  private wholeSnapshot(threadId: string): ThreadSnapshot {
    return { ...this.entry(threadId), outlinedBefore: -Infinity, readWhole: new Set() }
  }

  /**
   * A new message always has the thread's highest seq, so it goes at the end. A thread's first
   * message (seq 1: none is stored before it) makes the whole thread known, so it is cached
   * without reading back what was just written (a 2 M-character paste took 58 ms to read).
   */
  appended(message: Message): void {
    const cached = this.threads.get(message.threadId)
    if (!cached) {
      if (message.seq === 1 && !this.loading.has(message.threadId)) {
        this.remember(message.threadId, withSums([message]))
      }
      return
    }
    if (isEmptyReply(message)) cached.emptyReplies.push(cached.messages.length)
    cached.messages.push(message)
    cached.tokens.push((cached.tokens.at(-1) as number) + message.tokenCount)
  }

  /**
   * A message's count corrected: a long paste is stored with its estimate and counted once its
   * request has left (TurnService.recount), when its reply may already follow it.
   */
  recounted(message: Message): void {
    this.updated(message)
    const cached = this.threads.get(message.threadId)
    if (!cached) return
    const at = indexOfSeq(cached.messages, message.seq)
    if (at < 0 || cached.messages[at]?.id !== message.id) return
    const change =
      (cached.tokens[at] as number) + message.tokenCount - (cached.tokens[at + 1] as number)
    for (let i = at + 1; i < cached.tokens.length; i++) {
      cached.tokens[i] = (cached.tokens[i] as number) + change
    }
  }

  /** Flags and reply marks change; a message's text never does, its count only by `recounted`. */
  updated(message: Message): void {
    this.outlineReads.delete(message.threadId)
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
    this.outlineReads.delete(threadId)
    for (const stale of [...this.threads.keys()].slice(0, -this.capacity))
      this.threads.delete(stale)
    return cached
  }
}

function withSums(messages: Message[]): CachedThread {
  const tokens = new Array<number>(messages.length + 1)
  const emptyReplies: number[] = []
  tokens[0] = 0
  for (let i = 0; i < messages.length; i++) {
    const message = messages[i] as Message
    tokens[i + 1] = (tokens[i] as number) + message.tokenCount
    if (isEmptyReply(message)) emptyReplies.push(i)
  }
  return { messages, tokens, emptyReplies }
}

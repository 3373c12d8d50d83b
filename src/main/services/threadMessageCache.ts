import type { Message } from '@shared/domain'
import type { MessageRepository } from '../store/messageRepository'

/**
 * The few most recently used threads' messages, kept in memory in seq order. Reading a
 * 100,000-message thread from SQLite takes about half a second, far too slow to rebuild the
 * inspector's preview on every keystroke; the builder itself needs a few milliseconds. Every
 * message write goes through ChatService, which keeps the cached copies in step.
 */
export class ThreadMessageCache {
  private readonly threads = new Map<string, Message[]>()

  constructor(
    private readonly repository: MessageRepository,
    private readonly capacity: number
  ) {}

  get(threadId: string): Message[] {
    let messages = this.threads.get(threadId)
    if (messages) {
      this.threads.delete(threadId) // re-inserted below: Map order is the LRU order
    } else {
      messages = this.repository.listByThread(threadId)
    }
    this.threads.set(threadId, messages)
    for (const stale of [...this.threads.keys()].slice(0, -this.capacity))
      this.threads.delete(stale)
    return messages
  }

  /** A new message always has the thread's highest seq, so it goes at the end. */
  appended(message: Message): void {
    this.threads.get(message.threadId)?.push(message)
  }

  updated(message: Message): void {
    const messages = this.threads.get(message.threadId)
    if (!messages) return
    const index = indexOfSeq(messages, message.seq)
    if (index >= 0) messages[index] = message
  }
}

function indexOfSeq(messages: Message[], seq: number): number {
  let low = 0
  let high = messages.length - 1
  while (low <= high) {
    const mid = (low + high) >> 1
    const current = (messages[mid] as Message).seq
    if (current === seq) return mid
    if (current < seq) low = mid + 1
    else high = mid - 1
  }
  return -1
}

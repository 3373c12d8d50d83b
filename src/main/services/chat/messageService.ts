/**
 * A thread's stored messages outside the turn: the chat list's pages, a message's place, the
 * usage totals, and the flags the user sets (pinned, excluded, exempt from the summary). The
 * turn itself, which writes the messages it sends and receives, is TurnService.
 */
import type { Message, MessagePage } from '@shared/domain'
import { DEFAULT_PAGE_SIZE, pageOf, type PageQuery } from '@shared/messagePages'
import type { UsageTotals } from '@shared/providers'
import { AppError } from '@shared/result'
import type { MessageRepository } from '../../store/messageRepository'
import { sumUsage } from '../providers/usage'
import type { ThreadMessageCache } from './threadMessageCache'
import type { ThreadService } from '../threads/threadService'

export interface MessageServiceDeps {
  messages: MessageRepository
  cache: ThreadMessageCache
  threads: ThreadService
  log: (message: string, error: unknown) => void
  /** A stored message's exclusion or summary exemption changed. */
  messageChanged?: (threadId: string, seq: number) => void
  /** A thread was opened at its end: its newest page, oldest first (readies its recall). */
  opened?: (threadId: string, newest: readonly Message[]) => void
}

export class MessageService {
  constructor(private readonly deps: MessageServiceDeps) {}

  list(threadId: string): Message[] {
    this.deps.threads.get(threadId)
    return this.deps.cache.get(threadId)
  }

  /**
   * A page of the thread for the chat list, opened at its end (`MessagePage`). A thread not
   * in the cache is answered from the (thread_id, seq) index and starts loading in the
   * background, so the preview and the first send that follow read it from memory.
   */
  page(threadId: string, query: PageQuery = {}): MessagePage {
    this.deps.threads.get(threadId)
    const page = this.read(threadId, query)
    if (query.beforeSeq === undefined && query.fromSeq === undefined) {
      this.deps.opened?.(threadId, page.messages)
    }
    return page
  }

  private read(threadId: string, query: PageQuery): MessagePage {
    const { messages, cache } = this.deps
    if (cache.has(threadId)) return pageOf(cache.get(threadId), query)
    cache
      .load(threadId, { behindTurns: true })
      .catch((error: unknown) => this.deps.log(`loading thread ${threadId} failed`, error))
    if (query.fromSeq !== undefined) {
      return {
        messages: messages.listAfter(threadId, query.fromSeq - 1, -1),
        hasOlder: messages.hasBefore(threadId, query.fromSeq)
      }
    }
    return messages.pageBefore(threadId, query.beforeSeq ?? null, query.limit ?? DEFAULT_PAGE_SIZE)
  }

  /**
   * Usage and cost summed over the thread's model replies (all of them were paid for). Read
   * from the cache, loaded in slices: asked for as a thread opens, it must not hold the window.
   */
  async usage(threadId: string): Promise<UsageTotals> {
    this.deps.threads.get(threadId)
    const messages = await this.deps.cache.load(threadId, { behindTurns: true })
    return sumUsage(
      messages.flatMap((m) =>
        m.reply?.usage ? [{ usage: m.reply.usage, cost: m.reply.cost }] : []
      )
    )
  }

  /** Pinned messages are always sent; excluded ones never are (the ContextBuilder reads both). */
  setFlags(
    id: number,
    flags: { pinned?: boolean; excluded?: boolean; summaryExempt?: boolean }
  ): Message {
    const message = this.deps.messages.setFlags(id, flags)
    if (!message) throw new AppError('not_found', 'This message no longer exists.')
    this.deps.cache.updated(message)
    // What a summary says about a message now excluded or exempted may no longer hold.
    if (flags.excluded !== undefined || flags.summaryExempt === true) {
      this.deps.messageChanged?.(message.threadId, message.seq)
    }
    return message
  }

  /** The thread and position of a message, for opening one found outside the open thread. */
  locate(id: number): { threadId: string; seq: number } {
    const found = this.deps.messages.locate(id)
    if (!found) throw new AppError('not_found', 'This message no longer exists.')
    return found
  }
}

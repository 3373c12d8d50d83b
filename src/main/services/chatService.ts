import type { Message, SendOutcome } from '@shared/domain'
import { AppError } from '@shared/result'
import type { TokenCounter } from '../context/tokenCounter'
import type { MessageRepository } from '../store/messageRepository'
import type { Publish } from './events'
import type { ThreadService } from './threadService'

export class ChatService {
  constructor(
    private readonly messages: MessageRepository,
    private readonly threads: ThreadService,
    private readonly deps: { now: () => number; tokens: TokenCounter; publish: Publish }
  ) {}

  list(threadId: string): Message[] {
    this.threads.get(threadId)
    return this.messages.listByThread(threadId)
  }

  /**
   * The user's words are written first, before anything that can fail. No model provider
   * exists yet, so the outcome says so instead of inventing a reply.
   */
  send(threadId: string, content: string): SendOutcome {
    this.threads.get(threadId)
    const message = this.messages.append({
      threadId,
      role: 'user',
      content,
      tokenCount: this.deps.tokens.count(content),
      createdAt: this.deps.now()
    })
    this.threads.adoptTitleFrom(threadId, content)
    this.deps.publish('threads:changed', { threadId })
    return { message, status: 'no_model_configured' }
  }

  /** Pinned messages are always sent; excluded ones never are (the ContextBuilder reads both). */
  setFlags(id: number, flags: { pinned?: boolean; excluded?: boolean }): Message {
    const message = this.messages.setFlags(id, flags)
    if (!message) throw new AppError('not_found', 'This message no longer exists.')
    return message
  }
}

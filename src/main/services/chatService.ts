import type { Message, SendOutcome } from '@shared/domain'
import { AppError } from '@shared/result'
import { countMessageTokens } from '../context/messageTokens'
import type { TokenCounter } from '../context/tokenCounter'
import type { MessageRepository } from '../store/messageRepository'
import type { ContextService } from './contextService'
import type { ThreadMessageCache } from './threadMessageCache'
import type { Publish } from './events'
import type { ThreadService } from './threadService'

export class ChatService {
  constructor(
    private readonly messages: MessageRepository,
    private readonly cache: ThreadMessageCache,
    private readonly threads: ThreadService,
    private readonly context: ContextService,
    private readonly deps: {
      now: () => number
      tokens: TokenCounter
      publish: Publish
      log: (message: string, error: unknown) => void
    }
  ) {}

  list(threadId: string): Message[] {
    this.threads.get(threadId)
    return this.cache.get(threadId)
  }

  /**
   * The user's words are written first, before anything that can fail. Then the request is
   * built exactly as it would be sent; a failed build is reported, never a lost message. No
   * model provider exists yet, so the outcome says so instead of inventing a reply.
   */
  async send(threadId: string, content: string): Promise<SendOutcome> {
    this.threads.get(threadId)
    const message = this.messages.append({
      threadId,
      role: 'user',
      content,
      tokenCount: countMessageTokens(this.deps.tokens, { content }),
      createdAt: this.deps.now()
    })
    this.cache.appended(message)
    this.threads.adoptTitleFrom(threadId, content)
    this.deps.publish('threads:changed', { threadId })
    try {
      const build = await this.context.buildTurn(threadId, message)
      return { message, status: 'no_model_configured', build, buildError: null }
    } catch (error) {
      this.deps.log(`context build for message ${message.id} failed`, error)
      const reason = error instanceof Error ? error.message : String(error)
      return { message, status: 'no_model_configured', build: null, buildError: reason }
    }
  }

  /** Pinned messages are always sent; excluded ones never are (the ContextBuilder reads both). */
  setFlags(id: number, flags: { pinned?: boolean; excluded?: boolean }): Message {
    const message = this.messages.setFlags(id, flags)
    if (!message) throw new AppError('not_found', 'This message no longer exists.')
    this.cache.updated(message)
    return message
  }

  /** The thread and position of a message, for opening one found outside the open thread. */
  locate(id: number): { threadId: string; seq: number } {
    const found = this.messages.locate(id)
    if (!found) throw new AppError('not_found', 'This message no longer exists.')
    return found
  }
}

import type { Message } from '@shared/domain'
import type { MemoryService } from './memoryService'

/**
 * A model that can read a user's message and name durable preferences or facts in it. Model
 * providers are a later issue; until one implements this, nothing is extracted.
 */
export interface MemoryExtractor {
  extract(
    message: Pick<Message, 'content' | 'role'>
  ): Promise<{ content: string; category: 'user_preference' | 'fact' }[]>
}

/**
 * The hook ChatService calls after a turn. Without an extractor it does nothing and never
 * fails; with one it runs in the background and saves what it finds through the usual dedup.
 */
export class AutomaticMemoryExtraction {
  constructor(
    private readonly memory: MemoryService,
    private readonly extractor: MemoryExtractor | null,
    private readonly log: (message: string, error: unknown) => void
  ) {}

  get enabled(): boolean {
    return this.extractor !== null
  }

  async afterUserMessage(message: Message): Promise<number> {
    if (!this.extractor || message.role !== 'user') return 0
    try {
      const found = await this.extractor.extract(message)
      for (const item of found) {
        await this.memory.create({
          content: item.content,
          category: item.category,
          sourceThreadId: message.threadId,
          sourceMessageId: message.id,
          reason: 'extraction'
        })
      }
      return found.length
    } catch (error) {
      this.log(`memory extraction for message ${message.id} failed`, error)
      return 0
    }
  }
}

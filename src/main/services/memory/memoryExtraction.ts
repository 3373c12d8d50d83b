/**
 * Automatic memory extraction, after a turn and in the background: the thread's own model
 * reads the user's message and names durable preferences and facts, which are saved through
 * the memory service's usual deduplication. Nothing happens without a configured model or
 * when the user switched it off, and a failure is logged, never shown as a broken turn.
 */
import type { Message, MemoryChange } from '@shared/domain'
import type { ExtractedMemory, ExtractionInput } from '../../context/recall/memoryExtractionPrompt'
import type { ChatTarget } from '../providers/modelResolver'
import type { Publish } from '../events'
import type { MemoryService } from './memoryService'

/** A model that can read a user's message and name durable preferences or facts in it. */
export interface MemoryExtractor {
  extract(input: ExtractionInput, signal?: AbortSignal): Promise<ExtractedMemory[]>
}

export interface MemoryExtractionDeps {
  memory: MemoryService
  /** The extractor for a turn's model (a provider-backed one in the app, scripted in tests). */
  extractorFor: (target: ChatTarget) => MemoryExtractor
  /** The user's setting; read at every turn so switching it off takes effect at once. */
  enabled: () => boolean
  /** The reply the user's message answered (context for short answers), if any. */
  previousReply: (message: Message) => string | null
  publish: Publish
  log: (message: string, error: unknown) => void
}

export class AutomaticMemoryExtraction {
  /** Per thread, the tail of its chain of extractions: messages are read in order, one at a time. */
  private readonly running = new Map<string, Promise<void>>()
  /** Regenerating a reply ends the same turn again; its message is not read (and paid for) twice. */
  private readonly seen = new Set<number>()

  constructor(private readonly deps: MemoryExtractionDeps) {}

  /** Called after a turn; returns at once. */
  afterTurn(input: Message, target: ChatTarget | null): void {
    if (!target || input.role !== 'user' || !input.content.trim()) return
    if (!this.deps.enabled() || this.seen.has(input.id)) return
    this.seen.add(input.id)
    const extractor = this.deps.extractorFor(target)
    const previous = this.running.get(input.threadId) ?? Promise.resolve()
    const job = previous
      .then(() => this.extract(extractor, input))
      .finally(() => {
        if (this.running.get(input.threadId) === job) this.running.delete(input.threadId)
      })
    this.running.set(input.threadId, job)
  }

  /** Resolves once no extraction is running (tests, and quitting cleanly). */
  async settled(threadId?: string): Promise<void> {
    const jobs = threadId === undefined ? [...this.running.values()] : [this.running.get(threadId)]
    await Promise.all(jobs)
  }

  private async extract(extractor: MemoryExtractor, input: Message): Promise<void> {
    try {
      const found = await extractor.extract({
        userMessage: input.content,
        previousReply: this.deps.previousReply(input)
      })
      const changes: MemoryChange[] = []
      for (const item of found) {
        changes.push(
          await this.deps.memory.create({
            content: item.content,
            category: item.category,
            sourceThreadId: input.threadId,
            sourceMessageId: input.id,
            reason: 'extraction'
          })
        )
      }
      if (changes.length > 0) {
        this.deps.publish('memory:extracted', {
          threadId: input.threadId,
          messageId: input.id,
          changes
        })
      }
    } catch (error) {
      this.deps.log(`memory extraction for message ${input.id} failed`, error)
    }
  }
}

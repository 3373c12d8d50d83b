import type { Thread, ThreadListItem } from '@shared/domain'
import type { ModelRef } from '@shared/providers'
import { AppError } from '@shared/result'
import { modelOfThread } from '@shared/threadSettings'
import type { ThreadRepository } from '../../store/threadRepository'
import type { Publish } from '../events'

const AUTO_TITLE_CHARS = 40
/** UTF-16 units read from the first non-space: the title's 40 characters and the spaces between. */
const TITLE_SOURCE = 4 * AUTO_TITLE_CHARS

/**
 * A thread created without a user-chosen title is named after its first message, so the
 * sidebar is readable without asking the user to name every conversation.
 */
export function titleFromMessage(content: string): string {
  const start = content.search(/\S/u)
  if (start === -1) return ''
  // Only the head is read: the first message may be a 2 M-character paste, and flattening all
  // of it held the main thread for 30 ms (a major GC besides).
  const head = content.slice(start, start + TITLE_SOURCE)
  const chars = [...head.replace(/\s+/gu, ' ').trimEnd()]
  const more =
    start + TITLE_SOURCE < content.length && /\S/u.test(content.slice(start + TITLE_SOURCE))
  if (chars.length <= AUTO_TITLE_CHARS && !more) return chars.join('')
  return `${chars.slice(0, AUTO_TITLE_CHARS).join('').trimEnd()}…`
}

export class ThreadService {
  constructor(
    private readonly threads: ThreadRepository,
    private readonly deps: { now: () => number; newId: () => string; publish: Publish }
  ) {}

  list(): ThreadListItem[] {
    return this.threads.list()
  }

  /**
   * Without a title the thread is untitled (an empty string the UI shows in its own language)
   * until its first message names it.
   */
  create(title?: string): Thread {
    const thread = this.threads.create({
      id: this.deps.newId(),
      title: title ?? '',
      now: this.deps.now(),
      settings: { autoTitle: title === undefined }
    })
    this.deps.publish('threads:changed', { threadId: thread.id })
    return thread
  }

  get(id: string): Thread {
    const thread = this.threads.get(id)
    if (!thread) throw new AppError('not_found', 'This conversation no longer exists.')
    return thread
  }

  rename(id: string, title: string): Thread {
    this.get(id)
    this.threads.updateSettings(id, { autoTitle: false })
    const thread = this.threads.rename(id, title, this.deps.now()) as Thread
    this.deps.publish('threads:changed', { threadId: id })
    return thread
  }

  /** Called after a user message is stored; names an auto-titled thread once. */
  adoptTitleFrom(id: string, content: string): void {
    const thread = this.get(id)
    if (thread.settings.autoTitle !== true) return
    this.threads.updateSettings(id, { autoTitle: false })
    this.threads.rename(id, titleFromMessage(content), this.deps.now())
  }

  /** The thread's own provider and model; null clears it, so the default applies again. */
  setModel(id: string, model: ModelRef | null): Thread {
    this.get(id)
    this.threads.updateSettings(id, { model })
    this.deps.publish('threads:changed', { threadId: id })
    return this.get(id)
  }

  /** The thread's own choice (not the default), if it has a valid one. */
  modelOf(id: string): ModelRef | null {
    return modelOfThread(this.get(id).settings)
  }

  delete(id: string): void {
    if (!this.threads.delete(id)) {
      throw new AppError('not_found', 'This conversation no longer exists.')
    }
    this.deps.publish('threads:changed', { threadId: id })
  }
}

import type { Thread, ThreadSummaryView } from '@shared/domain'
import { AppError } from '@shared/result'
import { ActiveTaskTracker } from '../../context/sections/activeTaskTracker'
import type { ForkRepository } from '../../store/forkRepository'
import type { MessageRepository } from '../../store/messageRepository'
import type { SummaryRepository } from '../../store/summaryRepository'
import type { ThreadRepository } from '../../store/threadRepository'
import type { Publish } from '../events'
import { titleFromMessage } from './threadService'

export interface ForkServiceDeps {
  threads: ThreadRepository
  messages: MessageRepository
  summaries: SummaryRepository
  forks: ForkRepository
  now: () => number
  newId: () => string
  publish: Publish
  /**
   * The origin's earlier summary versions, newest first (the summary history of issue #13,
   * when the store keeps one). Without it only the current summary is considered.
   */
  summaryVersions?: (threadId: string) => readonly SummaryVersion[]
}

type SummaryVersion = Pick<ThreadSummaryView, 'content' | 'lastMessageSeq' | 'source'>

/**
 * "Branch from here": a new thread holding a copy of the history up to and including one
 * message. Nothing of what came after reaches the fork: not the messages, not a summary that
 * covered them, not the active-task state they moved (it is replayed from the copied messages),
 * and not recall (forkRecallFilter.ts). The origin may be deleted later; the fork keeps its copy.
 */
export class ForkService {
  constructor(private readonly deps: ForkServiceDeps) {}

  fork(messageId: number): Thread {
    const place = this.deps.messages.locate(messageId)
    if (!place) throw new AppError('not_found', 'This message no longer exists.')
    const origin = this.deps.threads.get(place.threadId)
    if (!origin) throw new AppError('not_found', 'This conversation no longer exists.')
    const copied = this.deps.messages
      .listByThread(origin.id)
      .filter((message) => message.seq <= place.seq)

    // A summary is reused only if it covers nothing after the fork point: the newest version
    // that fits, or none, and the fork summarizes its own copy later.
    const current = this.deps.summaries.get(origin.id)
    const summary =
      [...(current ? [current] : []), ...(this.deps.summaryVersions?.(origin.id) ?? [])].find(
        (version) => version.lastMessageSeq <= place.seq && version.content.trim() !== ''
      ) ?? null
    // Every user message was observed when it was sent, excluded ones included.
    const tasks = new ActiveTaskTracker()
    for (const message of copied) {
      if (message.role === 'user') tasks.observe(message.content, message.seq)
    }
    const first = copied.find((message) => message.role === 'user')
    const forkId = this.deps.newId()
    const now = this.deps.now()
    this.deps.forks.atomically(() => {
      this.deps.forks.copy({
        originId: origin.id,
        forkId,
        seq: place.seq,
        title: origin.title || (first ? titleFromMessage(first.content) : ''),
        // The per-thread settings as they are at the fork (context budget, model...), copied
        // once: later changes on either side stay on that side.
        settings: { ...origin.settings, autoTitle: false, taskState: tasks.state },
        now
      })
      if (summary) {
        const { content, lastMessageSeq, source } = summary
        this.deps.summaries.put(forkId, { content, lastMessageSeq, source }, now)
      }
    })
    this.deps.publish('threads:changed', { threadId: forkId })
    return this.deps.threads.get(forkId) as Thread
  }
}

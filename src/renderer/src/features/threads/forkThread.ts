import type { Thread } from '@shared/domain'
import { openThreadAt } from '@renderer/features/memory/navigation'
import { call } from '@renderer/lib/call'
import { useThreadsStore } from './threadsStore'

/**
 * "Branch from here": main copies the history up to the message into a new thread, which is
 * then opened. Throws ApiError (the message was deleted meanwhile, the disk is full...).
 */
export async function forkFrom(messageId: number): Promise<Thread> {
  const thread = await call(window.api.threads.fork({ messageId }))
  await useThreadsStore.getState().load()
  openThreadAt(thread.id)
  return thread
}

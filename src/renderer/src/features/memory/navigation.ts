import { useChatStore } from '@renderer/features/chat/chatStore'
import { useThreadsStore } from '@renderer/features/threads/threadsStore'
import { call } from '@renderer/lib/call'
import { useMemoryViewStore } from './memoryViewStore'

/**
 * Leaves the memory manager for a thread and, if given, scrolls to one of its messages. Every
 * link to a message (search hits, memory origins, recalled messages in the inspector) goes
 * through here, so they all land the same way.
 */
export function openThreadAt(threadId: string, messageId: number | null = null): void {
  useMemoryViewStore.getState().hide()
  // Ask for the reveal before switching, so the list scrolls there instead of to the bottom.
  if (messageId !== null) useChatStore.getState().revealMessage(threadId, messageId)
  useThreadsStore.getState().select(threadId)
}

/** A recalled message is known by id only: main says which thread holds it. Throws ApiError. */
export async function openMessageById(messageId: number): Promise<void> {
  const { threadId } = await call(window.api.messages.locate({ id: messageId }))
  openThreadAt(threadId, messageId)
}

export function openMemory(memoryId: number): void {
  useMemoryViewStore.getState().show(memoryId)
}

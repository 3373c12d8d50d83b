import { create } from 'zustand'
import type { MemoryChange } from '@shared/domain'
import { call, describeError } from '@renderer/lib/call'

/** How long the outcome of "Remember this" stays next to the message. */
export const REMEMBER_FEEDBACK_MS = 6000

/** What "Remember this" did, as the user reads it (keys of `memory.remember`). */
type RememberResult = 'created' | 'updatedSimilar' | 'updated' | 'unchanged'

export type RememberFeedback =
  | { state: 'pending' }
  | { state: 'done'; result: RememberResult; memoryId: number }
  | { state: 'failed'; message: string }

const resultOf = (change: MemoryChange): RememberResult => {
  if (change.action === 'created') return 'created'
  if (change.action === 'unchanged') return 'unchanged'
  return change.dedup === 'similar' ? 'updatedSimilar' : 'updated'
}

interface RememberState {
  /** By message id. Kept outside the rows: the virtualized list unmounts rows that scroll away. */
  feedback: Record<number, RememberFeedback>
  remember(messageId: number): Promise<void>
}

export const useRememberStore = create<RememberState>()((set, get) => {
  const timers = new Map<number, ReturnType<typeof setTimeout>>()

  const show = (messageId: number, feedback: RememberFeedback): void => {
    clearTimeout(timers.get(messageId))
    set((state) => ({ feedback: { ...state.feedback, [messageId]: feedback } }))
    if (feedback.state === 'pending') return
    timers.set(
      messageId,
      setTimeout(() => {
        timers.delete(messageId)
        set((state) => {
          const feedback = { ...state.feedback }
          delete feedback[messageId]
          return { feedback }
        })
      }, REMEMBER_FEEDBACK_MS)
    )
  }

  return {
    feedback: {},

    async remember(messageId) {
      if (get().feedback[messageId]?.state === 'pending') return
      show(messageId, { state: 'pending' })
      try {
        const change = await call(window.api.messages.remember({ id: messageId }))
        show(messageId, { state: 'done', result: resultOf(change), memoryId: change.memory.id })
      } catch (error) {
        show(messageId, { state: 'failed', message: describeError(error) })
      }
    }
  }
})

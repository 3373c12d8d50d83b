import { create } from 'zustand'
import type { MemoryExtracted } from '@shared/domain'
import { ApiError, call, describeError } from '@renderer/lib/call'
import { latestRequest, type LatestRequest } from '@renderer/lib/latestRequest'

/** One memory automatic extraction saved from a user message, as the chat shows it. */
export interface ExtractedNote {
  memoryId: number
  content: string
  /** `unchanged`/`updated`: the memory already existed (same or near-identical text). */
  action: 'created' | 'updated' | 'unchanged'
  /** The user pressed Forget; Undo restores it. */
  forgotten: boolean
  error: string | null
}

interface ExtractedState {
  /** By user message id. Kept outside the rows: the virtualized list unmounts rows that scroll away. */
  byMessage: Record<number, ExtractedNote[]>
  watch(): () => void
  forget(messageId: number, memoryId: number): Promise<void>
  undo(messageId: number, memoryId: number): Promise<void>
}

/**
 * What the assistant remembered on its own, next to the message it came from, so the user
 * sees every automatic memory when it is made and can forget it in one click.
 */
export const useExtractedStore = create<ExtractedState>()((set, get) => {
  // Two edits in a row each re-read the memory; the second read's answer is the one to keep.
  const reads = new Map<number, LatestRequest>()
  const readOf = (memoryId: number): LatestRequest => {
    let read = reads.get(memoryId)
    if (!read) reads.set(memoryId, (read = latestRequest()))
    return read
  }

  const patch = (messageId: number, memoryId: number, change: Partial<ExtractedNote>): void =>
    set((state) => ({
      byMessage: {
        ...state.byMessage,
        [messageId]: (state.byMessage[messageId] ?? []).map((note) =>
          note.memoryId === memoryId ? { ...note, ...change } : note
        )
      }
    }))

  const toggle = async (messageId: number, memoryId: number, forget: boolean): Promise<void> => {
    try {
      if (forget) await call(window.api.memory.delete({ id: memoryId }))
      else await call(window.api.memory.restore({ id: memoryId }))
      patch(messageId, memoryId, { forgotten: forget, error: null })
    } catch (error) {
      // Deleted elsewhere (the memory manager) already: what Forget asked for is done, and
      // Undo can still bring it back.
      if (forget && error instanceof ApiError && error.code === 'not_found') {
        patch(messageId, memoryId, { forgotten: true, error: null })
      } else {
        patch(messageId, memoryId, { error: describeError(error) })
      }
    }
  }

  return {
    byMessage: {},

    watch() {
      const stopExtracted = window.api.on('memory:extracted', (event: MemoryExtracted) => {
        const notes = event.changes.map((change) => ({
          memoryId: change.memory.id,
          content: change.memory.content,
          action: change.action,
          forgotten: false,
          error: null
        }))
        set((state) => ({ byMessage: { ...state.byMessage, [event.messageId]: notes } }))
      })
      // Edited, deleted or restored elsewhere (the memory manager): the note follows.
      const stopChanged = window.api.on('memory:changed', ({ memoryId }) => {
        const holders = Object.entries(get().byMessage).filter(([, notes]) =>
          notes.some((note) => note.memoryId === memoryId)
        )
        if (holders.length === 0) return
        const ticket = readOf(memoryId).start()
        void call(window.api.memory.origin({ id: memoryId })).then(
          ({ memory }) => {
            if (!ticket.isLatest()) return
            for (const [messageId] of holders) {
              patch(Number(messageId), memoryId, { content: memory.content, forgotten: false })
            }
          },
          (error: unknown) => {
            if (!ticket.isLatest()) return
            if (!(error instanceof ApiError && error.code === 'not_found')) return
            for (const [messageId] of holders) {
              patch(Number(messageId), memoryId, { forgotten: true, error: null })
            }
          }
        )
      })
      return () => {
        stopExtracted()
        stopChanged()
      }
    },

    forget: (messageId, memoryId) => toggle(messageId, memoryId, true),
    undo: (messageId, memoryId) => toggle(messageId, memoryId, false)
  }
})

import { create } from 'zustand'
import {
  MAX_FILE_BYTES,
  type AttachOutcome,
  type AttachmentScope,
  type AttachmentView,
  type FileRefusal
} from '@shared/files'
import { call, describeError } from '@renderer/lib/call'
import { latestRequest, type LatestRequest } from '@renderer/lib/latestRequest'

/** A file that did not attach: refused by main (with its reason) or failed on the way. */
export type FileProblem =
  { kind: 'refused'; refusal: FileRefusal } | { kind: 'failed'; name: string; message: string }

interface FilesState {
  /** Per thread: every attachment (drafts, thread files, sent ones), oldest first. */
  byThread: Record<string, AttachmentView[]>
  /** Per thread: files that did not attach, shown until dismissed. */
  problems: Record<string, FileProblem[]>
  /** Per thread: files being read and stored right now. */
  reading: Record<string, number>
  load(threadId: string): Promise<void>
  /** Dropped or pasted files: each is checked for size here, then read and sent to main. */
  attachFiles(threadId: string, scope: AttachmentScope, files: readonly File[]): Promise<void>
  /** Main's file dialog. */
  pick(threadId: string, scope: AttachmentScope): Promise<void>
  remove(threadId: string, id: string): Promise<void>
  dismissProblems(threadId: string): void
  /** Follows `files:changed`; returns the unsubscribe. */
  watch(): () => void
}

const tickets = new Map<string, LatestRequest>()
const ticketFor = (threadId: string): LatestRequest => {
  let ticket = tickets.get(threadId)
  if (!ticket) tickets.set(threadId, (ticket = latestRequest()))
  return ticket
}

/** The file's bytes as base64, which travels through IPC and the test harness's JSON alike. */
async function base64Of(file: File): Promise<string> {
  const url = await new Promise<string>((resolve, reject) => {
    const reader = new FileReader()
    reader.onload = () => resolve(reader.result as string)
    reader.onerror = () => reject(reader.error ?? new Error('The file could not be read.'))
    reader.readAsDataURL(file)
  })
  return url.slice(url.indexOf(',') + 1)
}

const tooLarge = (file: File): FileProblem => ({
  kind: 'refused',
  refusal: {
    name: file.name,
    reason: 'too_large',
    message: `"${file.name}" is larger than the limit.`,
    limit: MAX_FILE_BYTES
  }
})

export const useFilesStore = create<FilesState>()((set, get) => {
  const addProblems = (threadId: string, added: FileProblem[]) => {
    if (added.length === 0) return
    set((state) => ({
      problems: { ...state.problems, [threadId]: [...(state.problems[threadId] ?? []), ...added] }
    }))
  }
  const reading = (threadId: string, delta: number) =>
    set((state) => ({
      reading: { ...state.reading, [threadId]: (state.reading[threadId] ?? 0) + delta }
    }))
  const settle = async (threadId: string, outcomes: readonly AttachOutcome[]) => {
    addProblems(
      threadId,
      outcomes.flatMap((outcome) =>
        outcome.status === 'refused' ? [{ kind: 'refused' as const, refusal: outcome.refusal }] : []
      )
    )
    await get().load(threadId)
  }

  return {
    byThread: {},
    problems: {},
    reading: {},

    async load(threadId) {
      const ticket = ticketFor(threadId).start()
      try {
        const list = await call(window.api.files.list({ threadId }))
        if (!ticket.isLatest()) return
        set((state) => ({ byThread: { ...state.byThread, [threadId]: list } }))
      } catch {
        // A thread deleted meanwhile has no files to show; the chat reports the thread itself.
      }
    },

    async attachFiles(threadId, scope, files) {
      const outcomes: AttachOutcome[] = []
      const problems: FileProblem[] = []
      reading(threadId, files.length)
      try {
        for (const file of files) {
          // Checked here too, so a 2 GB file is never read into memory to be refused.
          if (file.size > MAX_FILE_BYTES) {
            problems.push(tooLarge(file))
            continue
          }
          try {
            const data = await base64Of(file)
            const mime = file.type || null
            outcomes.push(
              await call(window.api.files.attach({ threadId, scope, name: file.name, mime, data }))
            )
          } catch (error) {
            problems.push({ kind: 'failed', name: file.name, message: describeError(error) })
          }
        }
      } finally {
        reading(threadId, -files.length)
      }
      addProblems(threadId, problems)
      await settle(threadId, outcomes)
    },

    async pick(threadId, scope) {
      try {
        const picked = await call(window.api.files.pick({ threadId, scope }))
        await settle(threadId, picked.outcomes)
      } catch (error) {
        addProblems(threadId, [{ kind: 'failed', name: '', message: describeError(error) }])
      }
    },

    async remove(threadId, id) {
      try {
        await call(window.api.files.remove({ id }))
      } catch (error) {
        addProblems(threadId, [{ kind: 'failed', name: '', message: describeError(error) }])
      }
      await get().load(threadId)
    },

    dismissProblems(threadId) {
      set((state) => ({ problems: { ...state.problems, [threadId]: [] } }))
    },

    watch() {
      return window.api.on('files:changed', ({ threadId }) => {
        if (threadId in get().byThread) void get().load(threadId)
      })
    }
  }
})

/** The composer's files: attached to the next message, not sent yet. */
export const draftFilesOf = (list: readonly AttachmentView[] | undefined): AttachmentView[] =>
  (list ?? []).filter((a) => a.scope === 'message' && a.messageId === null)

export const threadFilesOf = (list: readonly AttachmentView[] | undefined): AttachmentView[] =>
  (list ?? []).filter((a) => a.scope === 'thread')

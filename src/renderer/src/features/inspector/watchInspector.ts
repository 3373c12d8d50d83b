import { useChatStore } from '@renderer/features/chat/chatStore'
import { useInspectorStore } from './inspectorStore'

type ChatState = ReturnType<typeof useChatStore.getState>

const draftOf = (chat: ChatState): string =>
  chat.threadId ? (chat.drafts[chat.threadId] ?? '') : ''

let watchers = 0
let stopWatching: (() => void) | null = null

/**
 * Keeps the inspector's store on the chat's open thread while something shows it: the panel,
 * or the chat's gauge, which reads the same preview (one build per draft, not one per view).
 * Returns the unsubscribe; the store stops when its last reader does.
 */
export function watchInspector(): () => void {
  if (watchers++ === 0) stopWatching = follow()
  let stopped = false
  return () => {
    if (stopped) return
    stopped = true
    if (--watchers === 0) {
      stopWatching?.()
      stopWatching = null
    }
  }
}

/**
 * Follows the open thread: its draft (as the user types), its messages (a send or a
 * pin/exclude changes what would be sent), its summary (updated in the background after
 * turns) and the builds main reports after each send.
 */
function follow(): () => void {
  const inspector = useInspectorStore.getState()
  const chat = useChatStore.getState()
  inspector.openThread(chat.threadId, draftOf(chat))

  const stopChat = useChatStore.subscribe((state, previous) => {
    if (state.threadId !== previous.threadId) {
      inspector.openThread(state.threadId, draftOf(state))
    } else if (state.messages !== previous.messages && previous.status === 'ready') {
      // A send (which also empties the draft) or a flag change; not the thread's first load,
      // which the preview built on opening already reflects.
      inspector.setDraft(draftOf(state))
      inspector.refresh()
    } else if (draftOf(state) !== draftOf(previous)) {
      inspector.setDraft(draftOf(state))
    }
  })
  const stopEvents = window.api.on('context:built', inspector.addBuild)
  // A summary stored in the background changes what the next request's summary section holds.
  const stopSummary = window.api.on('summary:changed', (summary) => {
    if (summary.threadId === useInspectorStore.getState().threadId) inspector.refresh()
  })

  // Attaching or removing a file changes what the draft's request would carry.
  const stopFiles = window.api.on('files:changed', ({ threadId }) => {
    if (threadId === useInspectorStore.getState().threadId) inspector.refresh()
  })

  return () => {
    stopChat()
    stopEvents()
    stopSummary()
    stopFiles()
    inspector.stop()
  }
}

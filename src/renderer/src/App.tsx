import { useEffect } from 'react'
import { RecoveryNotice } from './components/RecoveryNotice'
import { ChatPane } from './features/chat/ChatPane'
import { InspectorPanel } from './features/inspector/InspectorPanel'
import { ThreadSidebar } from './features/threads/ThreadSidebar'
import { useThreadsStore } from './features/threads/threadsStore'

export function App() {
  // The thread list stays in step with main for the whole session.
  useEffect(() => useThreadsStore.getState().watch(), [])

  return (
    <div className="app">
      <RecoveryNotice />
      <ThreadSidebar />
      <ChatPane />
      <InspectorPanel />
    </div>
  )
}

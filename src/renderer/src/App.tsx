import { useEffect, useLayoutEffect } from 'react'
import { RecoveryNotice } from './components/RecoveryNotice'
import { ChatPane } from './features/chat/ChatPane'
import { useChatStore } from './features/chat/chatStore'
import { useHistoryStore } from './features/history/historyStore'
import { InspectorPanel } from './features/inspector/InspectorPanel'
import { MemoryManager } from './features/memory/MemoryManager'
import { useExtractedStore } from './features/memory/extractedStore'
import { useMemoryStatusStore } from './features/memory/memoryStatusStore'
import { useMemoryViewStore } from './features/memory/memoryViewStore'
import { SettingsPage } from './features/settings/SettingsPage'
import { useProvidersStore } from './features/settings/providers/providersStore'
import { useSettingsStore } from './features/settings/settingsStore'
import { applyTheme } from './features/settings/theme'
import { SummaryCompareDialog } from './features/summaries/SummaryCompareDialog'
import { ThreadSidebar } from './features/threads/ThreadSidebar'
import { useToolsStore } from './features/tools/toolsStore'
import { useThreadsStore } from './features/threads/threadsStore'

export function App() {
  // The thread list stays in step with main for the whole session.
  useEffect(() => useThreadsStore.getState().watch(), [])
  // So is recall's status, which the sidebar shows at all times.
  useEffect(() => useMemoryStatusStore.getState().watch(), [])
  // Replies stream in as events; provider changes refresh the model lists.
  useEffect(() => useChatStore.getState().watch(), [])
  useEffect(() => useProvidersStore.getState().watch(), [])
  // The default model follows the providers (main adopts the first model added).
  useEffect(() => useSettingsStore.getState().watch(), [])
  // Whether any provider exists decides between the welcome and the chat's first screen.
  useEffect(() => void useProvidersStore.getState().load(), [])
  // Tool calls waiting for consent and MCP server changes arrive as events.
  useEffect(() => useToolsStore.getState().watch(), [])
  // Memories the assistant kept on its own appear under the message they came from.
  useEffect(() => useExtractedStore.getState().watch(), [])
  // An import's progress and summary reach the dialog and the sidebar entry.
  useEffect(() => useHistoryStore.getState().watch(), [])
  const memoryOpen = useMemoryViewStore((state) => state.open)
  const theme = useSettingsStore((state) => state.settings.theme)
  // Before the first paint, so a dark theme never flashes light.
  useLayoutEffect(() => applyTheme(theme), [theme])

  return (
    <div className="app">
      <RecoveryNotice />
      <ThreadSidebar />
      {memoryOpen ? <MemoryManager /> : <ChatPane />}
      <InspectorPanel />
      <SettingsPage />
      <SummaryCompareDialog />
    </div>
  )
}

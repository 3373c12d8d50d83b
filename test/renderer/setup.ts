import '@testing-library/jest-dom/vitest'
import { cleanup } from '@testing-library/react'
import { afterEach, vi } from 'vitest'
import { i18n, initI18n } from '@renderer/i18n'
import { useChatStore } from '@renderer/features/chat/chatStore'
import { useInspectorStore } from '@renderer/features/inspector/inspectorStore'
import { useMemoryListStore } from '@renderer/features/memory/memoryListStore'
import { useMemoryStatusStore } from '@renderer/features/memory/memoryStatusStore'
import { useMemoryViewStore } from '@renderer/features/memory/memoryViewStore'
import { useRememberStore } from '@renderer/features/memory/rememberStore'
import { useSearchStore } from '@renderer/features/threads/searchStore'
import { useSettingsStore } from '@renderer/features/settings/settingsStore'
import { useProvidersStore } from '@renderer/features/settings/providers/providersStore'
import { useThreadsStore } from '@renderer/features/threads/threadsStore'
import { useThreadStatsStore } from '@renderer/features/threads/threadStatsStore'

// jsdom has no layout engine: these exist so components that observe sizes or scroll can mount.
class ResizeObserverStub {
  observe(): void {}
  unobserve(): void {}
  disconnect(): void {}
}
globalThis.ResizeObserver ??= ResizeObserverStub

// jsdom keeps scrollTop but has no scrollTo. Like a browser, the scroll event follows later,
// not inside the call (a synchronous event would make React flush during a commit).
Element.prototype.scrollTo = function scrollTo(
  this: Element,
  optionsOrX?: ScrollToOptions | number,
  y?: number
) {
  const top = typeof optionsOrX === 'number' ? y : optionsOrX?.top
  if (typeof top === 'number') this.scrollTop = top
  setTimeout(() => this.dispatchEvent(new Event('scroll')), 0)
}

await initI18n('en')

afterEach(async () => {
  cleanup()
  vi.useRealTimers()
  vi.restoreAllMocks()
  // Stores are module singletons: every test starts from the state the app starts with.
  useSearchStore.getState().clear() // also cancels a pending debounced search
  useInspectorStore.getState().stop() // cancels a scheduled preview
  useMemoryListStore.getState().dismissUndo() // cancels the undo offer's timer
  useThreadsStore.setState(useThreadsStore.getInitialState(), true)
  useThreadStatsStore.setState(useThreadStatsStore.getInitialState(), true)
  useChatStore.setState(useChatStore.getInitialState(), true)
  useSearchStore.setState(useSearchStore.getInitialState(), true)
  useSettingsStore.setState(useSettingsStore.getInitialState(), true)
  useProvidersStore.setState(useProvidersStore.getInitialState(), true)
  useInspectorStore.setState(useInspectorStore.getInitialState(), true)
  useMemoryListStore.setState(useMemoryListStore.getInitialState(), true)
  useMemoryStatusStore.setState(useMemoryStatusStore.getInitialState(), true)
  useMemoryViewStore.setState(useMemoryViewStore.getInitialState(), true)
  useRememberStore.setState(useRememberStore.getInitialState(), true)
  localStorage.clear()
  await i18n.changeLanguage('en')
})

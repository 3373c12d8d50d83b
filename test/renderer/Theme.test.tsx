import { render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { App } from '@renderer/App'
import { useSettingsStore } from '@renderer/features/settings/settingsStore'
import { installFakeBackend, type FakeBackend } from './support/fakeApi'

let backend: FakeBackend
beforeEach(async () => {
  backend = await installFakeBackend()
})

/** A system in dark mode, as matchMedia reports it (jsdom has none). */
function systemIsDark(dark: boolean) {
  const listeners = new Set<() => void>()
  const media = {
    matches: dark,
    addEventListener: (_: string, listener: () => void) => listeners.add(listener),
    removeEventListener: (_: string, listener: () => void) => listeners.delete(listener)
  }
  vi.stubGlobal('matchMedia', () => media)
  return (next: boolean) => {
    media.matches = next
    for (const listener of listeners) listener()
  }
}

describe('theme', () => {
  it('follows the system until the user picks light or dark, and remembers the pick', async () => {
    const switchSystem = systemIsDark(true)
    await useSettingsStore.getState().load()
    const user = userEvent.setup()
    render(<App />)
    const root = document.documentElement
    expect(root.dataset.theme).toBe('dark')
    switchSystem(false)
    expect(root.dataset.theme).toBe('light')

    await user.selectOptions(screen.getByTestId('theme-select'), 'dark')
    expect(root.dataset.theme).toBe('dark')
    expect(backend.settings.theme).toBe('dark')
    // A chosen theme no longer follows the system.
    switchSystem(true)
    switchSystem(false)
    expect(root.dataset.theme).toBe('dark')
    vi.unstubAllGlobals()
  })
})

import { render, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { beforeEach, describe, expect, it } from 'vitest'
import { i18n } from '@renderer/i18n'
import { PromptCacheTtlSelect } from '@renderer/features/settings/PromptCacheTtlSelect'
import { SettingsPage } from '@renderer/features/settings/SettingsPage'
import { useProvidersStore } from '@renderer/features/settings/providers/providersStore'
import { useSettingsStore } from '@renderer/features/settings/settingsStore'
import { installFakeBackend, type FakeBackend } from './support/fakeApi'

let backend: FakeBackend

beforeEach(async () => {
  backend = await installFakeBackend()
  await useSettingsStore.getState().load()
})

const updates = () =>
  backend.calls.filter((call) => call.channel === 'settings:update').map((call) => call.input)

describe('the prompt-cache TTL setting', () => {
  it('shows the stored TTL and explains that it is for Anthropic and what 1 hour costs', () => {
    render(<PromptCacheTtlSelect />)
    const select = screen.getByLabelText('Prompt cache (Anthropic)')
    expect(select).toHaveValue('5m')
    const explain = screen.getByTestId('prompt-cache-ttl-explain')
    expect(explain).toHaveTextContent('Applies to Anthropic models only')
    expect(explain).toHaveTextContent('2× the input price instead of 1.25×')
    expect(select).toHaveAccessibleDescription(explain.textContent!)
  })

  it('saves a change in the settings', async () => {
    const user = userEvent.setup()
    render(<PromptCacheTtlSelect />)

    await user.selectOptions(screen.getByTestId('prompt-cache-ttl'), '1h')

    expect(updates()).toEqual([{ promptCacheTtl: '1h' }])
    expect(backend.settings.promptCacheTtl).toBe('1h')
    expect(screen.getByTestId('prompt-cache-ttl')).toHaveValue('1h')
  })

  it('rolls back when the save fails, and says why', async () => {
    const user = userEvent.setup()
    backend.failNext('settings:update', { code: 'storage_error', message: 'Disk is full' })
    render(<PromptCacheTtlSelect />)

    await user.selectOptions(screen.getByTestId('prompt-cache-ttl'), '1h')

    expect(screen.getByTestId('prompt-cache-ttl')).toHaveValue('5m')
    expect(useSettingsStore.getState().error).toEqual({ kind: 'save', message: 'Disk is full' })
    expect(backend.settings.promptCacheTtl).toBe('5m')
  })

  it('reads a stored 1-hour TTL', async () => {
    await backend.main.settings.update({ promptCacheTtl: '1h' })
    await useSettingsStore.getState().load()
    render(<PromptCacheTtlSelect />)
    expect(screen.getByTestId('prompt-cache-ttl')).toHaveValue('1h')
  })

  it('is in Chinese when the UI is', async () => {
    await i18n.changeLanguage('zh-CN')
    try {
      render(<PromptCacheTtlSelect />)
      expect(screen.getByLabelText('提示缓存（Anthropic）')).toBeInTheDocument()
      expect(screen.getByRole('option', { name: '1 小时' })).toBeInTheDocument()
      expect(screen.getByTestId('prompt-cache-ttl-explain')).toHaveTextContent(
        '仅适用于 Anthropic 模型'
      )
    } finally {
      await i18n.changeLanguage('en')
    }
  })

  it('sits in the model settings, next to the default model', () => {
    useProvidersStore.setState({ open: true })
    render(<SettingsPage />)
    const dialog = screen.getByTestId('provider-settings')
    expect(within(dialog).getByTestId('prompt-cache-ttl')).toHaveValue('5m')
    expect(within(dialog).getByTestId('default-model-select')).toBeInTheDocument()
  })
})

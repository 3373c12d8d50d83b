import { render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { App } from '@renderer/App'
import { useSettingsStore } from '@renderer/features/settings/settingsStore'
import { i18n, resolveLanguage } from '@renderer/i18n'
import { en, zhCN } from '@renderer/i18n/resources'
import { installFakeBackend, type FakeBackend } from './support/fakeApi'

let backend: FakeBackend

beforeEach(async () => {
  backend = await installFakeBackend()
})

describe('resolveLanguage', () => {
  it('follows the system for "system": any Chinese variant gets Simplified Chinese', () => {
    expect(resolveLanguage('system', 'zh-CN')).toBe('zh-CN')
    expect(resolveLanguage('system', 'zh-TW')).toBe('zh-CN')
    expect(resolveLanguage('system', 'zh')).toBe('zh-CN')
    expect(resolveLanguage('system', 'en-GB')).toBe('en')
    expect(resolveLanguage('system', 'fr-FR')).toBe('en')
  })

  it('uses an explicit choice whatever the system says', () => {
    expect(resolveLanguage('en', 'zh-CN')).toBe('en')
    expect(resolveLanguage('zh-CN', 'en-US')).toBe('zh-CN')
  })
})

describe('language switch', () => {
  it('changes the visible text at once and remembers the choice', async () => {
    await useSettingsStore.getState().load()
    const user = userEvent.setup()
    render(<App />)
    expect(screen.getByTestId('new-thread')).toHaveTextContent('New thread')

    await user.selectOptions(screen.getByTestId('language-select'), 'zh-CN')

    expect(screen.getByTestId('new-thread')).toHaveTextContent('新建对话')
    expect(screen.getByText('欢迎使用 Context Lens')).toBeInTheDocument()
    expect(screen.getByTestId('search-input')).toHaveAttribute('placeholder', '搜索对话和消息')
    expect(document.documentElement.lang).toBe('zh-CN')
    expect(backend.settings.locale).toBe('zh-CN')

    await user.selectOptions(screen.getByTestId('language-select'), 'en')

    expect(screen.getByTestId('new-thread')).toHaveTextContent('New thread')
    expect(backend.settings.locale).toBe('en')
  })

  it('"System" follows the operating system language', async () => {
    vi.spyOn(navigator, 'language', 'get').mockReturnValue('zh-TW')
    // Chosen before: English, whatever the system says.
    await backend.main.settings.update({ locale: 'en' })
    await useSettingsStore.getState().load()
    const user = userEvent.setup()
    render(<App />)

    await user.selectOptions(screen.getByTestId('language-select'), 'system')

    expect(screen.getByTestId('new-thread')).toHaveTextContent('新建对话')
    expect(backend.settings.locale).toBe('system')
    expect(i18n.language).toBe('zh-CN')
  })
})

describe('translations', () => {
  it('every English string has a Chinese counterpart', () => {
    const keys = (value: object, prefix = ''): string[] =>
      Object.entries(value).flatMap(([key, child]) =>
        typeof child === 'object' && child !== null
          ? keys(child, `${prefix}${key}.`)
          : [`${prefix}${key}`]
      )
    expect(keys(zhCN)).toEqual(keys(en))
    expect(keys(zhCN).filter((key) => !i18n.exists(key, { lng: 'zh-CN' }))).toEqual([])
  })
})

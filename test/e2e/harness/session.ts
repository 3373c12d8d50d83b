import type { Browser } from 'playwright-core'
import { afterAll, afterEach, beforeAll } from 'vitest'
import { launchChromium, type AppWindow } from './browser'
import type { Harness } from './server'

/**
 * One Chromium per test file; the harness and app window a test opens go in `open` and are
 * closed after that test, so a failing test never leaves a server or page behind.
 */
export function useChromiumSession(): {
  browser: () => Browser
  open: { harness?: Harness; window?: AppWindow }
} {
  let browser: Browser | undefined
  const open: { harness?: Harness; window?: AppWindow } = {}
  beforeAll(async () => {
    browser = await launchChromium()
  })
  afterEach(async () => {
    await open.window?.close()
    await open.harness?.close()
    open.window = open.harness = undefined
  })
  afterAll(async () => {
    await browser?.close()
  })
  return {
    browser: () => {
      if (!browser)
        throw new Error('Chromium is not running: useChromiumSession() outside a describe?')
      return browser
    },
    open
  }
}

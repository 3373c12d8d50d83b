import type { Browser, Page } from 'playwright-core'
import { afterAll, afterEach, beforeAll } from 'vitest'
import { launchChromium, openApp, type AppWindow, type OpenOptions } from './browser'
import { startHarness, type Harness, type HarnessOptions } from './server'

export interface StartOptions extends OpenOptions {
  /** Fills the store through the real services before the page loads. */
  seed?: (harness: Harness) => Promise<unknown>
}

/**
 * One Chromium per test file; the harness and app window a test opens go in `open` and are
 * closed after that test, so a failing test never leaves a server or page behind.
 */
export function useChromiumSession(): {
  browser: () => Browser
  open: { harness?: Harness; window?: AppWindow }
  /** Starts a harness and opens the app on it, both registered in `open`. */
  start: (
    options: HarnessOptions,
    startOptions?: StartOptions
  ) => Promise<{ harness: Harness; window: AppWindow; page: Page }>
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
  const running = () => {
    if (!browser)
      throw new Error('Chromium is not running: useChromiumSession() outside a describe?')
    return browser
  }
  return {
    browser: running,
    open,
    async start(options, { seed, ...openOptions } = {}) {
      const harness = (open.harness = await startHarness(options))
      await seed?.(harness)
      const window = (open.window = await openApp(running(), harness, openOptions))
      return { harness, window, page: window.page }
    }
  }
}

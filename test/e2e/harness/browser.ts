/**
 * Real Debian Chromium driven by playwright-core, opening the built renderer served by the
 * harness. Every page error, console error, CSP violation (`securitypolicyviolation`, even the
 * ones a library catches and the console does not show) and failed response is recorded so a
 * test can fail on it.
 */
import { mkdirSync } from 'node:fs'
import { dirname } from 'node:path'
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core'
import type { Api } from '@shared/api'
import type { Harness } from './server'

const CHROMIUM_PATH = '/usr/bin/chromium'

/** `globalThis` inside the page, for `page.evaluate(() => (globalThis as PageGlobals).api...)`. */
export type PageGlobals = typeof globalThis & { api: Api }

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync'
    ]
  })
}

/** A `securitypolicyviolation` event as the page saw it. */
interface CspViolation {
  directive: string
  blockedURI: string
  sample: string
  sourceFile: string
  lineNumber: number
}

export interface AppWindow {
  context: BrowserContext
  page: Page
  /** Page errors, console errors, CSP violations and HTTP failures seen so far. */
  problems: string[]
  /** Every CSP violation reported in the page so far. */
  cspViolations: CspViolation[]
  /** Throws if anything went wrong in the page so far; call between steps to fail fast. */
  assertHealthy(): void
  screenshot(path: string): Promise<void>
  close(): Promise<void>
}

/** Runs in the page (serialized by Playwright): forwards every violation to the test. */
function REPORT_CSP_VIOLATIONS(): void {
  type ViolationEvent = Event & { [key in keyof CspViolation]: CspViolation[key] } & {
    violatedDirective: string
  }
  const page = globalThis as unknown as {
    addEventListener(
      type: string,
      listener: (event: ViolationEvent) => void,
      capture: boolean
    ): void
    __reportCspViolation(violation: CspViolation): void
  }
  page.addEventListener(
    'securitypolicyviolation',
    (event) =>
      page.__reportCspViolation({
        directive: event.violatedDirective,
        blockedURI: event.blockedURI,
        sample: event.sample,
        sourceFile: event.sourceFile,
        lineNumber: event.lineNumber
      }),
    true
  )
}

export interface OpenOptions {
  /** The browser's language (navigator.language); the app's 'system' locale follows it. */
  locale?: 'en-US' | 'zh-CN'
}

/** A fresh browser context (its own profile) with `window.api` bridged to `harness`. */
export async function openApp(
  browser: Browser,
  harness: Harness,
  { locale = 'en-US' }: OpenOptions = {}
): Promise<AppWindow> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale })
  const problems: string[] = []
  const cspViolations: CspViolation[] = []
  await context.exposeBinding('__reportCspViolation', (_source, violation: CspViolation) => {
    cspViolations.push(violation)
    problems.push(`CSP violation: ${JSON.stringify(violation)}`)
  })
  // Listens from the first line on, before the page's own scripts (or the bridge) run.
  await context.addInitScript(REPORT_CSP_VIOLATIONS)
  // Init scripts are exempt from the page's CSP (script-src 'self'), like a preload.
  await context.addInitScript({ content: harness.bridge })
  const page = await context.newPage()
  page.on('pageerror', (error) => problems.push(`page error: ${error.stack ?? error.message}`))
  page.on('crash', () => problems.push('page crashed'))
  page.on('console', (message) => {
    if (message.type() === 'error') {
      const { url, lineNumber } = message.location()
      problems.push(`console error: ${message.text()} (${url}:${lineNumber})`)
    }
  })
  page.on('response', (response) => {
    if (response.status() >= 400) problems.push(`HTTP ${response.status()}: ${response.url()}`)
  })
  await page.goto(harness.url)

  return {
    context,
    page,
    problems,
    cspViolations,
    assertHealthy() {
      if (problems.length > 0) {
        throw new Error(`The page reported problems:\n${problems.join('\n')}`)
      }
    },
    async screenshot(path) {
      mkdirSync(dirname(path), { recursive: true })
      await page.screenshot({ path })
    },
    close: () => context.close()
  }
}

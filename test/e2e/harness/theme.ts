import type { Locator, Page } from 'playwright-core'
import { animationsDone } from './page'
import { eventually } from '../../support/poll'

// The app's own theme switch, and what a theme must change: every control's background and the
// colours of highlighted code.

/** Just the browser globals used here (the file is type-checked without the DOM lib). */
interface Control {
  classList: { contains(name: string): boolean }
  getAttribute(name: string): string | null
  getBoundingClientRect(): { width: number; height: number }
  textContent: string | null
}
type ThemeGlobals = typeof globalThis & {
  document: {
    documentElement: { dataset: Record<string, string> }
    querySelectorAll(selector: string): Iterable<Control>
  }
  getComputedStyle(element: unknown): { backgroundColor: string; color: string; visibility: string }
}

/** Picks the theme in the sidebar and waits until it applies and its transitions end. */
export async function chooseTheme(page: Page, theme: 'light' | 'dark'): Promise<void> {
  await page.getByTestId('theme-select').selectOption(theme)
  await eventually(() =>
    page.evaluate(() => (globalThis as ThemeGlobals).document.documentElement.dataset.theme)
  ).toBe(theme)
  await animationsDone(page)
}

/**
 * Controls on screen with a light background of their own (relative luminance over 0.6), named
 * by test id or text. In the dark theme there should be none; primary and danger buttons keep
 * their accent colour in both themes and are left out.
 */
export function lightControls(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const globals = globalThis as ThemeGlobals
    const found: string[] = []
    for (const control of globals.document.querySelectorAll('button, select, input, textarea')) {
      const box = control.getBoundingClientRect()
      const style = globals.getComputedStyle(control)
      if (box.width === 0 || box.height === 0 || style.visibility === 'hidden') continue
      if (['button--primary', 'button--danger'].some((name) => control.classList.contains(name))) {
        continue
      }
      const [r = 0, g = 0, b = 0, alpha = 1] = (style.backgroundColor.match(/[\d.]+/g) ?? []).map(
        Number
      )
      if (alpha === 0) continue
      if ((0.2126 * r + 0.7152 * g + 0.0722 * b) / 255 > 0.6) {
        found.push(control.getAttribute('data-testid') ?? control.textContent?.trim() ?? '?')
      }
    }
    return found
  })
}

/** An element's computed text colour, as `rgb(…)`. */
export const textColor = (locator: Locator): Promise<string> =>
  locator.evaluate((element) => (globalThis as ThemeGlobals).getComputedStyle(element).color)

import type { Locator, Page } from 'playwright-core'

// Small page helpers the e2e files share: test-id selectors, scroll checks, waiting out CSS motion.

/** Just the browser globals used here (the file is type-checked without the DOM lib). */
type AnimatedGlobals = typeof globalThis & {
  document: { getAnimations(): { finished: Promise<unknown> }[] }
}

/** `[data-testid="x"][data-a="1"]…`: a test id narrowed by data attributes. */
export const byTestId = (testId: string, attributes: Record<string, string | number> = {}) =>
  `[data-testid="${testId}"]${Object.entries(attributes)
    .map(([name, value]) => `[data-${name}="${value}"]`)
    .join('')}`

/**
 * Waits for running animations and transitions, so a screenshot shows the resting state. A
 * transition that a newer one replaces (light to dark and back) is cancelled, and its
 * `finished` rejects with an AbortError: that one is over too.
 */
export const animationsDone = (page: Page) =>
  page.evaluate(() =>
    Promise.all(
      (globalThis as AnimatedGlobals).document
        .getAnimations()
        .map((a) => a.finished.catch(() => undefined))
    )
  )

/** True when the element's box lies (at least partly) inside the scrolled container. */
export async function isInView(target: Locator, container: Locator): Promise<boolean> {
  if ((await target.count()) === 0) return false
  const [box, frame] = await Promise.all([target.boundingBox(), container.boundingBox()])
  if (!box || !frame) return false
  return box.y < frame.y + frame.height && box.y + box.height > frame.y
}

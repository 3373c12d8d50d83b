import type { Page } from 'playwright-core'
import type { Harness } from './server'
import { eventually } from '../../support/poll'

// The chat steps the provider-backed e2e tests take the same way before and between their checks.

/** The newest assistant message in the chat. */
export const lastReply = (page: Page) =>
  page.locator('[data-testid="message"][data-role="assistant"]').last()

/** Starts a new thread and waits until its composer is ready and the page listens for events. */
export async function startNewThread(page: Page, harness: Harness): Promise<void> {
  await page.getByTestId('new-thread').first().click()
  await page.getByTestId('composer-input').waitFor()
  await eventually(() => harness.eventClientCount()).toBeGreaterThan(0)
}

/** Sends `text` and waits until the reply contains `expected` and the composer can send again. */
export async function sendAndWaitForReply(
  page: Page,
  text: string,
  expected: string,
  timeout?: number
) {
  await page.getByTestId('composer-input').fill(text)
  await page.getByTestId('send-button').click()
  const reply = lastReply(page)
  await eventually(() => reply.innerText(), timeout).toContain(expected)
  await page.getByTestId('send-button').waitFor()
  return reply
}

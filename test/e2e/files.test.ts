/**
 * Attached files, end to end: files dropped on the built renderer's composer in real Chromium,
 * read by the real file worker (pdfjs-dist for the PDF), stored in a real SQLite file, and the
 * build's chunks shown in the inspector with what was sent and what was dropped.
 */
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { minimalPdf } from '../support/minimalPdf'
import { useTempDir } from '../support/tempDir'
import { byTestId } from './harness/page'
import { eventually } from '../support/poll'
import { useChromiumSession } from './harness/session'
import { chatUi } from './harness/ui'

const SCREENSHOTS = join(import.meta.dirname, '../../test-results/screenshots')

interface DroppedFile {
  name: string
  type: string
  base64: string
}

/** The browser side of a drop: real File objects in a DataTransfer, as the OS hands them over. */
type DropGlobals = typeof globalThis & {
  document: { querySelector(selector: string): { dispatchEvent(event: unknown): boolean } | null }
  DataTransfer: new () => { items: { add(file: unknown): void } }
  DragEvent: new (type: string, init: Record<string, unknown>) => unknown
  File: new (parts: unknown[], name: string, options: { type: string }) => unknown
  atob(data: string): string
}

async function dropFiles(page: Page, selector: string, files: DroppedFile[]) {
  await page.evaluate(
    ({ selector, files }) => {
      const g = globalThis as DropGlobals
      const transfer = new g.DataTransfer()
      for (const file of files) {
        const binary = g.atob(file.base64)
        const bytes = new Uint8Array(binary.length)
        for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i)
        transfer.items.add(new g.File([bytes], file.name, { type: file.type }))
      }
      const target = g.document.querySelector(selector)
      if (!target) throw new Error(`nothing matches ${selector}`)
      for (const type of ['dragenter', 'dragover', 'drop']) {
        target.dispatchEvent(
          new g.DragEvent(type, { bubbles: true, cancelable: true, dataTransfer: transfer })
        )
      }
    },
    { selector, files }
  )
}

const asDropped = (name: string, type: string, bytes: Buffer): DroppedFile => ({
  name,
  type,
  base64: bytes.toString('base64')
})

/** A large TypeScript file: 400 small functions, far more than the attachments budget holds. */
function largeCodeFile(): string {
  const parts: string[] = []
  for (let i = 0; i < 400; i++) {
    parts.push(
      `/** Parses invoice line ${i}: amount, currency and the tax rate of its country. */`,
      `export function parseInvoiceLine${i}(line: string): { amount: number; currency: string } {`,
      `  const [amount, currency] = line.split(';')`,
      `  if (!amount || !currency) throw new Error('line ${i} is missing a field')`,
      `  return { amount: Number(amount.replace(',', '.')) * ${i + 1}, currency: currency.trim() }`,
      `}`,
      ''
    )
  }
  return parts.join('\n')
}

describe('attached files, end to end in Chromium', () => {
  const tempDir = useTempDir()
  const session = useChromiumSession()

  it('attaches a PDF and a large code file, sends them, and shows their chunks sent and dropped', async () => {
    let threadId = ''
    const { harness, page, window } = await session.start(
      { databasePath: join(tempDir(), 'store.sqlite') },
      {
        seed: async (h) => {
          threadId = h.services.threads.create('Invoices').id
          // A budget the code file cannot fit, whatever the other sections leave unused.
          h.services.contextConfig.update('thread', { totalBudget: 12_000 }, threadId)
        }
      }
    )
    const app = chatUi(page)
    const panel = page.getByTestId('inspector-panel')
    await app.thread(threadId).click()
    await eventually(() => app.activeThread.getAttribute('data-thread-id')).toBe(threadId)
    await eventually(() => harness.eventClientCount()).toBeGreaterThan(0)

    const pdf = minimalPdf(['Invoice policy', 'Net amounts are rounded to cents.'], '发票政策')
    const code = Buffer.from(largeCodeFile(), 'utf8')
    await dropFiles(page, '[data-testid="composer"]', [
      asDropped('policy.pdf', 'application/pdf', pdf),
      asDropped('invoices.ts', 'text/plain', code)
    ])
    const drafts = page.getByTestId('draft-file-chips')
    await eventually(() =>
      drafts
        .getByTestId('file-chip')
        .evaluateAll((chips) =>
          chips.map((chip) => (chip as unknown as { dataset: { name: string } }).dataset.name)
        )
    ).toEqual(['policy.pdf', 'invoices.ts'])

    // A binary file is refused, by name, with the reason; nothing else changes.
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d])
    await dropFiles(page, '[data-testid="composer"]', [asDropped('photo.png', 'image/png', png)])
    const refusal = page.getByTestId('file-refusal')
    await eventually(() => refusal.getAttribute('data-reason')).toBe('binary')
    expect(await refusal.textContent()).toContain('photo.png')
    expect(await drafts.getByTestId('file-chip').count()).toBe(2)
    await window.screenshot(join(SCREENSHOTS, 'files-composer-en.png'))

    await app.composer.fill('Which rounding rule applies to invoice line 7?')
    await app.sendButton.click()
    // The sent message carries its files; the composer has none left.
    const sent = app.messages.last()
    await eventually(() => sent.getByTestId('file-chip').count()).toBe(2)
    await eventually(() => page.getByTestId('draft-file-chips').count()).toBe(0)

    // The inspector shows the sent build's chunks: the PDF whole, the code file cut into
    // chunks, some sent and some dropped for the budget, each with its lines and cost.
    await eventually(
      () => harness.published.filter((p) => p.event === 'context:built').length
    ).toBe(1)
    // The live preview is the next draft's (no message files): open the build that was sent.
    await panel.getByTestId('tab-history').click()
    await panel.getByTestId('history-item').first().click()
    await eventually(() => panel.getByTestId('inspector-source').getAttribute('data-source')).toBe(
      'history'
    )
    await panel.getByTestId('tab-items').click()
    const pdfTrace = panel.locator(byTestId('attachment-trace', { name: 'policy.pdf' }))
    const codeTrace = panel.locator(byTestId('attachment-trace', { name: 'invoices.ts' }))
    await eventually(() => pdfTrace.getByTestId('attachment-chunk').count()).toBe(1)
    expect(await pdfTrace.getByTestId('attachment-chunk').getAttribute('data-decision')).toBe(
      'included'
    )
    const chunks = codeTrace.getByTestId('attachment-chunk')
    await eventually(() => chunks.count()).toBeGreaterThan(5)
    const decisions = await chunks.evaluateAll((rows) =>
      rows.map((row) => (row as unknown as { dataset: Record<string, string> }).dataset)
    )
    expect(decisions.some((d) => d.decision === 'included')).toBe(true)
    expect(decisions.some((d) => d.decision === 'dropped_budget')).toBe(true)
    for (const d of decisions) {
      expect(Number(d.tokens)).toBeGreaterThan(0)
      expect(d.lines).toMatch(/^\d+-\d+$/)
    }
    expect(await codeTrace.textContent()).toMatch(/invoices\.ts: \d+ of \d+ chunks sent/)
    await window.screenshot(join(SCREENSHOTS, 'files-inspector-en.png'))

    // What was sent: the PDF's text (CJK included) and the chosen chunks, never the system prompt.
    const request = harness.services.context.builds(threadId)[0]?.context
    const payload = request?.messages.map((m) => m.content).join('\n') ?? ''
    expect(payload).toContain('Net amounts are rounded to cents.')
    expect(payload).toContain('发票政策')
    expect(request?.messages[0]?.content).not.toContain('Net amounts')

    window.assertHealthy()
    expect(harness.unexpectedErrors).toEqual([])
  })
})

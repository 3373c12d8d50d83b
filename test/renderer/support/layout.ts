import { vi } from 'vitest'

/**
 * jsdom lays nothing out, so every element measures 0. This gives the message list a viewport
 * and each row a height, enough for the virtualizer to decide what is on screen. Restored by
 * `vi.restoreAllMocks()` in setup.ts.
 */
export function simulateMessageListLayout({ viewportPx = 600, rowPx = 80 } = {}): void {
  const isList = (element: Element) => element.classList.contains('message-list')
  vi.spyOn(Element.prototype, 'clientHeight', 'get').mockImplementation(function (this: Element) {
    return isList(this) ? viewportPx : 0
  })
  vi.spyOn(Element.prototype, 'clientWidth', 'get').mockImplementation(function (this: Element) {
    return isList(this) ? 800 : 0
  })
  vi.spyOn(Element.prototype, 'scrollHeight', 'get').mockImplementation(function (this: Element) {
    const canvas = this.firstElementChild
    return isList(this) && canvas instanceof HTMLElement ? parseFloat(canvas.style.height) || 0 : 0
  })
  vi.spyOn(HTMLElement.prototype, 'offsetHeight', 'get').mockImplementation(function (
    this: HTMLElement
  ) {
    return this.classList.contains('message-row') ? rowPx : 0
  })
}

import type { BrowserWindow } from 'electron'

/** Brings the window to the front, whatever state it is in (minimised, hidden, behind). */
export function revealWindow(window: BrowserWindow | undefined): void {
  if (!window || window.isDestroyed()) return
  if (window.isMinimized()) window.restore()
  if (!window.isVisible()) window.show()
  window.focus()
}

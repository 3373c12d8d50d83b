import type { KeyboardEvent } from 'react'

/** Chromium reports this keyCode for keys an input method is still processing. */
const IME_PROCESS_KEY = 229

/**
 * True while an input method (Chinese, Japanese…) owns the key press: its Enter confirms a
 * candidate and must never be taken as "send" or "save".
 */
export function isImeKeyPress(event: KeyboardEvent): boolean {
  return event.nativeEvent.isComposing || event.keyCode === IME_PROCESS_KEY
}

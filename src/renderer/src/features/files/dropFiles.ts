import type { ClipboardEvent, DragEvent } from 'react'

/** Whether a drag carries files (not text or a link dragged from the page). */
export const hasFiles = (event: DragEvent): boolean =>
  Array.from(event.dataTransfer?.types ?? []).includes('Files')

export const filesFromDrop = (event: DragEvent): File[] => Array.from(event.dataTransfer.files)

/** Files on the clipboard (a copied file, a pasted screenshot); empty for plain text. */
export const filesFromPaste = (event: ClipboardEvent): File[] =>
  Array.from(event.clipboardData?.files ?? [])

import { useEffect, useState, type KeyboardEvent, type PointerEvent } from 'react'

const STORAGE_KEY = 'inspector.width'
const MIN_PX = 300
const MAX_PX = 560
const DEFAULT_PX = 360
const KEY_STEP_PX = 16

const clamp = (width: number): number => Math.min(MAX_PX, Math.max(MIN_PX, Math.round(width)))

function storedWidth(): number {
  const stored = Number(localStorage.getItem(STORAGE_KEY))
  return stored > 0 ? clamp(stored) : DEFAULT_PX
}

/**
 * The inspector's width, dragged from its left edge or set with the arrow keys there, and
 * remembered on this computer: long traces and payloads read better wider.
 */
export function usePanelWidth() {
  const [width, setWidth] = useState(storedWidth)

  useEffect(() => {
    localStorage.setItem(STORAGE_KEY, String(width))
  }, [width])

  const onPointerDown = (event: PointerEvent<HTMLElement>) => {
    const handle = event.currentTarget
    const startX = event.clientX
    const startWidth = width
    handle.setPointerCapture(event.pointerId)
    // The panel is on the right: dragging its edge to the left makes it wider.
    const move = (moved: globalThis.PointerEvent) =>
      setWidth(clamp(startWidth + startX - moved.clientX))
    const end = () => {
      handle.removeEventListener('pointermove', move)
      handle.removeEventListener('pointerup', end)
      handle.removeEventListener('pointercancel', end)
    }
    handle.addEventListener('pointermove', move)
    handle.addEventListener('pointerup', end)
    handle.addEventListener('pointercancel', end)
  }

  const onKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    const step = { ArrowLeft: KEY_STEP_PX, ArrowRight: -KEY_STEP_PX }[event.key]
    if (step === undefined) return
    event.preventDefault()
    setWidth((current) => clamp(current + step))
  }

  return {
    width,
    handleProps: {
      role: 'separator',
      tabIndex: 0,
      'aria-orientation': 'vertical',
      'aria-valuemin': MIN_PX,
      'aria-valuemax': MAX_PX,
      'aria-valuenow': width,
      onPointerDown,
      onKeyDown
    } as const
  }
}

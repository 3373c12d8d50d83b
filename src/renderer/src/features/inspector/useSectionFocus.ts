import { useEffect, useRef, type RefObject } from 'react'
import { useInspectorStore } from './inspectorStore'

/**
 * Brings the section the chat's gauge asked for into view and gives it keyboard focus: its
 * group in the items list, or its legend row when the build has no items there. The list
 * renders at a lower priority, so this tries again on each render until the target exists.
 */
export function useSectionFocus(
  container: RefObject<HTMLElement | null>,
  showItems: () => void
): void {
  const focus = useInspectorStore((state) => state.focus)
  const handled = useRef(0)

  useEffect(() => {
    if (focus && focus.at !== handled.current) showItems()
  }, [focus, showItems])

  useEffect(() => {
    if (!focus || focus.at === handled.current || !container.current) return
    const { section } = focus
    const target =
      container.current.querySelector<HTMLElement>(
        `.trace-section[data-section='${section}'] .trace-section__title`
      ) ??
      container.current.querySelector<HTMLElement>(
        `.section-row[data-section='${section}'] .section-row__name`
      )
    if (!target) return
    handled.current = focus.at
    target.scrollIntoView?.({ block: 'start', behavior: 'smooth' })
    target.focus({ preventScroll: true })
  })
}

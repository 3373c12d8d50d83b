import { useId, type ReactNode } from 'react'

/** A labelled drop-down of the memory settings with the sentence that explains it below. */
export function HintedSelect({
  label,
  hint,
  testId,
  value,
  onChange,
  children
}: {
  label: string
  hint: string
  testId: string
  value: string
  onChange: (value: string) => void
  children: ReactNode
}) {
  const selectId = useId()
  const hintId = useId()
  return (
    <>
      <label className="memory-settings__label" htmlFor={selectId}>
        {label}
      </label>
      <div className="memory-settings__row">
        <select
          id={selectId}
          className="memory-input"
          data-testid={testId}
          aria-describedby={hintId}
          value={value}
          onChange={(event) => onChange(event.target.value)}
        >
          {children}
        </select>
      </div>
      <p id={hintId} className="memory-settings__hint">
        {hint}
      </p>
    </>
  )
}

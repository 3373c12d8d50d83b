import { useState, type InputHTMLAttributes } from 'react'

type InputProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'value' | 'onChange' | 'type'>

interface NumberFieldProps extends InputProps {
  value: number | null
  /** Called with every entry that parses; an empty box means null. */
  onValue: (value: number | null) => void
}

const asText = (value: number | null): string => (value === null ? '' : String(value))

/**
 * A number input that keeps what the user is typing (an empty box, "1" on the way to "15")
 * while reporting only values that parse, and follows outside changes such as Reset.
 */
export function NumberField({ value, onValue, onBlur, ...inputProps }: NumberFieldProps) {
  const [text, setText] = useState(asText(value))
  const [shownValue, setShownValue] = useState(value)
  // Adjusting state during render when the value changes elsewhere, as React recommends.
  if (value !== shownValue) {
    setShownValue(value)
    setText(asText(value))
  }

  return (
    <input
      {...inputProps}
      type="number"
      inputMode="decimal"
      value={text}
      onChange={(event) => {
        const next = event.target.value
        setText(next)
        if (next.trim() === '') return onValue(null)
        const parsed = Number(next)
        if (Number.isFinite(parsed)) onValue(parsed)
      }}
      onBlur={(event) => {
        // Leaving a box that does not hold the value shown elsewhere puts the value back.
        if (text.trim() === '' ? value !== null : Number(text) !== value) setText(asText(value))
        onBlur?.(event)
      }}
    />
  )
}

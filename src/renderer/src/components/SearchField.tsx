import { Icon } from './Icon'

interface SearchFieldProps {
  value: string
  onChange: (value: string) => void
  /** Escape (and the clear button, when `clearLabel` is given) empties the field. */
  onClear: () => void
  label: string
  placeholder: string
  testId: string
  className?: string
  clearLabel?: string
}

/** The app's search input: a search icon, Escape to clear, the contract's 500-character cap. */
export function SearchField({
  value,
  onChange,
  onClear,
  label,
  placeholder,
  testId,
  className,
  clearLabel
}: SearchFieldProps) {
  return (
    <div className={className ? `search-box ${className}` : 'search-box'} role="search">
      <Icon name="search" />
      <input
        type="search"
        className="search-box__input"
        data-testid={testId}
        aria-label={label}
        placeholder={placeholder}
        value={value}
        maxLength={500}
        onChange={(event) => onChange(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === 'Escape' && value) {
            event.preventDefault()
            onClear()
          }
        }}
      />
      {clearLabel && value && (
        <button
          type="button"
          className="icon-button search-box__clear"
          aria-label={clearLabel}
          title={clearLabel}
          onClick={onClear}
        >
          <Icon name="close" />
        </button>
      )}
    </div>
  )
}

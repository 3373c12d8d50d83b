import { useState, type KeyboardEvent } from 'react'
import { useTranslation } from 'react-i18next'
import type { MemoryCategory } from '@shared/domain'
import { isImeKeyPress } from '@renderer/lib/ime'
import { CategorySelect } from './CategorySelect'

interface MemoryEditorProps {
  initialContent?: string
  initialCategory?: MemoryCategory
  submitLabel: string
  /** Resolves true when saved; on false the form stays open with the text as typed. */
  onSubmit: (content: string, category: MemoryCategory) => Promise<boolean>
  onCancel: () => void
}

/** The text and category of one memory: adding one by hand, or editing one in place. */
export function MemoryEditor({
  initialContent = '',
  initialCategory = 'user_preference',
  submitLabel,
  onSubmit,
  onCancel
}: MemoryEditorProps) {
  const { t } = useTranslation()
  const [content, setContent] = useState(initialContent)
  const [category, setCategory] = useState<MemoryCategory>(initialCategory)
  const [saving, setSaving] = useState(false)
  const blank = content.trim() === ''

  const submit = async () => {
    if (blank || saving) return
    setSaving(true)
    const saved = await onSubmit(content.trim(), category)
    // A saved editor is usually unmounted by now; a failed one stays for another try.
    if (!saved) setSaving(false)
  }

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (isImeKeyPress(event)) return
    if (event.key === 'Escape') {
      event.preventDefault()
      onCancel()
    } else if (event.key === 'Enter' && (event.metaKey || event.ctrlKey)) {
      event.preventDefault()
      void submit()
    }
  }

  return (
    <form
      className="memory-editor"
      data-testid="memory-editor"
      onSubmit={(event) => {
        event.preventDefault()
        void submit()
      }}
    >
      <textarea
        className="memory-editor__content"
        data-testid="memory-editor-content"
        aria-label={t('memory.editor.contentLabel')}
        placeholder={t('memory.editor.placeholder')}
        value={content}
        // The contract caps a memory at 10,000 characters.
        maxLength={10_000}
        rows={3}
        autoFocus
        readOnly={saving}
        onChange={(event) => setContent(event.target.value)}
        onKeyDown={onKeyDown}
      />
      <div className="memory-editor__row">
        <CategorySelect
          value={category}
          onChange={(next) => next && setCategory(next)}
          label={t('memory.editor.categoryLabel')}
          testId="memory-editor-category"
        />
        <span className="memory-editor__spacer" />
        <button type="button" className="button" disabled={saving} onClick={onCancel}>
          {t('common.cancel')}
        </button>
        <button
          type="submit"
          className="button button--primary"
          data-testid="memory-editor-save"
          disabled={blank || saving}
        >
          {submitLabel}
        </button>
      </div>
    </form>
  )
}

import { useRef } from 'react'
import { useTranslation } from 'react-i18next'
import { Dialog } from './Dialog'

interface ConfirmDialogProps {
  title: string
  description: string
  confirmLabel: string
  onConfirm: () => void
  onCancel: () => void
  /** While the confirmed action runs, both buttons are disabled so it cannot run twice. */
  busy?: boolean
}

/** A modal question for destructive actions. Focus starts on Cancel (the harmless choice). */
export function ConfirmDialog(props: ConfirmDialogProps) {
  const { title, description, confirmLabel, onConfirm, onCancel, busy = false } = props
  const { t } = useTranslation()
  const cancelRef = useRef<HTMLButtonElement>(null)
  return (
    <Dialog
      title={title}
      description={description}
      onClose={onCancel}
      busy={busy}
      initialFocus={cancelRef}
      testId="confirm-dialog"
    >
      <div className="dialog__actions">
        <button
          ref={cancelRef}
          type="button"
          className="button"
          data-testid="confirm-cancel"
          disabled={busy}
          onClick={onCancel}
        >
          {t('common.cancel')}
        </button>
        <button
          type="button"
          className="button button--danger"
          data-testid="confirm-accept"
          disabled={busy}
          onClick={onConfirm}
        >
          {confirmLabel}
        </button>
      </div>
    </Dialog>
  )
}

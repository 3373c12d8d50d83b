import { useTranslation } from 'react-i18next'
import type { AttachmentView } from '@shared/files'
import { Icon } from '@renderer/components/Icon'
import { useFormatNumber } from '@renderer/lib/formatNumber'

const sizeOf = (bytes: number): string =>
  bytes < 1024
    ? `${bytes} B`
    : bytes < 1024 * 1024
      ? `${Math.round(bytes / 1024)} KB`
      : `${(bytes / (1024 * 1024)).toFixed(1)} MB`

/** One attached file: its name, and a remove button while it can still be removed. */
function FileChip({
  file,
  onRemove
}: {
  file: AttachmentView
  onRemove?: (file: AttachmentView) => void
}) {
  const { t } = useTranslation()
  const format = useFormatNumber()
  const title = t('files.chipTitle', {
    name: file.name,
    kind: file.kind,
    size: sizeOf(file.size),
    chars: format(file.chars)
  })
  return (
    <li
      className="file-chip"
      data-testid="file-chip"
      data-name={file.name}
      data-scope={file.scope}
      data-embedded={file.embedded}
      title={file.embedded ? title : `${title}\n${t('files.notEmbedded')}`}
    >
      <Icon name="file" />
      <span className="file-chip__name">{file.name}</span>
      <span className="file-chip__size">{sizeOf(file.size)}</span>
      {onRemove && (
        <button
          type="button"
          className="file-chip__remove"
          data-testid="file-chip-remove"
          aria-label={t('files.remove', { name: file.name })}
          title={t('files.remove', { name: file.name })}
          onClick={() => onRemove(file)}
        >
          <Icon name="close" />
        </button>
      )}
    </li>
  )
}

export function FileChips({
  files,
  onRemove,
  testId
}: {
  files: readonly AttachmentView[]
  onRemove?: (file: AttachmentView) => void
  testId: string
}) {
  if (files.length === 0) return null
  return (
    <ul className="file-chips" data-testid={testId}>
      {files.map((file) => (
        <FileChip key={file.id} file={file} onRemove={onRemove} />
      ))}
    </ul>
  )
}

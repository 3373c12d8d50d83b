import { useMemo } from 'react'
import { FileChips } from './FileChip'
import { useFilesStore } from './filesStore'

/** The files a sent message carried (a sent message keeps them: no remove button). */
export function MessageFiles({ threadId, messageId }: { threadId: string; messageId: number }) {
  const list = useFilesStore((state) => state.byThread[threadId])
  const files = useMemo(
    () => (list ?? []).filter((file) => file.messageId === messageId),
    [list, messageId]
  )
  return <FileChips files={files} testId="message-file-chips" />
}

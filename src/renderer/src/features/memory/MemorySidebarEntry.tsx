import { useTranslation } from 'react-i18next'
import { Icon } from '@renderer/components/Icon'
import { MemoryStatusLine } from './MemoryStatusLine'
import { useMemoryViewStore } from './memoryViewStore'
import './memory.css'

/** The way into the memory manager, with recall's status right under it. */
export function MemorySidebarEntry() {
  const { t } = useTranslation()
  const open = useMemoryViewStore((state) => state.open)
  const { show, hide } = useMemoryViewStore.getState()
  return (
    <div className="memory-entry">
      <button
        type="button"
        className="memory-entry__button"
        data-testid="open-memory"
        aria-pressed={open}
        title={t('memory.openHint')}
        onClick={() => (open ? hide() : show())}
      >
        <Icon name="bookmark" />
        {t('memory.open')}
      </button>
      <MemoryStatusLine />
    </div>
  )
}

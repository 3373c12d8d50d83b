import { useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useToolsStore } from './toolsStore'
import './tools.css'

/** Which tools the open thread offers the model; each call still asks unless always allowed. */
export function ThreadToolsPicker({ threadId }: { threadId: string }) {
  const { t } = useTranslation()
  const [open, setOpen] = useState(false)
  const tools = useToolsStore((state) => state.threadTools)
  const enabled = tools.filter((view) => view.enabled).length
  useEffect(() => void useToolsStore.getState().loadThreadTools(threadId), [threadId])

  return (
    <div className="tool-picker">
      <button
        type="button"
        className="button"
        data-testid="thread-tools-toggle"
        aria-expanded={open}
        onClick={() => {
          if (!open) void useToolsStore.getState().loadThreadTools(threadId)
          setOpen(!open)
        }}
      >
        {enabled > 0 ? t('tools.pickerCount', { count: enabled }) : t('tools.picker')}
      </button>
      {open && (
        <div className="tool-picker__panel" role="group" aria-label={t('tools.pickerTitle')}>
          <p className="tool-picker__title">{t('tools.pickerTitle')}</p>
          {tools.length === 0 && <p>{t('tools.pickerEmpty')}</p>}
          <ul>
            {tools.map(({ tool, enabled: on, alwaysAllowed }) => (
              <li key={tool.key} data-testid="thread-tool" data-tool={tool.name}>
                <label title={tool.description}>
                  <input
                    type="checkbox"
                    checked={on}
                    onChange={(event) =>
                      void useToolsStore.getState().toggleTool(tool.key, event.target.checked)
                    }
                  />
                  <code>{tool.name}</code>
                  <span className="tool-picker__source">
                    {tool.source === 'builtin' ? t('tools.builtin') : tool.sourceName}
                  </span>
                </label>
                {alwaysAllowed && (
                  <button
                    type="button"
                    className="button tool-picker__always"
                    title={t('tools.revokeAlways')}
                    onClick={() => void useToolsStore.getState().revokeAlways(tool.key)}
                  >
                    {t('tools.alwaysAllowed')} ×
                  </button>
                )}
              </li>
            ))}
          </ul>
        </div>
      )}
    </div>
  )
}

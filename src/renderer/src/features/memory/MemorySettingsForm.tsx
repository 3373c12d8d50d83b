import { useEffect, useId, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { ErrorBanner } from '@renderer/components/ErrorBanner'
import {
  BGE_MODEL_ID,
  E5_MODEL_ID,
  EMBEDDING_MODEL_DOWNLOAD_MB,
  EMBEDDING_MODEL_IDS,
  type EmbeddingModelId
} from '@shared/embeddingModelIds'
import {
  defaultIndexingThreads,
  indexingThreadsFor,
  MAX_INDEXING_THREADS
} from '@shared/indexingThreads'
import { HintedSelect } from './HintedSelect'
import { useMemoryStatusStore } from './memoryStatusStore'

/** The i18n key of each model's name (ids hold dots and slashes, which keys cannot). */
const MODEL_LABELS: Record<EmbeddingModelId, 'e5' | 'bge'> = {
  [E5_MODEL_ID]: 'e5',
  [BGE_MODEL_ID]: 'bge'
}

/** What one indexing thread's worker holds with the model loaded (docs/MEMORY.md, MB). */
const WORKER_MB: Record<EmbeddingModelId, number> = {
  [E5_MODEL_ID]: 450,
  [BGE_MODEL_ID]: 150
}

/**
 * Which embedding model, where it is read from, whether it may be downloaded once, and whether
 * the assistant may note preferences and facts on its own.
 */
export function MemorySettingsForm() {
  const { t } = useTranslation()
  const folderId = useId()
  const hintId = useId()
  const settings = useMemoryStatusStore((state) => state.settings)
  const error = useMemoryStatusStore((state) => state.settingsError)
  const saved = useMemoryStatusStore((state) => state.settingsSaved)
  const { loadSettings, saveSettings } = useMemoryStatusStore.getState()
  // What is typed; null follows the stored value.
  const [draft, setDraft] = useState<string | null>(null)

  useEffect(() => {
    void loadSettings()
  }, [loadSettings])

  if (!settings)
    return error ? (
      <ErrorBanner>{t('memory.settings.failed', { message: error })}</ErrorBanner>
    ) : null

  const folder = draft ?? settings.modelFolder ?? ''
  // The renderer's own count of logical cores: the same machine main runs on.
  const cores = Math.max(1, navigator.hardwareConcurrency || 1)
  const threadChoices = Array.from(
    { length: Math.min(cores, MAX_INDEXING_THREADS) },
    (_, i) => i + 1
  )
  const threads = settings.indexingThreads ?? null
  // The contract takes null, not an empty string, for "the default places".
  const saveFolder = async (value: string | null) => {
    if (await saveSettings({ modelFolder: value })) setDraft(null)
  }

  return (
    <form
      className="memory-settings"
      onSubmit={(event) => {
        event.preventDefault()
        void saveFolder(folder.trim() || null)
      }}
    >
      <HintedSelect
        label={t('memory.settings.modelLabel')}
        hint={t('memory.settings.modelHint')}
        testId="memory-embedding-model"
        value={settings.embeddingModel}
        onChange={(value) => void saveSettings({ embeddingModel: value as EmbeddingModelId })}
      >
        {EMBEDDING_MODEL_IDS.map((id) => (
          <option key={id} value={id}>
            {t(`memory.settings.models.${MODEL_LABELS[id]}`)}
          </option>
        ))}
      </HintedSelect>
      <label className="memory-settings__label" htmlFor={folderId}>
        {t('memory.settings.folderLabel')}
      </label>
      <div className="memory-settings__row">
        <input
          id={folderId}
          className="memory-input"
          data-testid="memory-model-folder"
          aria-describedby={hintId}
          placeholder={t('memory.settings.folderPlaceholder')}
          value={folder}
          maxLength={4096}
          spellCheck={false}
          onChange={(event) => setDraft(event.target.value)}
        />
        <button
          type="submit"
          className="button"
          data-testid="memory-model-folder-save"
          disabled={folder.trim() === (settings.modelFolder ?? '')}
        >
          {t('memory.settings.save')}
        </button>
        {settings.modelFolder !== null && (
          <button type="button" className="button" onClick={() => void saveFolder(null)}>
            {t('memory.settings.reset')}
          </button>
        )}
      </div>
      <p id={hintId} className="memory-settings__hint">
        {t('memory.settings.folderHint')}
      </p>
      <label className="memory-settings__check">
        <input
          type="checkbox"
          data-testid="memory-allow-download"
          checked={settings.allowDownload}
          onChange={(event) => void saveSettings({ allowDownload: event.target.checked })}
        />
        {t('memory.settings.allowDownload', {
          mb:
            EMBEDDING_MODEL_DOWNLOAD_MB[settings.embeddingModel as EmbeddingModelId] ??
            EMBEDDING_MODEL_DOWNLOAD_MB[EMBEDDING_MODEL_IDS[0]]
        })}
      </label>
      <label className="memory-settings__check">
        <input
          type="checkbox"
          data-testid="memory-auto-extract"
          checked={settings.autoExtract}
          onChange={(event) => void saveSettings({ autoExtract: event.target.checked })}
        />
        {t('memory.settings.autoExtract')}
      </label>
      <HintedSelect
        label={t('memory.settings.indexingThreadsLabel')}
        hint={t('memory.settings.indexingThreadsHint', {
          mb: WORKER_MB[settings.embeddingModel as EmbeddingModelId] ?? WORKER_MB[E5_MODEL_ID]
        })}
        testId="memory-indexing-threads"
        value={threads === null ? 'auto' : String(indexingThreadsFor(threads, cores))}
        onChange={(value) =>
          void saveSettings({ indexingThreads: value === 'auto' ? null : Number(value) })
        }
      >
        <option value="auto">
          {t('memory.settings.indexingThreadsAuto', { count: defaultIndexingThreads(cores) })}
        </option>
        {threadChoices.map((count) => (
          <option key={count} value={count}>
            {count}
          </option>
        ))}
      </HintedSelect>
      {saved && !error && (
        <p className="memory-settings__hint" role="status">
          {t(saved === 'reloading' ? 'memory.settings.saved' : 'memory.settings.savedOther')}
        </p>
      )}
      {error && <ErrorBanner>{t('memory.settings.failed', { message: error })}</ErrorBanner>}
    </form>
  )
}

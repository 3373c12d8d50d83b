import { useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { McpServerView } from '@shared/tools'
import { draftToInput, EMPTY_DRAFT, type ServerDraft } from './serverForm'
import { useToolsStore } from './toolsStore'
import './tools.css'

/** Settings' MCP servers: each with its status, last error and tools; a form to add one. */
export function McpServerSettings() {
  const { t } = useTranslation()
  const servers = useToolsStore((state) => state.servers)
  const error = useToolsStore((state) => state.serverError)
  useEffect(() => void useToolsStore.getState().loadServers(), [])

  return (
    <details className="mcp" data-testid="mcp-settings">
      <summary className="mcp__title" data-testid="mcp-settings-toggle">
        {t('tools.settingsTitle')}
        {servers.length > 0 && ` · ${servers.length}`}
      </summary>
      <p className="mcp__intro">{t('tools.settingsIntro')}</p>
      {error && (
        <p className="mcp__error" role="alert" data-testid="mcp-error">
          {error}
        </p>
      )}
      {servers.length === 0 ? (
        <p className="mcp__empty">{t('tools.noServers')}</p>
      ) : (
        <ul className="mcp__list">
          {servers.map((server) => (
            <ServerRow key={server.id} server={server} />
          ))}
        </ul>
      )}
      <AddServerForm />
    </details>
  )
}

function ServerRow({ server }: { server: McpServerView }) {
  const { t } = useTranslation()
  const { setEnabled, restart, remove } = useToolsStore.getState()
  const target =
    server.config.kind === 'stdio'
      ? [server.config.command, ...server.config.args].join(' ')
      : server.config.url
  return (
    <li className="mcp__server" data-testid="mcp-server" data-status={server.status}>
      <div className="mcp__server-head">
        <strong>{server.name}</strong>
        <span className={`mcp__status mcp__status--${server.status}`} data-testid="mcp-status">
          {t(`tools.status.${server.status}`)}
        </span>
        <label className="mcp__toggle">
          <input
            type="checkbox"
            data-testid="mcp-enabled"
            checked={server.enabled}
            onChange={(event) => void setEnabled(server.id, event.target.checked)}
          />
          {t('tools.enabled')}
        </label>
        {server.enabled && (
          <button type="button" className="button" onClick={() => void restart(server.id)}>
            {t('tools.restart')}
          </button>
        )}
        <button type="button" className="button" onClick={() => void remove(server.id)}>
          {t('tools.remove')}
        </button>
      </div>
      <code className="mcp__target">{target}</code>
      {server.error && (
        <pre className="mcp__server-error" data-testid="mcp-server-error">
          {server.error}
        </pre>
      )}
      {server.tools.length > 0 && (
        <details className="mcp__tools">
          <summary data-testid="mcp-tool-count">
            {t('tools.toolCount', { count: server.tools.length })}
          </summary>
          <ul>
            {server.tools.map((tool) => (
              <li key={tool.key}>
                <code>{tool.name}</code> {tool.description}
              </li>
            ))}
          </ul>
        </details>
      )}
    </li>
  )
}

function AddServerForm() {
  const { t } = useTranslation()
  const [draft, setDraft] = useState<ServerDraft>(EMPTY_DRAFT)
  const [problem, setProblem] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const field = (key: keyof ServerDraft) => ({
    value: draft[key] as string,
    onChange: (event: { target: { value: string } }) =>
      setDraft({ ...draft, [key]: event.target.value })
  })
  return (
    <form
      className="mcp__form"
      data-testid="mcp-add-form"
      onSubmit={(event) => {
        event.preventDefault()
        const result = draftToInput(draft)
        if (!result.ok) {
          setProblem(t('tools.badLine', { line: result.line, format: result.format }))
          return
        }
        setProblem(null)
        setBusy(true)
        void useToolsStore
          .getState()
          .addServer(result.input)
          .then((added) => added && setDraft(EMPTY_DRAFT))
          .finally(() => setBusy(false))
      }}
    >
      <h4>{t('tools.addTitle')}</h4>
      <label>
        {t('tools.name')}
        <input data-testid="mcp-name" required {...field('name')} />
      </label>
      <label>
        {t('tools.kind')}
        <select
          data-testid="mcp-kind"
          value={draft.kind}
          onChange={(event) => setDraft({ ...draft, kind: event.target.value as 'stdio' | 'http' })}
        >
          <option value="stdio">{t('tools.kinds.stdio')}</option>
          <option value="http">{t('tools.kinds.http')}</option>
        </select>
      </label>
      {draft.kind === 'stdio' ? (
        <>
          <label>
            {t('tools.command')}
            <input data-testid="mcp-command" required {...field('command')} />
          </label>
          <label>
            {t('tools.args')}
            <textarea data-testid="mcp-args" rows={2} {...field('args')} />
          </label>
          <label>
            {t('tools.env')}
            <textarea data-testid="mcp-env" rows={2} {...field('env')} />
          </label>
          <label>
            {t('tools.cwd')}
            <input data-testid="mcp-cwd" {...field('cwd')} />
          </label>
        </>
      ) : (
        <>
          <label>
            {t('tools.url')}
            <input data-testid="mcp-url" type="url" required {...field('url')} />
          </label>
          <label>
            {t('tools.headers')}
            <textarea data-testid="mcp-headers" rows={2} {...field('headers')} />
          </label>
        </>
      )}
      <label className="mcp__toggle">
        <input
          type="checkbox"
          checked={draft.enabled}
          onChange={(event) => setDraft({ ...draft, enabled: event.target.checked })}
        />
        {t('tools.enabled')}
      </label>
      {problem && <p className="mcp__error">{problem}</p>}
      <button
        type="submit"
        className="button button--primary"
        data-testid="mcp-add"
        disabled={busy}
      >
        {t('tools.add')}
      </button>
    </form>
  )
}

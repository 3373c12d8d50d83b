import { useTranslation } from 'react-i18next'
import { Icon } from '@renderer/components/Icon'
import { useFilesStore, type FileProblem } from './filesStore'

const NO_PROBLEMS: FileProblem[] = []

const limitText = (reason: string, limit: number | undefined): string =>
  limit === undefined
    ? ''
    : reason === 'too_large'
      ? `${Math.round(limit / (1024 * 1024))} MB`
      : limit.toLocaleString()

/** Files that did not attach, each with its name and why; stays until dismissed. */
export function FileProblems({ threadId }: { threadId: string }) {
  const { t } = useTranslation()
  const problems = useFilesStore((state) => state.problems[threadId] ?? NO_PROBLEMS)
  const dismiss = useFilesStore((state) => state.dismissProblems)
  if (problems.length === 0) return null
  return (
    <div className="banner banner--error file-problems" role="alert" data-testid="file-problems">
      <Icon name="alert" />
      <ul className="banner__body">
        {problems.map((problem, index) => (
          <li
            key={index}
            data-testid="file-refusal"
            data-reason={problem.kind === 'refused' ? problem.refusal.reason : 'failed'}
          >
            {problem.kind === 'refused'
              ? t(`files.reasons.${problem.refusal.reason}`, {
                  name: problem.refusal.name,
                  limit: limitText(problem.refusal.reason, problem.refusal.limit),
                  defaultValue: problem.refusal.message
                })
              : t('files.failed', { name: problem.name, message: problem.message })}
          </li>
        ))}
      </ul>
      <button type="button" className="button" onClick={() => dismiss(threadId)}>
        {t('files.dismiss')}
      </button>
    </div>
  )
}

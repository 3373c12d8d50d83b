import { useTranslation } from 'react-i18next'
import { Icon } from '@renderer/components/Icon'
import { useFormatNumber } from '@renderer/lib/formatNumber'
import { useSummaryCompareStore } from '@renderer/features/summaries/summaryCompareStore'
import { useCompressStore, type CompressNotice as Notice } from './compressStore'
import './compress.css'

/** What the last "/compress" did in this thread, shown above the composer until dismissed. */
export function CompressNotice({ threadId }: { threadId: string }) {
  const { t } = useTranslation()
  const notice = useCompressStore((state) => state.notices[threadId])
  const dismiss = useCompressStore((state) => state.dismiss)
  if (!notice) return null
  const failed =
    notice.kind === 'error' ||
    (notice.kind === 'result' &&
      (notice.result.status === 'superseded' || notice.result.status === 'not_smaller'))

  return (
    <div
      className={`banner ${failed ? 'banner--error' : 'banner--notice'} compress-notice`}
      role={failed ? 'alert' : 'status'}
      data-testid="compress-notice"
      data-kind={notice.kind === 'result' ? notice.result.status : notice.kind}
    >
      <Icon name="info" />
      <div className="banner__body">
        <NoticeText notice={notice} />
      </div>
      {notice.kind !== 'running' && (
        <button
          type="button"
          className="icon-button"
          data-testid="compress-notice-dismiss"
          aria-label={t('common.close')}
          title={t('common.close')}
          onClick={() => dismiss(threadId)}
        >
          <Icon name="close" />
        </button>
      )}
    </div>
  )
}

function NoticeText({ notice }: { notice: Notice }) {
  const { t } = useTranslation()
  const formatNumber = useFormatNumber()
  if (notice.kind === 'running') {
    return (
      <>
        {t('compress.running')}
        {notice.focusTopic && ` · ${t('compress.focus', { focus: notice.focusTopic })}`}
      </>
    )
  }
  if (notice.kind === 'error') return <>{t('compress.failed', { message: notice.message })}</>
  const { result } = notice
  if (result.status === 'superseded') return <>{t('compress.superseded')}</>
  if (result.status === 'not_smaller') {
    return (
      <>
        {t('summaries.notSmaller', {
          summary: formatNumber(result.summaryTokens),
          replaced: formatNumber(result.replacedTokens)
        })}
      </>
    )
  }
  if (result.status === 'nothing_to_compress') {
    return (
      <>
        {result.reason === 'empty'
          ? t('compress.nothingEmpty')
          : t('compress.nothingInTail', { count: result.tailMessages })}
      </>
    )
  }
  return (
    <>
      <span className="banner__title">
        {t('compress.done', {
          count: result.compressedMessages,
          tokens: formatNumber(result.compressedTokens)
        })}
        {result.focusTopic && ` · ${t('compress.focus', { focus: result.focusTopic })}`}
      </span>
      {t('compress.doneBody', { count: result.tailMessages })}
      {result.modelError && (
        <span className="compress-notice__fallback" data-testid="compress-notice-fallback">
          {' '}
          {t('compress.modelFallback', { message: result.modelError })}
        </span>
      )}{' '}
      <button
        type="button"
        className="button message__action"
        data-testid="compress-notice-compare"
        onClick={() =>
          useSummaryCompareStore.getState().open(result.summary.threadId, result.summary.version)
        }
      >
        {t('summaries.showCompare')}
      </button>
    </>
  )
}

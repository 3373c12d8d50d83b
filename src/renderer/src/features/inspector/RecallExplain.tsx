import { useTranslation } from 'react-i18next'
import type { BuiltContext, RecallSummary, RejectedCandidate } from '@shared/context'
import { useFormatNumber } from '@renderer/lib/formatNumber'
import { looseT, translateKey } from '@renderer/i18n/dynamicKey'
import { useInspectorStore } from './inspectorStore'
import './recallExplain.css'

/**
 * Why the retrieved section holds what it holds: where recall looked, how many items passed
 * the relevance gate and what they cost by origin, how much budget was left free, and the
 * best candidates the gate turned away with their relevance against it. "Try" lowers the gate
 * as a what-if, so the preview shows what would be added without saving anything.
 */
export function RecallExplain({ build }: { build: BuiltContext }) {
  const { t } = useTranslation()
  const format = useFormatNumber()
  const recall = build.recall
  const trying = useInspectorStore((state) => state.whatIf.recall?.minRelevance)
  const showingPreview = useInspectorStore((state) => state.selectedBuildId === null)
  const { changeWhatIf } = useInspectorStore.getState()
  if (!recall) return null

  const free =
    build.tokenStats.free ?? Math.max(0, build.tokenStats.budget - build.tokenStats.total)
  const placed = recall.memories.items + recall.thisThread.items + recall.otherThreads.items
  const tokens = build.tokenStats.sections.retrieved.used
  const notPlaced = Math.max(0, recall.passed - placed)
  const best = recall.rejected[0]

  return (
    <section
      className="recall-explain"
      data-testid="recall-explain"
      aria-label={t('inspector.recall.label')}
    >
      <p className="recall-explain__line" data-testid="recall-summary">
        {t('inspector.recall.retrieved', {
          count: placed,
          tokens: format(tokens)
        })}
        {placed > 0 && <> ({originParts(recall, t, format)})</>}
        {t('inspector.recall.sentenceEnd')}
        {recall.fillSpare
          ? t('inspector.recall.fillSpareOn')
          : notPlaced > 0
            ? t('inspector.recall.didNotFit', { count: notPlaced })
            : recall.gates === null
              ? t('inspector.recall.textOnly')
              : translateKey(
                  t,
                  placed === 0 ? 'inspector.recall.nothingPassed' : 'inspector.recall.nothingElse',
                  {
                    memory: recall.gates.memory.toFixed(2),
                    message: recall.gates.message.toFixed(2)
                  }
                )}
      </p>
      {recall.absentNames && recall.gates !== null && (
        <p className="recall-explain__line" data-testid="recall-absent-names">
          {t('inspector.recall.absentNames', {
            names: recall.absentNames.map((name) => `“${name}”`).join(', '),
            gate: recall.gates.message.toFixed(2)
          })}
        </p>
      )}
      {recall.conversationBest !== undefined && recall.gates !== null && (
        <p className="recall-explain__line" data-testid="recall-conversation-best">
          {t('inspector.recall.conversationBest', {
            best: recall.conversationBest.toFixed(2)
          })}
        </p>
      )}
      {recall.aboutTheUser !== undefined && recall.gates !== null && (
        <p className="recall-explain__line" data-testid="recall-about-the-user">
          {t('inspector.recall.aboutTheUser', {
            own: recall.aboutTheUser.own.toFixed(2),
            reply: recall.aboutTheUser.reply.toFixed(2)
          })}
        </p>
      )}
      <p className="recall-explain__line" data-testid="recall-free">
        {t('inspector.recall.free', { tokens: format(free) })}
        {' · '}
        {translateKey(t, `inspector.recall.scope.${recall.scope}`)}
      </p>
      {recall.rejected.length > 0 && recall.gates !== null && (
        <details className="recall-explain__rejected">
          <summary>
            {t('inspector.recall.rejectedTitle', { count: recall.rejected.length })}
          </summary>
          <ul>
            {recall.rejected.map((item) => (
              <Rejected key={item.id} item={item} />
            ))}
          </ul>
          {showingPreview && best && trying === undefined && (
            <button
              type="button"
              className="button button--small"
              data-testid="recall-try-gate"
              onClick={() => changeWhatIf({ recall: { minRelevance: best.relevance } })}
            >
              {t('inspector.recall.tryGate', { gate: best.relevance.toFixed(2) })}
            </button>
          )}
        </details>
      )}
      {showingPreview && trying !== undefined && trying !== null && (
        <p className="recall-explain__line recall-explain__trying" data-testid="recall-trying">
          {t('inspector.recall.trying', { gate: trying.toFixed(2) })}{' '}
          <button
            type="button"
            className="button button--small"
            onClick={() => changeWhatIf({ recall: { minRelevance: null } })}
          >
            {t('inspector.recall.tryReset')}
          </button>
        </p>
      )}
    </section>
  )
}

function Rejected({ item }: { item: RejectedCandidate }) {
  const { t } = useTranslation()
  const format = useFormatNumber()
  const origin = item.origin
  const where =
    origin?.kind === 'message'
      ? origin.otherThread
        ? t('inspector.recall.fromThread', { title: origin.threadTitle ?? '—' })
        : t('inspector.recall.fromThisThread')
      : t('inspector.recall.fromMemories')
  const scores = scoresOf(item)
  return (
    <li className="recall-explain__item" data-testid="recall-rejected" data-ref={item.id}>
      <span className="recall-explain__score">
        {item.overTokens !== undefined
          ? t('inspector.recall.overTokens', { ...scores, tokens: format(item.overTokens) })
          : item.overLimit !== undefined
            ? t('inspector.recall.overLimit', { ...scores, count: item.overLimit })
            : t('inspector.recall.relevanceVsGate', scores)}
      </span>{' '}
      <span className="recall-explain__where">{where}</span>
      <span className="recall-explain__preview">{item.preview}</span>
    </li>
  )
}

/**
 * Relevance and gate with two decimals, or three where two would print a relevance that missed
 * its gate as equal to it ("0.66 < 0.66").
 */
function scoresOf({ relevance, gate }: RejectedCandidate): { relevance: string; gate: string } {
  const digits = relevance.toFixed(2) === gate.toFixed(2) ? 3 : 2
  return { relevance: relevance.toFixed(digits), gate: gate.toFixed(digits) }
}

/** "2 memories, 1 from another thread": what the placed items are, by where they came from. */
function originParts(recall: RecallSummary, t: unknown, format: (n: number) => string): string {
  const say = looseT(t)
  return (['memories', 'thisThread', 'otherThreads'] as const)
    .filter((group) => recall[group].items > 0)
    .map((group) =>
      say(`inspector.recall.${group}`, {
        count: recall[group].items,
        tokens: format(recall[group].tokens)
      })
    )
    .join(', ')
}

import type { ActiveTaskState, TaskGoal } from '@shared/context'
import type { ContextBuild } from '../contextBuilder'
import type { TokenMeter } from '../tokens/messageTokens'
import { TextSection } from './section'

/** The previous goal orients the model ("that is done, this is new"); older ones are history. */
const PREVIOUS_GOAL_CHARS = 100

const STATUS: Record<TaskGoal['status'], string> = {
  active: 'in progress',
  done: 'done',
  replaced: 'replaced'
}

function quoted(text: string, max: number): string {
  return `"${text.length <= max ? text : `${text.slice(0, max - 1)}…`}"`
}

/**
 * The "current goal" block placed just before the user's input. Returns null when the thread
 * has no goal yet: restating nothing would only cost tokens. English on purpose: it instructs
 * the model, whatever language the conversation is in. Kept to a few lines because it is sent
 * with every request and takes its budget before the window does.
 */
export function renderPinningBlock(state: ActiveTaskState): string | null {
  const latest = state.goals.at(-1)
  if (!latest) return null
  const lines: string[] = []
  if (latest.status !== 'active') {
    lines.push(
      `[Current goal] None active; the last one, ${quoted(latest.text, PREVIOUS_GOAL_CHARS)}, is ${STATUS[latest.status]}.`
    )
  } else if (latest.seq === null) {
    // The goal is the input itself, which follows this block: no need to repeat it.
    lines.push("[Current goal] The user's message below. Status: in progress.")
  } else {
    lines.push(
      `[Current goal] ${quoted(latest.text, Infinity)} (message #${latest.seq}). Status: in progress.`
    )
  }
  const previous = latest.status === 'active' ? state.goals.at(-2) : undefined
  if (previous) {
    lines.push(
      `Previous goal: ${quoted(previous.text, PREVIOUS_GOAL_CHARS)} (${STATUS[previous.status]}).`
    )
  }
  if (latest.status === 'active') {
    lines.push('If tool output just arrived, relate it to this goal before answering.')
  }
  return lines.join('\n')
}

/** The block as a section: all or nothing, since half a goal statement would mislead more than none. */
export class PinningBlock extends TextSection {
  constructor(state: ActiveTaskState | null, meter: TokenMeter) {
    super('pinning', state ? renderPinningBlock(state) : null, meter)
  }

  /** Holds nothing ahead: it takes what it needs when placed, or nothing. */
  override hold(): void {}

  place(build: ContextBuild): void {
    if (this.text === null) return
    if (build.budget.available('pinning') < this.demand) {
      this.drop()
      build.warn('pinning_dropped', 'No budget was left for the current-goal block.')
      return
    }
    build.budget.obtain('pinning', this.demand)
    build.tracker.record('pinning', this.tokens)
  }
}

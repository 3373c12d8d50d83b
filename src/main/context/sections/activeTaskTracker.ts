/**
 * Follows what the user is trying to get done in a thread, from their messages alone (no model
 * call): a request starts a goal, "thanks, that works" closes it, a new request replaces it.
 * The pinning block restates the result at the end of every build, so a long tool output
 * cannot push the goal out of the model's attention. Heuristic by design: cheap, predictable,
 * and visible in the inspector when it guesses wrong.
 */
import type { ActiveTaskState, TaskGoal } from '@shared/context'

export type TaskObservation = 'new_goal' | 'refined' | 'done' | 'done_and_new_goal' | 'none'

/** Enough history for "earlier goals" without letting the block grow. */
const MAX_GOALS = 5
const MAX_GOAL_CHARS = 200

const IMPERATIVE_VERBS =
  'add|analy[sz]e|build|calculate|change|check|compare|convert|create|debug|delete|describe|design|draft|explain|find|fix|generate|give|implement|install|list|make|move|optimi[sz]e|plan|refactor|remove|rename|review|rewrite|run|search|set up|show|summari[sz]e|tell|test|translate|update|write'

const REQUEST_CUES = [
  new RegExp(
    `^((now|then|next|ok|okay|so),?\\s+)?(please\\s+|pls\\s+|kindly\\s+)?(${IMPERATIVE_VERBS})\\b`,
    'i'
  ),
  /\b(please|i want|i'd like|i would like|i need|help me|can you|could you|would you|will you|let's|how (do|can|should) i|how to)\b/i,
  /(帮我|帮忙|我想|我要|我需要|需要你|请|麻烦|能不能|能否|可以帮|给我|如何|怎么|怎样|一下)/
]

/** Follow-ups that keep working on the same goal: "also ...", "it still doesn't work, ...". */
const REFINEMENT_CUES = [
  /^(also|and|plus|additionally)\b/i,
  /^((it|this|that)\s+)?(still|doesn't|does not|didn't|isn't)\b/i,
  /^(还要|还有|另外|再|顺便|并且|还是|仍然|依然|还不)/
]

const DONE_CUES = [
  /\b(done|thanks|thank you|thx|that works|it works|works now|perfect|solved|all good|that did it|looks good)\b/i,
  /(完成了|好了|谢谢|多谢|可以了|搞定|解决了|没问题了|行了|成功了)/
]

const NEGATED_DONE = [
  /\b(not|n't|never|still)\b[^.!?]{0,20}\b(done|work|works|working|solved|good)\b/i,
  /(还没|没有|没|不|未)(完成|好|解决|成功|行)/
]

const QUESTION_END = /[?？]\s*$|[吗呢]\s*[?？]?\s*$/

function matchesAny(patterns: readonly RegExp[], text: string): boolean {
  return patterns.some((pattern) => pattern.test(text))
}

function sentences(text: string): string[] {
  return (
    text
      // "1.234,56" and "csv.ts" are not sentence ends: Latin punctuation needs a space after it.
      .split(/(?<=[.!?])\s+|(?<=[。！？\n])\s*/)
      .map((s) => s.trim())
      .filter((s) => s.length > 0)
  )
}

function clip(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim()
  return flat.length <= MAX_GOAL_CHARS ? flat : `${flat.slice(0, MAX_GOAL_CHARS - 1)}…`
}

/** "thanks" as a closing remark, not "not done yet" or "is it done?". */
function saysDone(sentence: string): boolean {
  return (
    matchesAny(DONE_CUES, sentence) &&
    !matchesAny(NEGATED_DONE, sentence) &&
    !QUESTION_END.test(sentence)
  )
}

interface Reading {
  done: boolean
  /** The request, from its first sentence to the end of the message. */
  request: string | null
  refinement: boolean
}

/**
 * A paste's goal is stated around it, at its start or its end ("why does this fail?" after a
 * log), so a long message is read at both ends only: scanning 2 M characters for cues would
 * hold the main thread on every keystroke of a preview.
 */
const READ_CHARS = 8_000

function ends(text: string): string {
  if (text.length <= 2 * READ_CHARS) return text
  return `${text.slice(0, READ_CHARS)}\n${text.slice(-READ_CHARS)}`
}

function read(message: string): Reading {
  const parts = sentences(ends(message))
  const start = parts.findIndex((s) => matchesAny(REQUEST_CUES, s))
  const request = start === -1 ? null : parts.slice(start).join(' ')
  return {
    // "Thanks! Now write the tests": a closing remark before (or in) the new request.
    done: parts.slice(0, start === -1 ? parts.length : start + 1).some(saysDone),
    request,
    refinement: request !== null && matchesAny(REFINEMENT_CUES, request)
  }
}

export class ActiveTaskTracker {
  private goals: TaskGoal[]

  constructor(state?: ActiveTaskState) {
    this.goals = (state?.goals ?? []).map((goal) => ({ ...goal }))
  }

  get current(): TaskGoal | null {
    const last = this.goals.at(-1)
    return last?.status === 'active' ? last : null
  }

  get state(): ActiveTaskState {
    return { goals: this.goals.map((goal) => ({ ...goal })) }
  }

  /** Reads one user message and updates the goals; returns what it understood. */
  observe(text: string, seq: number | null = null): TaskObservation {
    const reading = read(text)
    const active = this.current
    if (reading.request !== null && reading.refinement && active && !reading.done) {
      active.text = clip(`${active.text}; ${reading.request}`)
      return 'refined'
    }
    if (active && (reading.done || reading.request !== null)) {
      active.status = reading.done ? 'done' : 'replaced'
    }
    if (reading.request !== null) {
      this.goals.push({ text: clip(reading.request), seq, status: 'active' })
      this.goals = this.goals.slice(-MAX_GOALS)
      return reading.done ? 'done_and_new_goal' : 'new_goal'
    }
    return reading.done && active ? 'done' : 'none'
  }
}

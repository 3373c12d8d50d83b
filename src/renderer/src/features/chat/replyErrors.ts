import type { Message } from '@shared/domain'
import type { ReplyError } from './chatStore'
import type { MessageRow } from './replyVersions'

const NONE: ReplyError[] = []

/** Cards still waiting for their place follow the list's last message: their turn's last. */
export function anchorErrors(
  errors: ReplyError[] | undefined,
  messages: readonly Message[]
): ReplyError[] {
  if (!errors) return NONE
  if (!errors.some((error) => error.afterId === null)) return errors
  const last = messages.at(-1)?.id ?? null
  return errors.map((error) => (error.afterId === null ? { ...error, afterId: last } : error))
}

const lastUserSeq = (messages: readonly Message[]): number =>
  messages.findLast((message) => message.role === 'user')?.seq ?? -Infinity

/** The errors of turns before the last one: a retry of the last turn replaces its own. */
export function errorsBeforeLastTurn(
  errors: ReplyError[],
  messages: readonly Message[]
): ReplyError[] {
  const turnStart = lastUserSeq(messages)
  const seqOf = new Map(messages.map((message) => [message.id, message.seq]))
  return errors.filter((error) => {
    const seq = error.afterId === null ? undefined : seqOf.get(error.afterId)
    // A card whose message is not loaded (an older page) is from an earlier turn.
    return error.afterId !== null && (seq === undefined || seq < turnStart)
  })
}

export interface PlacedErrors {
  /** Cards after a row, by the row's current message id. */
  byRow: Map<number, ReplyError[]>
  /** Cards whose message is not in the list (yet): they end it. */
  tail: ReplyError[]
  /** The one card that can still act (retry, count down): the last turn's. */
  current: ReplyError | null
}

/** Where each error card goes: after the row holding the message it follows. */
export function placeErrors(
  rows: readonly MessageRow[],
  errors: readonly ReplyError[],
  messages: readonly Message[]
): PlacedErrors {
  const rowOf = new Map<number, number>()
  for (const row of rows) {
    for (const message of row.versions.flat()) rowOf.set(message.id, row.message.id)
  }
  const byRow = new Map<number, ReplyError[]>()
  const tail: ReplyError[] = []
  for (const error of errors) {
    const row = error.afterId === null ? undefined : rowOf.get(error.afterId)
    if (row === undefined) tail.push(error)
    else byRow.set(row, [...(byRow.get(row) ?? []), error])
  }
  const newest = errors.at(-1) ?? null
  const inLastTurn = newest !== null && errorsBeforeLastTurn([newest], messages).length === 0
  return { byRow, tail, current: inLastTurn ? newest : null }
}

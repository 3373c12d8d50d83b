/**
 * The sources' date strings as ISO times. Neither source gives a time zone, so the wall-clock
 * time is read as UTC: only the order of messages and questions matters to the evaluator.
 */

const MONTHS = [
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december'
]

function iso(year: number, month: number, day: number, hour: number, minute: number): string {
  const time = Date.UTC(year, month, day, hour, minute)
  const date = new Date(time)
  // Date.UTC rolls 31 April over to 1 May: refuse instead of inventing a day.
  if (date.getUTCMonth() !== month || date.getUTCDate() !== day) {
    throw new Error(`no such date: ${year}-${month + 1}-${day}`)
  }
  return date.toISOString().replace('.000Z', 'Z')
}

/** LoCoMo's session times: "1:56 pm on 8 May, 2023" → "2023-05-08T13:56:00Z". */
export function parseLocomoDate(text: string): string {
  const match =
    /^\s*(\d{1,2}):(\d{2})\s*(am|pm)\s+on\s+(\d{1,2})\s+([A-Za-z]+),?\s+(\d{4})\s*$/i.exec(text)
  if (!match) throw new Error(`Unreadable LoCoMo date "${text}".`)
  const [, h, m, meridiem, d, monthName, y] = match as unknown as string[]
  const month = MONTHS.indexOf((monthName as string).toLowerCase())
  const hour12 = Number(h)
  if (month < 0 || hour12 < 1 || hour12 > 12 || Number(m) > 59) {
    throw new Error(`Unreadable LoCoMo date "${text}".`)
  }
  const hour = (hour12 % 12) + ((meridiem as string).toLowerCase() === 'pm' ? 12 : 0)
  try {
    return iso(Number(y), month, Number(d), hour, Number(m))
  } catch {
    throw new Error(`Unreadable LoCoMo date "${text}".`)
  }
}

/** LongMemEval's times: "2023/05/28 (Sun) 19:47" → "2023-05-28T19:47:00Z" (weekday ignored). */
export function parseLongMemEvalDate(text: string): string {
  const match =
    /^\s*(\d{4})\/(\d{1,2})\/(\d{1,2})\s*(?:\([A-Za-z]{3}\))?\s*(\d{1,2}):(\d{2})\s*$/.exec(text)
  if (!match) throw new Error(`Unreadable LongMemEval date "${text}".`)
  const [, y, mo, d, h, m] = match.map(Number) as number[]
  if ((h as number) > 23 || (m as number) > 59) {
    throw new Error(`Unreadable LongMemEval date "${text}".`)
  }
  try {
    return iso(y as number, (mo as number) - 1, d as number, h as number, m as number)
  } catch {
    throw new Error(`Unreadable LongMemEval date "${text}".`)
  }
}

/** `iso` plus `seconds`: turns of one session get consecutive seconds after its start. */
export function addSeconds(isoTime: string, seconds: number): string {
  return new Date(Date.parse(isoTime) + seconds * 1000).toISOString().replace('.000Z', 'Z')
}

/**
 * LoCoMo (locomo10.json, Maharana et al., ACL 2024) → context-eval/1, in two layouts:
 *
 * - `single-thread`: each conversation is one thread (`speaker_a` as the user, `speaker_b` as
 *   the assistant) and its questions are asked in that thread, after its last message.
 * - `thread-per-session`: each session is a thread and each question is asked in a new, empty
 *   thread, so everything must come from long-term memory over that conversation's sessions.
 *
 * A question sees only its own conversation (`scope_thread_ids`): the ten conversations are
 * ten different people's histories. Session date strings become ISO times (the turns of a
 * session one second apart). Evidence ids are repaired as ../shared/benchdata/locomo/README.md
 * describes; ids that still name no turn are dropped and counted.
 */
import { addSeconds, parseLocomoDate } from './dates'
import { FORMAT, type EvalDataset, type EvalMessage, type EvalThread } from './format'

export type LocomoLayout = 'single-thread' | 'thread-per-session'
export const LOCOMO_LAYOUTS: readonly LocomoLayout[] = ['single-thread', 'thread-per-session']

/**
 * The official evaluation code's category numbers (the paper's Table 5 counts). Labels carry
 * the number because some third-party tools use another mapping.
 */
const LOCOMO_CATEGORIES: Record<number, string> = {
  1: '1 multi-hop',
  2: '2 temporal',
  3: '3 open-domain',
  4: '4 single-hop',
  5: '5 adversarial'
}

interface LocomoTurn {
  speaker: string
  dia_id: string
  text: string
  blip_caption?: string
}

interface LocomoQa {
  question: string
  answer?: unknown
  adversarial_answer?: unknown
  evidence?: string[]
  category: number
}

interface LocomoSample {
  sample_id: string
  conversation: Record<string, unknown>
  qa: LocomoQa[]
}

interface EvidenceRepair {
  questionId: string
  raw: string
  /** The ids the string became (after splitting and normalising), before existence checks. */
  ids: string[]
}

export interface ConversionReport {
  threads: number
  messages: number
  questions: number
  evidenceIds: number
  /** Evidence strings that were split or normalised. */
  repaired: EvidenceRepair[]
  /** Evidence ids (after repair) that name no turn of the conversation, or are not ids. */
  dropped: { questionId: string; id: string }[]
  /** Questions left with no evidence (skipped by recall metrics). */
  emptyEvidence: number
  notes: string[]
}

const DIA_ID = /^D:?(\d+):(\d+)$/

/**
 * One raw evidence string → candidate dialog ids. Splits on `;`, commas and whitespace
 * ("D8:6; D9:17", "D9:1 D4:4 D4:6"), removes a stray colon after the D ("D:11:26" → "D11:26")
 * and leading zeros ("D30:05" → "D30:5"). Tokens that are no id at all ("D") come back as is,
 * so the caller drops and counts them.
 */
export function splitEvidence(raw: string): string[] {
  return raw
    .split(/[;,\s]+/)
    .filter((token) => token.length > 0)
    .map((token) => {
      const match = DIA_ID.exec(token)
      return match ? `D${Number(match[1])}:${Number(match[2])}` : token
    })
}

/** Repairs, dedups and checks one question's evidence against the conversation's turn ids. */
function repairEvidence(
  questionId: string,
  raw: readonly string[],
  known: ReadonlySet<string>,
  report: Pick<ConversionReport, 'repaired' | 'dropped'>
): string[] {
  const out: string[] = []
  for (const entry of raw) {
    const ids = splitEvidence(entry)
    if (ids.length !== 1 || ids[0] !== entry) report.repaired.push({ questionId, raw: entry, ids })
    for (const id of ids) {
      if (!known.has(id)) report.dropped.push({ questionId, id })
      else if (!out.includes(id)) out.push(id)
    }
  }
  return out
}

/** The turn's text, plus the caption of an image it shares (as LoCoMo's own code renders it). */
function turnContent(turn: LocomoTurn): string {
  const caption = turn.blip_caption?.trim()
  return caption ? `${turn.text} [shares ${caption}]` : turn.text
}

interface Session {
  number: number
  date: string
  turns: LocomoTurn[]
}

/** `session_<n>` in order, stopping at the first missing one; empty sessions are skipped. */
function sessionsOf(sample: LocomoSample): Session[] {
  const sessions: Session[] = []
  const conversation = sample.conversation
  for (let n = 1; `session_${n}` in conversation; n++) {
    const turns = conversation[`session_${n}`] as LocomoTurn[]
    if (!Array.isArray(turns) || turns.length === 0) continue
    const when = conversation[`session_${n}_date_time`]
    if (typeof when !== 'string') {
      throw new Error(`${sample.sample_id}: session_${n} has no session_${n}_date_time.`)
    }
    sessions.push({ number: n, date: parseLocomoDate(when), turns })
  }
  return sessions
}

function answerOf(qa: LocomoQa): string | undefined {
  const answer = qa.answer ?? qa.adversarial_answer
  return answer === undefined || answer === null ? undefined : String(answer)
}

export function convertLocomo(
  data: unknown,
  layout: LocomoLayout
): { dataset: EvalDataset; report: ConversionReport } {
  if (!Array.isArray(data)) throw new Error('locomo10.json should hold an array of conversations.')
  const report: ConversionReport = {
    threads: 0,
    messages: 0,
    questions: 0,
    evidenceIds: 0,
    repaired: [],
    dropped: [],
    emptyEvidence: 0,
    notes: []
  }
  const dataset: EvalDataset = {
    format: FORMAT,
    name: `locomo/${layout}`,
    threads: [],
    questions: []
  }

  for (const sample of data as LocomoSample[]) {
    const id = sample.sample_id
    const speakerA = sample.conversation.speaker_a as string
    const speakerB = sample.conversation.speaker_b as string
    const sessions = sessionsOf(sample)
    const known = new Set<string>()
    const threads: EvalThread[] = []
    const messageOf = (turn: LocomoTurn, createdAt: string): EvalMessage => {
      if (turn.speaker !== speakerA && turn.speaker !== speakerB) {
        throw new Error(`${id} ${turn.dia_id}: unknown speaker "${turn.speaker}".`)
      }
      known.add(turn.dia_id)
      return {
        id: `${id}/${turn.dia_id}`,
        role: turn.speaker === speakerA ? 'user' : 'assistant',
        content: turnContent(turn),
        created_at: createdAt,
        name: turn.speaker
      }
    }

    if (layout === 'single-thread') {
      threads.push({
        id,
        title: `${speakerA} and ${speakerB}`,
        messages: sessions.flatMap((session) =>
          session.turns.map((turn, i) => messageOf(turn, addSeconds(session.date, i)))
        )
      })
    } else {
      for (const session of sessions) {
        threads.push({
          id: `${id}/session-${session.number}`,
          title: `${speakerA} and ${speakerB}, session ${session.number}`,
          messages: session.turns.map((turn, i) => messageOf(turn, addSeconds(session.date, i)))
        })
      }
    }
    dataset.threads.push(...threads)
    const scope = threads.map((thread) => thread.id)

    sample.qa.forEach((qa, index) => {
      const questionId = `${id}/q${index}`
      const evidence = repairEvidence(questionId, qa.evidence ?? [], known, report).map(
        (dia) => `${id}/${dia}`
      )
      if (evidence.length === 0) report.emptyEvidence++
      report.evidenceIds += evidence.length
      const answer = answerOf(qa)
      dataset.questions.push({
        id: questionId,
        thread_id: layout === 'single-thread' ? id : questionId,
        scope_thread_ids: scope,
        question: qa.question,
        evidence,
        category: LOCOMO_CATEGORIES[qa.category] ?? String(qa.category),
        ...(answer === undefined ? {} : { answer })
      })
    })
  }

  report.threads = dataset.threads.length
  report.messages = dataset.threads.reduce((sum, thread) => sum + thread.messages.length, 0)
  report.questions = dataset.questions.length
  return { dataset, report }
}

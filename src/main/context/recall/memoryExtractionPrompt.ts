/**
 * Automatic memory extraction, the pure half: the prompt that asks a model which durable
 * preferences and facts a user's message states, and the strict reading of its JSON answer.
 * Only what the user wrote is examined; the assistant's previous reply is given as context so
 * a short answer ("Python, always") can be understood, never as a source of memories.
 */
import { z } from 'zod'
import type { ProviderMessage } from '@shared/context'
import { REDACTED, redactSecrets } from '../summary/redactSecrets'

/** The prompt's first words; also how the scripted test server recognises an extraction call. */
export const EXTRACTION_PROMPT_HEAD = 'You extract long-term memories'

/** More than this from one message is almost always the model summarising, not extracting. */
export const MAX_EXTRACTED = 5
/** A memory is one sentence; longer output is the model quoting the message back. */
export const MAX_EXTRACTED_CHARS = 300
/** Context from the previous reply is clipped: it only has to make the user's answer readable. */
const CONTEXT_CHARS = 600
/** The user's message is clipped to this many characters (a huge paste is not a preference). */
const MESSAGE_CHARS = 8_000

type ExtractedCategory = 'user_preference' | 'fact'

export interface ExtractedMemory {
  content: string
  category: ExtractedCategory
}

export interface ExtractionInput {
  /** The user's message of this turn. */
  userMessage: string
  /** The assistant message the user was answering, if any. */
  previousReply: string | null
}

const INSTRUCTIONS = `${EXTRACTION_PROMPT_HEAD} for a personal assistant.
Read the USER MESSAGE and list only durable information about the user that will still matter in future, unrelated conversations:
- "user_preference": how the user likes things done (language, tools, style, diet, formats, schedules).
- "fact": stable facts about the user or their world (name, job, location, family, projects, accounts they use).
Do not extract: questions, one-off requests, the task of this conversation, anything only the assistant said, greetings, opinions about this reply, or secrets (passwords, keys, tokens).
Write each memory as one short, self-contained sentence about "the user", in the language the user wrote in.
If nothing qualifies, return an empty list. Most messages contain nothing worth remembering.
Answer with JSON only, no prose and no code fence, exactly in this shape:
{"memories":[{"content":"...","category":"user_preference"}]}`

/** The request sent to the thread's model. Secrets are redacted before anything is sent. */
export function buildExtractionPrompt(input: ExtractionInput): ProviderMessage[] {
  const parts: string[] = []
  if (input.previousReply?.trim()) {
    parts.push(
      `PREVIOUS ASSISTANT REPLY (context only, extract nothing from it):\n${clip(
        redactSecrets(input.previousReply.trim()),
        CONTEXT_CHARS
      )}`
    )
  }
  parts.push(`USER MESSAGE:\n${clip(redactSecrets(input.userMessage.trim()), MESSAGE_CHARS)}`)
  return [
    { role: 'system', content: INSTRUCTIONS },
    { role: 'user', content: parts.join('\n\n') }
  ]
}

export class ExtractionFormatError extends Error {}

const Answer = z.object({
  memories: z
    .array(
      z.object({
        content: z.string(),
        category: z.string()
      })
    )
    .max(50)
})

/**
 * The model's answer as memories. Tolerates what models add around JSON (a code fence, a
 * sentence before it); anything that is not the expected shape throws, so nothing half-read is
 * saved. Categories other than the two extracted ones, empty and over-long items are dropped.
 */
export function parseExtraction(text: string): ExtractedMemory[] {
  const start = text.indexOf('{')
  const end = text.lastIndexOf('}')
  if (start < 0 || end < start) {
    throw new ExtractionFormatError('The model did not answer with a JSON object.')
  }
  let json: unknown
  try {
    json = JSON.parse(text.slice(start, end + 1))
  } catch {
    throw new ExtractionFormatError('The model answered with malformed JSON.')
  }
  const parsed = Answer.safeParse(json)
  if (!parsed.success) {
    throw new ExtractionFormatError('The model answered without a "memories" list.')
  }
  const seen = new Set<string>()
  const found: ExtractedMemory[] = []
  for (const item of parsed.data.memories) {
    const content = item.content.replace(/\s+/g, ' ').trim()
    if (item.category !== 'user_preference' && item.category !== 'fact') continue
    if (!content || content.length > MAX_EXTRACTED_CHARS || seen.has(content)) continue
    // A memory about a redacted secret is useless, and saying one exists is already too much.
    if (content.includes(REDACTED)) continue
    seen.add(content)
    found.push({ content, category: item.category })
    if (found.length === MAX_EXTRACTED) break
  }
  return found
}

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}…`
}

import { afterAll, beforeAll } from 'vitest'
import {
  startScriptedProvider,
  type RecordedRequest,
  type ScriptedProvider
} from '../../support/scriptedProvider'

// The scripted model server's lifecycle and request filters, shared by the provider-backed tests.

/** One scripted server per describe block, started before its tests and closed after them. */
export function useScriptedProvider(
  options: Parameters<typeof startScriptedProvider>[0] = {}
): () => ScriptedProvider {
  let server: ScriptedProvider | undefined
  beforeAll(async () => {
    server = await startScriptedProvider(options)
  })
  afterAll(async () => {
    await server?.close()
  })
  return () => {
    if (!server) throw new Error('The scripted provider is not running: used outside a describe?')
    return server
  }
}

/** The summary prompt's first words (src/main/context/summary/summaryPrompt.ts). */
const SUMMARY_MARKER = 'You write the checkpoint summary of a conversation'

export const isSummaryRequest = (body: unknown) => JSON.stringify(body).includes(SUMMARY_MARKER)

/** The conversation's requests, not the background summary's. */
export const chatRequests = (server: ScriptedProvider): RecordedRequest[] =>
  server.completions().filter((r) => !isSummaryRequest(r.body))

/** The last user message of an OpenAI chat request body. */
function lastUserText(body: unknown): string {
  const messages = (body as { messages: { role: string; content: unknown }[] }).messages
  const last = messages.filter((m) => m.role === 'user').at(-1)
  return typeof last?.content === 'string' ? last.content : JSON.stringify(last?.content)
}

/** N of the last user message "Turn N. …" in an OpenAI chat request body (0 when none). */
export const turnOf = (body: unknown) => Number(/^Turn (\d+)\./.exec(lastUserText(body))?.[1] ?? 0)

/** About the tokens of a request body: reporting what it received keeps the calibration near 1. */
export const promptTokensOf = (body: unknown) => Math.round(JSON.stringify(body).length / 4)

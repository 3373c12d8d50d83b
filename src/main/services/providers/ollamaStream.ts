/**
 * Ollama reports a failure after its reply has started as one NDJSON line, `{"error": "..."}`,
 * with status 200. Its SDK client validates each line against the reply shape and drops the
 * ones that fail with a console warning, so the user would only learn that the stream ended
 * early. This fetch wrapper reads the lines as they pass and fails the body with Ollama's own
 * words, or names the line it could not read.
 */
import { isContextLengthMessage } from './errors'
import { ProviderError } from './types'

const SNIPPET = 120

export function ollamaFetch(base: typeof fetch = globalThis.fetch): typeof fetch {
  return async (input, init) => {
    const response = await base(input, init)
    if (!response.ok || !response.body) return response
    return new Response(response.body.pipeThrough(watchLines()), {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers
    })
  }
}

/** The failure a line stands for, or null for an ordinary reply line. */
function failureIn(line: string): ProviderError | null {
  let parsed: unknown
  try {
    parsed = JSON.parse(line)
  } catch {
    const shown = line.length > SNIPPET ? `${line.slice(0, SNIPPET)}…` : line
    return new ProviderError({
      kind: 'bad_response',
      message: `Ollama sent a line the app could not read: ${shown}`
    })
  }
  if (parsed === null || typeof parsed !== 'object' || !('error' in parsed)) return null
  const words = typeof parsed.error === 'string' && parsed.error ? parsed.error : 'unknown error'
  return new ProviderError({
    kind: isContextLengthMessage(words) ? 'context_length' : 'server',
    message: words
  })
}

/**
 * Passes complete lines through unchanged. A failure is raised on the next chunk (or at the
 * end), after the lines before it have been read, so text that arrived first is not lost.
 */
function watchLines(): TransformStream<Uint8Array, Uint8Array> {
  const decoder = new TextDecoder()
  const encoder = new TextEncoder()
  let buffer = ''
  let failure: ProviderError | null = null
  const take = (lines: string[], controller: TransformStreamDefaultController<Uint8Array>) => {
    for (const line of lines) {
      if (failure) return
      if (line.trim() === '') continue
      failure = failureIn(line.trim())
      if (!failure) controller.enqueue(encoder.encode(`${line}\n`))
    }
  }
  return new TransformStream({
    transform(chunk, controller) {
      if (failure) throw failure
      buffer += decoder.decode(chunk, { stream: true })
      const lines = buffer.split('\n')
      buffer = lines.pop() ?? ''
      take(lines, controller)
    },
    flush(controller) {
      take([buffer + decoder.decode()], controller)
      if (failure) throw failure
    }
  })
}

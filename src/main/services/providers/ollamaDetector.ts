/**
 * Is an Ollama server running on this machine, and which models does it have? One GET of
 * /api/tags with a short timeout, so the settings page (and the empty-state hint) can offer
 * "Use Ollama" without the user typing anything. Never throws: absence is a normal answer.
 */
import type { OllamaDetection, OllamaModel } from '@shared/providers'
import { DEFAULT_OLLAMA_URL, ollamaRoot } from './modelClient'

export type { OllamaDetection } from '@shared/providers'

export interface DetectOptions {
  baseUrl?: string
  timeoutMs?: number
  signal?: AbortSignal
}

export async function detectOllama(options: DetectOptions = {}): Promise<OllamaDetection> {
  const baseUrl = ollamaRoot(options.baseUrl ?? DEFAULT_OLLAMA_URL)
  const timeout = AbortSignal.timeout(options.timeoutMs ?? 1_500)
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout
  try {
    const response = await fetch(`${baseUrl}/api/tags`, {
      signal,
      headers: { accept: 'application/json' }
    })
    if (!response.ok) {
      await response.body?.cancel()
      return { found: false, baseUrl, reason: 'not_ollama' }
    }
    const body = (await response.json()) as unknown
    const models = parseTags(body)
    return models === null
      ? { found: false, baseUrl, reason: 'not_ollama' }
      : { found: true, baseUrl, models }
  } catch (error) {
    const timedOut = timeout.aborted || (error as { name?: string } | null)?.name === 'TimeoutError'
    return { found: false, baseUrl, reason: timedOut ? 'timeout' : 'not_running' }
  }
}

/** Ollama's { models: [{ name, size, details: { family, parameter_size, quantization_level } }] }. */
function parseTags(body: unknown): OllamaModel[] | null {
  const list = (body as { models?: unknown } | null)?.models
  if (!Array.isArray(list)) return null
  const models: OllamaModel[] = []
  for (const item of list as unknown[]) {
    const entry = item as Record<string, unknown> | null
    const name =
      typeof entry?.name === 'string'
        ? entry.name
        : typeof entry?.model === 'string'
          ? entry.model
          : null
    if (!name) continue
    const details = (entry?.details ?? {}) as Record<string, unknown>
    const text = (value: unknown) => (typeof value === 'string' && value.length > 0 ? value : null)
    models.push({
      name,
      sizeBytes: typeof entry?.size === 'number' ? entry.size : null,
      family: text(details.family),
      parameterSize: text(details.parameter_size),
      quantization: text(details.quantization_level)
    })
  }
  return models
}

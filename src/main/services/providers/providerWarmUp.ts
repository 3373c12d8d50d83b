/**
 * The first request through the AI SDK pays for compiling its request and stream code, the
 * provider package's and their schemas. So each provider kind in use makes one request to a
 * transport that refuses it at once, a few seconds after start-up (startApp.ts): the same code
 * runs, and nothing leaves the machine. Measured in six alternating runs of
 * `npm run bench -- --only turn --quick` (docs/PERFORMANCE.md): the first send's build-to-fetch
 * step, median 185 → 99 ms; the first pasted send as a whole moves less than its spread.
 */
import type { ProviderKind } from '@shared/providers'
import { ProviderError } from './types'
import { streamChat } from './modelClient'

const refuse: typeof globalThis.fetch = async () =>
  new Response(JSON.stringify({ error: { message: 'refused at start-up' } }), {
    status: 400,
    headers: { 'content-type': 'application/json' }
  })

/** Resolves with the refusal the request ended with (what the tests check reached the transport). */
export async function warmUpProviderKind(kind: ProviderKind): Promise<ProviderError | null> {
  try {
    const reply = streamChat({
      provider: {
        id: 'warm-up',
        kind,
        name: 'warm-up',
        baseUrl: 'http://127.0.0.1/v1',
        models: []
      },
      modelId: 'warm-up',
      apiKey: 'sk-start-up',
      messages: [
        { role: 'system', content: 'warm-up' },
        { role: 'user', content: 'warm-up' }
      ],
      transport: refuse
    })
    for await (const event of reply) void event
    return null
  } catch (error) {
    // The refusal is the expected end; anything else is a fault in our own request code.
    if (error instanceof ProviderError) return error
    throw error
  }
}

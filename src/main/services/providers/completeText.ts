import type { ProviderMessage } from '@shared/context'
import type { ChatTarget } from './modelResolver'
import { streamChat } from './modelClient'
import type { ProviderService } from './providerService'

/**
 * One whole answer from the thread's model, for background work (extraction) that needs the
 * text, not the stream. Failures are the stream's ProviderErrors; the caller decides.
 */
export async function completeText(
  providers: ProviderService,
  target: ChatTarget,
  messages: readonly ProviderMessage[],
  maxOutputTokens: number,
  signal?: AbortSignal
): Promise<string> {
  const { apiKey } = providers.resolve(target.ref.providerId, target.ref.modelId)
  let text = ''
  for await (const event of streamChat({
    provider: target.provider,
    modelId: target.ref.modelId,
    ...(apiKey !== undefined && { apiKey }),
    messages,
    maxOutputTokens: Math.min(target.model.maxOutput, maxOutputTokens),
    ...(signal && { signal })
  })) {
    if (event.type === 'text') text += event.delta
  }
  return text
}

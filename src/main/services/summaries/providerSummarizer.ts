/** The summarizer a summary job uses: the thread's chat model, or the extractive fallback. */
import {
  FallbackSummarizer,
  SummarizerError,
  type Summarizer,
  type SummaryRequest
} from '../../context/summary/summarizer'
import type { ChatTarget } from '../providers/modelResolver'
import { streamChat } from '../providers/modelClient'
import type { ProviderService } from '../providers/providerService'
import { ProviderError } from '../providers/types'

/** The thread's chat model as a Summarizer: one streamed completion of the summary prompt. */
function providerSummarizer(providers: ProviderService, target: ChatTarget): Summarizer {
  return {
    source: 'model',
    async summarize(request: SummaryRequest, signal?: AbortSignal): Promise<string> {
      let text = ''
      try {
        const { apiKey } = providers.resolve(target.ref.providerId, target.ref.modelId)
        for await (const event of streamChat({
          provider: target.provider,
          modelId: target.ref.modelId,
          ...(apiKey !== undefined && { apiKey }),
          messages: [{ role: 'user', content: request.prompt }],
          maxOutputTokens: Math.min(target.model.maxOutput, Math.ceil(request.maxTokens * 1.25)),
          ...(signal && { signal })
        })) {
          if (event.type === 'text') text += event.delta
        }
      } catch (error) {
        const kind = error instanceof ProviderError ? error.kind : 'other'
        const failure =
          kind === 'auth'
            ? 'auth'
            : kind === 'network' || kind === 'timeout' || kind === 'rate_limit'
              ? 'network'
              : 'other'
        const message = error instanceof Error ? error.message : String(error)
        throw new SummarizerError(message, failure, { cause: error })
      }
      return text
    }
  }
}

/** The thread's model when it has one, else the extractive summary. */
export function summarizerFor(providers: ProviderService, target: ChatTarget | null): Summarizer {
  return target ? providerSummarizer(providers, target) : new FallbackSummarizer()
}

/**
 * The provider layer's data. The plain records, views and event shapes live in
 * src/shared/providers.ts (the IPC contract needs them); this file re-exports them and adds
 * the one error type every provider failure becomes.
 */
import type { ProviderErrorInfo, ProviderErrorKind } from '@shared/providers'

export {
  PROVIDER_KINDS,
  type ProviderKind,
  type ModelPrices,
  type ModelRecord,
  type ProviderRecord,
  type ProviderView,
  type CacheControl,
  type CacheableMessage,
  type ChatUsage,
  type ChatFinishReason,
  type ChatStreamEvent,
  type ProviderErrorKind,
  type ProviderErrorInfo
} from '@shared/providers'

/**
 * Every failure of a provider call becomes one of these. The message is safe to show and to
 * log: it never contains the API key (the classifier redacts it).
 */
export class ProviderError extends Error {
  readonly kind: ProviderErrorKind
  readonly status?: number
  readonly retryAfterMs?: number

  constructor(info: ProviderErrorInfo) {
    super(info.message)
    this.name = 'ProviderError'
    this.kind = info.kind
    if (info.status !== undefined) this.status = info.status
    if (info.retryAfterMs !== undefined) this.retryAfterMs = info.retryAfterMs
  }

  toJSON(): ProviderErrorInfo {
    const info: ProviderErrorInfo = { kind: this.kind, message: this.message }
    if (this.status !== undefined) info.status = this.status
    if (this.retryAfterMs !== undefined) info.retryAfterMs = this.retryAfterMs
    return info
  }
}

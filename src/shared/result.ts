/** Every IPC call resolves to one of these: handlers never throw across the process boundary. */
import type { ProviderErrorInfo } from './providers'

export type ErrorCode =
  | 'invalid_input'
  | 'not_found'
  | 'forbidden_sender'
  | 'unknown_channel'
  | 'storage_error'
  | 'internal'
  /** A model provider refused or failed the call; `provider` has its kind, words and status. */
  | 'provider_error'
  // The database file is damaged; main backs it up and offers a recovery (docs/ARCHITECTURE.md).
  | 'storage_corrupt'
  | 'storage_full'
  | 'storage_readonly'

export interface IpcError {
  code: ErrorCode
  message: string
  /** For invalid_input: which field failed and why, ready to show. */
  issues?: { path: string; message: string }[]
  /** For provider_error: the typed failure (kind, the provider's own message, HTTP status). */
  provider?: ProviderErrorInfo
}

export type IpcResult<T> = { ok: true; data: T } | { ok: false; error: IpcError }

export const ok = <T>(data: T): IpcResult<T> => ({ ok: true, data })
export const fail = (error: IpcError): IpcResult<never> => ({ ok: false, error })

/** Thrown by services for failures the user should see with a specific code. */
export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string
  ) {
    super(message)
    this.name = 'AppError'
  }
}

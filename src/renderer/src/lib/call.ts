import type { ErrorCode, IpcError, IpcResult } from '@shared/result'
import { en } from '../i18n/resources'
import { i18n } from '../i18n'

/** Codes whose text the renderer translates (the disk is full, the file is damaged, ...). */
const STORAGE_ERRORS = en.storageErrors

/** A failed IPC call, carrying the main process's error code so the UI can react to it. */
export class ApiError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly issues: IpcError['issues'] = undefined,
    /** For provider_error: the provider's kind, words and status. */
    readonly provider: IpcError['provider'] = undefined
  ) {
    super(message)
    this.name = 'ApiError'
  }
}

/**
 * Unwraps an IPC result: resolves with the data or throws an ApiError. A rejected promise
 * (the bridge itself failed, e.g. no handler registered yet) becomes an `internal` ApiError
 * so callers only ever handle one error type.
 */
export async function call<T>(request: Promise<IpcResult<T>>): Promise<T> {
  let result: IpcResult<T>
  try {
    result = await request
  } catch (cause) {
    throw new ApiError('internal', cause instanceof Error ? cause.message : String(cause))
  }
  if (result.ok) return result.data
  const { code, message, issues, provider } = result.error
  throw new ApiError(code, message, issues, provider)
}

/** The text to show a user for any thrown value; validation issues are more specific than the summary. */
export function describeError(error: unknown): string {
  if (error instanceof ApiError && error.issues && error.issues.length > 0) {
    return error.issues.map((issue) => issue.message).join(' · ')
  }
  if (error instanceof ApiError && error.code in STORAGE_ERRORS) {
    return i18n.t(`storageErrors.${error.code as keyof typeof STORAGE_ERRORS}`)
  }
  if (error instanceof Error && error.message) return error.message
  return String(error)
}

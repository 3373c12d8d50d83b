import type { z } from 'zod'
import { contract, endpoints, type Domain, type Endpoint, type Method } from '@shared/contract'
import type { OutputOf } from '@shared/contract'
import { AppError, fail, ok, type IpcError, type IpcResult } from '@shared/result'
import { ProviderError } from '../services/providers/types'
import { FAULT_MESSAGES, storageFaultOf } from '../store/storageFaults'

type ParsedInput<D extends Domain, M extends Method<D>> = z.output<
  Endpoint<D, M>['input'] & z.ZodType
>

/** One function per contract entry; it receives input already validated by the contract. */
export type Handlers = {
  [D in Domain]: {
    [M in Method<D>]: (input: ParsedInput<D, M>) => OutputOf<D, M> | Promise<OutputOf<D, M>>
  }
}

export interface HandlerRegistry {
  readonly channels: readonly string[]
  invoke(channel: string, input: unknown): Promise<IpcResult<unknown>>
}

type AnyHandler = (input: unknown) => unknown

/**
 * Validates every payload against the contract and turns every failure into a typed error
 * object: nothing thrown in a handler ever crosses the process boundary as a stack trace.
 */
export function createRegistry(
  handlers: Handlers,
  onUnexpected: (channel: string, error: unknown) => void = () => {}
): HandlerRegistry {
  const table = new Map<string, { schema: z.ZodType; handle: AnyHandler }>()
  for (const { domain, method, channel } of endpoints()) {
    const group = contract[domain] as Record<string, { input: z.ZodType }>
    const handle = (handlers[domain] as Record<string, AnyHandler>)[method]
    const entry = group[method]
    if (!handle || !entry) throw new Error(`No handler for ${channel}`)
    table.set(channel, { schema: entry.input, handle })
  }

  return {
    channels: [...table.keys()],
    async invoke(channel, input) {
      const entry = table.get(channel)
      if (!entry) return fail({ code: 'unknown_channel', message: `Unknown channel: ${channel}` })
      const parsed = entry.schema.safeParse(input)
      if (!parsed.success) return fail(invalidInput(parsed.error))
      try {
        return ok(await entry.handle(parsed.data))
      } catch (error) {
        return fail(toIpcError(channel, error, onUnexpected))
      }
    }
  }
}

function invalidInput(error: z.ZodError): IpcError {
  const issues = error.issues.map((issue) => ({
    path: issue.path.map(String).join('.') || '(payload)',
    message: issue.message
  }))
  return {
    code: 'invalid_input',
    message: issues
      .map((i) => (i.path === '(payload)' ? i.message : `${i.path}: ${i.message}`))
      .join('; '),
    issues
  }
}

function toIpcError(
  channel: string,
  error: unknown,
  onUnexpected: (channel: string, error: unknown) => void
): IpcError {
  if (error instanceof AppError) return { code: error.code, message: error.message }
  // The provider's own words are what the user needs (a wrong key, a dead server); the
  // message is already redacted and safe to show.
  if (error instanceof ProviderError) {
    return { code: 'provider_error', message: error.message, provider: error.toJSON() }
  }
  const code = typeof error === 'object' && error && 'code' in error ? String(error.code) : ''
  if (code.startsWith('SQLITE_')) {
    onUnexpected(channel, error)
    const fault = storageFaultOf(error)
    if (fault) return { code: `storage_${fault}`, message: FAULT_MESSAGES[fault] }
    return { code: 'storage_error', message: `The database refused the change (${code}).` }
  }
  onUnexpected(channel, error)
  return { code: 'internal', message: 'Something went wrong in the app. The error was logged.' }
}

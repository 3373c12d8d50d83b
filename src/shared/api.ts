/**
 * The shape of `window.api`, derived from the contract, and the one function that builds it
 * from a transport. The Electron preload passes ipcRenderer; the browser test harness passes
 * fetch. Both therefore expose exactly the same object.
 */
import { endpoints, events, type Domain, type EventName, type EventPayload } from './contract'
import type { InputOf, Method, OutputOf } from './contract'
import type { IpcResult } from './result'

type Call<D extends Domain, M extends Method<D>> =
  undefined extends InputOf<D, M>
    ? (input?: InputOf<D, M>) => Promise<IpcResult<OutputOf<D, M>>>
    : (input: InputOf<D, M>) => Promise<IpcResult<OutputOf<D, M>>>

export type Api = {
  [D in Domain]: { [M in Method<D>]: Call<D, M> }
} & {
  on<E extends EventName>(event: E, listener: (payload: EventPayload<E>) => void): () => void
}

export interface Transport {
  invoke(channel: string, input: unknown): Promise<unknown>
  subscribe(event: string, listener: (payload: unknown) => void): () => void
}

const isEventName = (name: unknown): name is EventName =>
  typeof name === 'string' && Object.prototype.hasOwnProperty.call(events, name)

export function createApi(transport: Transport): Api {
  const api: Record<string, unknown> = {
    // The types already refuse other names; this refuses them at run time too, because the
    // page is untrusted input here: ipcRenderer would listen on any channel it is given,
    // including request channels and Electron's internal ones.
    on: (event: unknown, listener: unknown) => {
      if (!isEventName(event)) throw new TypeError(`Not an event of the contract: ${String(event)}`)
      if (typeof listener !== 'function')
        throw new TypeError('An event listener must be a function')
      return transport.subscribe(event, listener as (payload: unknown) => void)
    }
  }
  for (const { domain, method, channel } of endpoints()) {
    const group = (api[domain] ??= {}) as Record<string, unknown>
    group[method] = (input?: unknown) => transport.invoke(channel, input)
  }
  return api as Api
}

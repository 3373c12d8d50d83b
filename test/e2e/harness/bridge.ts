/**
 * The browser-side stand-in for the Electron preload: builds `window.api` with the same
 * `createApi` the preload uses, but over HTTP (fetch for calls, Server-Sent Events for events).
 * Bundled as an IIFE by the harness server and injected before any page script runs.
 */
import { createApi, type Transport } from '@shared/api'

// This file runs in the page but is type-checked with the Node config: declare only what it uses.
interface EventSourceLike {
  onmessage: ((message: { data: string }) => void) | null
}
declare const EventSource: new (url: string) => EventSourceLike

type Listener = (payload: unknown) => void
const listeners = new Map<string, Set<Listener>>()
let source: EventSourceLike | undefined

/** One SSE connection for all events, opened on the first subscription. */
function connect(): void {
  if (source) return
  source = new EventSource('/events')
  source.onmessage = (message) => {
    const { event, payload } = JSON.parse(message.data) as { event: string; payload: unknown }
    for (const listener of listeners.get(event) ?? []) listener(payload)
  }
}

const transport: Transport = {
  async invoke(channel, input) {
    const response = await fetch(`/ipc/${encodeURIComponent(channel)}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ input })
    })
    return response.json()
  },
  subscribe(event, listener) {
    connect()
    const set = listeners.get(event) ?? new Set<Listener>()
    listeners.set(event, set)
    set.add(listener)
    return () => set.delete(listener)
  }
}

;(globalThis as { api?: unknown }).api = createApi(transport)

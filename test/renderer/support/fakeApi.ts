/**
 * Main for renderer tests is the real one (test/renderer/main/startMain.ts): the services over
 * a SQLite file in a temp folder, behind the handler registry, which validates every payload as
 * IPC does. The renderer reaches it through the `Api` that `createApi` builds from the contract,
 * as the preload builds it; payloads, answers and events cross as copies, as they do over IPC.
 *
 * Around the registry sit the controls a renderer test needs: every call is recorded, and the
 * next call on a channel can be failed, held, or answered late. The store helpers write to the
 * store directly, as data that was there before the test; main's in-memory copy of a thread it
 * has already read (ThreadMessageCache) does not see such writes, so a test that adds a message
 * after main read its thread sends it through `main` instead.
 *
 * Only what a renderer test must not reach is scripted: a model provider's server
 * (`providers:test` connects, `providers:listRemoteModels` lists nothing) and the local Ollama
 * (`ollama`). A test file scripts more with `script`.
 */
import { onTestFinished } from 'vitest'
import { createApi, type Api } from '@shared/api'
import type { EventName, EventPayload } from '@shared/contract'
import { yieldToEventLoop } from '@shared/eventLoop'
import type { AppSettings, SalvageReport } from '@shared/domain'
import type { ConnectionTestResult, OllamaDetection, ProviderView } from '@shared/providers'
import { fail, ok, type IpcError, type IpcResult } from '@shared/result'
import { pollUntil } from '../../support/poll'
import type { StoreAccess } from './mainProcess'

/** What "Test connection" answers: the provider's server is scripted. */
const connected: ConnectionTestResult = {
  ok: true,
  latencyMs: 42,
  method: 'completion',
  modelId: null,
  models: null
}

/** What a scripted channel answers with, given the call's input. */
type Scripted = (input: unknown) => IpcResult<unknown> | Promise<IpcResult<unknown>>

export interface FakeBackend extends StoreAccess {
  /** `window.api`: recorded, and subject to the controls below. */
  api: Api
  /** The same main without recording or controls: for setup, or a change made elsewhere. */
  main: Api
  /** Every call on `api` as `domain:method` with its input, in order. */
  calls: { channel: string; input: unknown }[]
  /** How many calls on `channel` main has handled (an answer held late counts once handled). */
  handled(channel: string): number
  /** How many calls on `channel` have had their answer delivered to the renderer. */
  answered(channel: string): number
  /** Makes the next call on `channel` fail with `error`. */
  failNext(channel: string, error: IpcError): void
  /** Holds the next call on `channel` until the returned function is called. */
  hold(channel: string): () => void
  /**
   * Answers the next call on `channel` late: main handles it at once (the answer reflects the
   * state then), but the answer only arrives when the returned function is called, so later
   * calls can overtake it.
   */
  holdAnswer(channel: string): () => void
  /**
   * Resolves once main has answered every call it is handling and the renderer has taken the
   * answers in (held answers aside): main yields on real time, whatever the test's clock.
   */
  settled(): Promise<void>
  /** Answers every later call on `channel` with `handler` instead of main (still recorded). */
  script(channel: string, handler: Scripted): void
  /** Delivers an event to the renderer as main would. */
  emit<E extends EventName>(event: E, payload: EventPayload<E>): void
  /** The settings as stored. */
  readonly settings: AppSettings
  readonly providers: ProviderView[]
  /** What app.info reports about a damaged database the user chose to start over from. */
  recoveredFromBackup: string | null
  /** What app.info reports salvage copied and could not read from that file. */
  salvage: SalvageReport | null
  /** Whether the system can encrypt API keys. */
  encryptionAvailable: boolean
  /** What Ollama detection finds. */
  ollama: OllamaDetection
}

/**
 * Starts main over a fresh store and installs its `Api` as `window.api`, for the test that is
 * running (call it from beforeEach): the store is closed once the test and its hooks are done.
 */
export async function installFakeBackend(): Promise<FakeBackend> {
  if (!globalThis.startMainProcess) throw new Error('test/renderer/main/register.ts did not run')
  const listeners = new Map<string, Set<(payload: unknown) => void>>()
  const deliver = (event: string, payload: unknown) => {
    for (const listener of listeners.get(event) ?? []) listener(payload)
  }
  const subscribe = (event: string, listener: (payload: unknown) => void) => {
    const set = listeners.get(event) ?? new Set()
    set.add(listener)
    listeners.set(event, set)
    return () => void set.delete(listener)
  }
  let encryptionAvailable = true
  let ollama: OllamaDetection = {
    found: false,
    baseUrl: 'http://127.0.0.1:11434',
    reason: 'not_running'
  }
  const main = await globalThis.startMainProcess({
    listen: (event, payload) => deliver(event, structuredClone(payload)),
    encryptionAvailable: () => encryptionAvailable,
    ollama: () => ollama
  })

  /** Calls main is still handling: the store closes once they are done (or 5 s have gone). */
  const inFlight = new Set<Promise<IpcResult<unknown>>>()
  onTestFinished(async () => {
    let timer: ReturnType<typeof setTimeout> | undefined
    await Promise.race([
      Promise.allSettled(inFlight),
      new Promise((resolve) => (timer = setTimeout(resolve, 5_000)))
    ])
    clearTimeout(timer)
    main.close()
  })
  const invoke = async (channel: string, input: unknown): Promise<IpcResult<unknown>> => {
    const handling = main.invoke(channel, structuredClone(input))
    inFlight.add(handling)
    try {
      return structuredClone(await handling)
    } finally {
      inFlight.delete(handling)
    }
  }

  const calls: FakeBackend['calls'] = []
  const failures = new Map<string, IpcError>()
  const holds = new Map<string, Promise<void>>()
  const answerHolds = new Map<string, Promise<void>>()
  const handledCounts = new Map<string, number>()
  const answeredCounts = new Map<string, number>()
  const count = (counts: Map<string, number>, channel: string) =>
    counts.set(channel, (counts.get(channel) ?? 0) + 1)
  const take = <T>(map: Map<string, T>, channel: string) => {
    const value = map.get(channel)
    map.delete(channel)
    return value
  }
  const gate = (gates: Map<string, Promise<void>>, channel: string) => {
    let release!: () => void
    gates.set(channel, new Promise<void>((resolve) => (release = resolve)))
    return release
  }
  const scripted = new Map<string, Scripted>([
    ['providers:test', () => ok(connected)],
    ['providers:listRemoteModels', () => ok([])]
  ])

  const backend: FakeBackend = {
    ...main.store,
    api: createApi({
      subscribe,
      async invoke(channel, input) {
        calls.push({ channel, input })
        await take(holds, channel)
        const late = take(answerHolds, channel)
        const failure = take(failures, channel)
        const script = scripted.get(channel)
        const answer = failure
          ? fail(failure)
          : script
            ? structuredClone(await script(structuredClone(input)))
            : await invoke(channel, input)
        count(handledCounts, channel)
        await late
        count(answeredCounts, channel)
        return answer
      }
    }),
    main: createApi({ subscribe, invoke }),
    calls,
    handled: (channel) => handledCounts.get(channel) ?? 0,
    answered: (channel) => answeredCounts.get(channel) ?? 0,
    failNext: (channel, error) => void failures.set(channel, error),
    hold: (channel) => gate(holds, channel),
    holdAnswer: (channel) => gate(answerHolds, channel),
    async settled() {
      do {
        await Promise.allSettled(inFlight)
        await yieldToEventLoop()
      } while (inFlight.size > 0)
    },
    script: (channel, handler) => void scripted.set(channel, handler),
    emit: (event, payload) => deliver(event, payload),
    get settings() {
      return main.settings()
    },
    get providers() {
      return main.providers()
    },
    get recoveredFromBackup() {
      return main.info.recoveredFromBackup
    },
    set recoveredFromBackup(path) {
      main.info.recoveredFromBackup = path
    },
    get salvage() {
      return main.info.salvage ?? null
    },
    set salvage(report) {
      main.info.salvage = report
    },
    get encryptionAvailable() {
      return encryptionAvailable
    },
    set encryptionAvailable(available) {
      encryptionAvailable = available
    },
    get ollama() {
      return ollama
    },
    set ollama(detection) {
      ollama = detection
    }
  }
  window.api = backend.api
  return backend
}

/** Waits until main has handled `count` calls on `channel` in all; their answers may be held. */
export function handledCalls(backend: FakeBackend, channel: string, count: number): Promise<true> {
  return pollUntil(() => backend.handled(channel) >= count, {
    what: `main to have handled ${count} ${channel} calls`
  })
}

/**
 * Waits until every call made on `channel` so far has been answered, the late ones included,
 * so a test can then check that a stale answer changed nothing: the renderer handles an answer
 * in the microtasks that follow it, which all run before the next poll.
 */
export function allAnswered(backend: FakeBackend, channel: string): Promise<true> {
  return pollUntil(
    () => {
      const made = backend.calls.filter((call) => call.channel === channel).length
      return made > 0 && backend.answered(channel) === made
    },
    { what: `every ${channel} call to be answered` }
  )
}

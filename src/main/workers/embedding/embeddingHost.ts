/**
 * Where the embedding worker runs. In the app: an Electron utility process, so that a native
 * crash in ONNX Runtime (known allocator traps under Electron, onnxruntime #29763) ends that
 * process, not the app, and the client can start it again; Ente and OpenWhispr run their ONNX
 * models the same way. Under plain Node (tests, CLI, bench): a worker thread. The worker entry
 * (embeddingWorker.ts) speaks the same protocol over either.
 */
import { Worker } from 'node:worker_threads'
import type { FromWorker, ToWorker, WorkerInit } from './embeddingProtocol'

export interface EmbeddingHost {
  post(message: ToWorker): void
  onMessage(listener: (message: FromWorker) => void): void
  /** The host ended; `reason` in words (exit code or signal), for the status. */
  onExit(listener: (reason: string) => void): void
  terminate(): Promise<void>
}

export type EmbeddingHostFactory = (workerPath: string, init: WorkerInit) => EmbeddingHost

export const workerThreadHost: EmbeddingHostFactory = (workerPath, init) => {
  const worker = new Worker(workerPath, { workerData: init })
  // The worker must not keep the process alive on its own (tests, app quit).
  worker.unref()
  let exitListener: ((reason: string) => void) | null = null
  let errored: string | null = null
  worker.on('error', (error) => {
    errored = error.message
  })
  worker.on('exit', (code) => exitListener?.(errored ?? `exit code ${code}`))
  return {
    post: (message) => {
      // Vectors come back transferred; texts go as a copy.
      worker.postMessage(message)
    },
    onMessage: (listener) => worker.on('message', listener),
    onExit: (listener) => (exitListener = listener),
    terminate: async () => {
      await worker.terminate()
    }
  }
}

/** The part of Electron's utilityProcess this needs (injected: this module never imports electron). */
interface UtilityProcessLike {
  postMessage(message: unknown): void
  on(event: 'message', listener: (message: unknown) => void): unknown
  on(event: 'exit', listener: (code: number) => void): unknown
  kill(): boolean
  readonly pid?: number
}

export type UtilityFork = (
  modulePath: string,
  args: string[],
  options: { serviceName: string; env: Record<string, string>; stdio: 'inherit' }
) => UtilityProcessLike

/** What the utility process needs of the app's environment (temp and home folders, PATH). */
function utilityEnvironment(env: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const keep = ['PATH', 'HOME', 'TMPDIR', 'TEMP', 'TMP', 'SYSTEMROOT', 'LANG', 'USERPROFILE']
  return Object.fromEntries(
    keep.flatMap((key) => (env[key] === undefined ? [] : [[key, env[key] as string]]))
  )
}

export function utilityProcessHost(fork: UtilityFork): EmbeddingHostFactory {
  return (workerPath, init) => {
    const child = fork(workerPath, [], {
      serviceName: 'Context Lens embeddings',
      env: utilityEnvironment(),
      stdio: 'inherit'
    })
    let exitListener: ((reason: string) => void) | null = null
    let exited = false
    let onExited: (() => void) | null = null
    child.on('exit', (code) => {
      exited = true
      onExited?.()
      exitListener?.(`exit code ${code}`)
    })
    // A utility process has no workerData: the init is its first message.
    child.postMessage({ type: 'init', init })
    return {
      post: (message) => child.postMessage(message),
      onMessage: (listener) => child.on('message', (message) => listener(message as FromWorker)),
      onExit: (listener) => (exitListener = listener),
      terminate: () =>
        new Promise<void>((resolve) => {
          if (exited) return resolve()
          onExited = resolve
          child.kill()
        })
    }
  }
}

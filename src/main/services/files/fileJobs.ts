/**
 * Runs one file job in a fresh worker thread (workers/fileWorker.ts) and ends it after a time
 * limit, so a PDF that makes the parser spin costs the user a clear refusal, not a frozen app.
 */
import { Worker } from 'node:worker_threads'
import type { FileJob, FileJobResult } from '../../workers/fileProtocol'

export class FileJobError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'FileJobError'
  }
}

export type RunFileJob = <J extends FileJob>(
  job: J
) => Promise<Extract<FileJobResult, { type: J['type'] }>>

export function fileJobRunner(workerPath: string, timeoutMs = 60_000): RunFileJob {
  return <J extends FileJob>(job: J) =>
    new Promise<Extract<FileJobResult, { type: J['type'] }>>((resolve, reject) => {
      const worker = new Worker(workerPath, { workerData: job })
      let settled = false
      const finish = (error: Error | null, result?: FileJobResult) => {
        if (settled) return
        settled = true
        clearTimeout(timer)
        void worker.terminate()
        if (error) reject(error)
        else if (result?.type === 'error') reject(new FileJobError(result.message))
        else resolve(result as Extract<FileJobResult, { type: J['type'] }>)
      }
      const timer = setTimeout(
        () => finish(new FileJobError(`it took longer than ${timeoutMs / 1000} s to read`)),
        timeoutMs
      )
      worker.on('message', (result: FileJobResult) => finish(null, result))
      worker.on('error', (error) => finish(new FileJobError(error.message)))
      worker.on('exit', (code) => finish(new FileJobError(`the file reader exited (code ${code})`)))
    })
}

/**
 * Runs one file job in a fresh worker thread (workers/file/fileWorker.ts) and ends it after a time
 * limit, so a PDF that makes the parser spin costs the user a clear refusal, not a frozen app.
 */
import { Worker } from 'node:worker_threads'
import type { FileJob, FileJobResult } from '../../workers/file/fileProtocol'

class FileJobError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'FileJobError'
  }
}

export type RunFileJob = <J extends FileJob>(
  job: J
) => Promise<Extract<FileJobResult, { type: J['type'] }>>

/**
 * At most `concurrency` workers at once: ten files dropped together must not start ten parsers
 * on a two-core machine. The time limit counts from a job's start, not from its wait.
 */
export function fileJobRunner(workerPath: string, timeoutMs = 60_000, concurrency = 2): RunFileJob {
  let running = 0
  const waiting: (() => void)[] = []
  const slot = async () => {
    if (running >= concurrency) await new Promise<void>((resolve) => waiting.push(resolve))
    running++
  }
  const release = () => {
    running--
    waiting.shift()?.()
  }
  return async <J extends FileJob>(job: J) => {
    await slot()
    try {
      return await runInWorker(workerPath, job, timeoutMs)
    } finally {
      release()
    }
  }
}

function runInWorker<J extends FileJob>(
  workerPath: string,
  job: J,
  timeoutMs: number
): Promise<Extract<FileJobResult, { type: J['type'] }>> {
  return new Promise<Extract<FileJobResult, { type: J['type'] }>>((resolve, reject) => {
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

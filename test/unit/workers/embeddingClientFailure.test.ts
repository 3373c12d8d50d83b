import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { EmbeddingClient } from '../../../src/main/workers/embedding/embeddingClient'
import { workerThreadHost } from '../../../src/main/workers/embedding/embeddingHost'
import { modelSpec } from '../../../src/main/workers/embedding/embeddingModels'
import { BGE_MODEL_ID } from '../../../src/shared/embeddingModelIds'
import { pollUntil } from '../../support/poll'
import { useTempDir } from '../../support/tempDir'

const tempDir = useTempDir()
const spec = modelSpec(BGE_MODEL_ID)

describe('the embedding client says why the model is unavailable', () => {
  it("keeps the worker's reason when the worker then exits normally", async () => {
    // What the real worker does when loading fails: post the reason, then its thread ends.
    const workerPath = join(tempDir(), 'failingWorker.cjs')
    writeFileSync(
      workerPath,
      "require('node:worker_threads').parentPort.postMessage({ type: 'failed', message: 'Could not locate file: tokenizer.json' })"
    )
    // The real worker-thread host, told apart only in that the test learns when the client
    // has heard of the exit (which the client itself does not report).
    let exitHeard = false
    const client = new EmbeddingClient({
      workerPath,
      spec,
      source: { kind: 'folder', root: '/x', name: 'y' },
      host: (path, init) => {
        const host = workerThreadHost(path, init)
        return {
          ...host,
          onExit: (listener) =>
            host.onExit((reason) => {
              listener(reason)
              exitHeard = true
            })
        }
      }
    })
    await expect(client.ready()).rejects.toThrow('Could not locate file: tokenizer.json')
    // The worker's thread ends after its message, and its exit must not replace the reason.
    await pollUntil(() => exitHeard, { what: "the client to hear of the worker thread's exit" })
    expect(client.status()).toMatchObject({
      state: 'unavailable',
      error: 'Could not locate file: tokenizer.json'
    })
    await client.close()
  })

  it('a failed download is the reason, and no worker starts', async () => {
    const workerPath = join(tempDir(), 'neverStarted.cjs')
    writeFileSync(workerPath, "throw new Error('the worker must not start')")
    const statuses: string[] = []
    const client = new EmbeddingClient({
      workerPath,
      spec,
      source: { kind: 'hub', cacheDir: tempDir() },
      download: async (_signal, onProgress) => {
        await new Promise((resolve) => setImmediate(resolve))
        onProgress('config.json', 10, 100)
        throw new Error('Could not download the embedding model: the connection was refused')
      }
    })
    client.onStatus((s) => statuses.push(`${s.state}:${s.progress.length}`))
    await expect(client.ready()).rejects.toThrow(/the connection was refused/)
    expect(statuses).toEqual(['downloading:1', 'unavailable:0'])
    expect(client.status().error).toBe(
      'Could not download the embedding model: the connection was refused'
    )
    await client.close()
  })

  it('closing while downloading cancels the download', async () => {
    let aborted = false
    const client = new EmbeddingClient({
      workerPath: join(tempDir(), 'unused.cjs'),
      spec,
      source: { kind: 'hub', cacheDir: tempDir() },
      download: (signal) =>
        new Promise((_resolve, reject) =>
          signal.addEventListener('abort', () => {
            aborted = true
            reject(new Error('the download was cancelled'))
          })
        )
    })
    await client.close()
    expect(aborted).toBe(true)
    await expect(client.ready()).rejects.toThrow()
  })
})

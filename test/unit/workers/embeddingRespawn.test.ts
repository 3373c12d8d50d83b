import { describe, expect, it } from 'vitest'
import { EmbeddingClient } from '../../../src/main/workers/embedding/embeddingClient'
import type {
  EmbeddingHost,
  EmbeddingHostFactory
} from '../../../src/main/workers/embedding/embeddingHost'
import { modelSpec } from '../../../src/main/workers/embedding/embeddingModels'
import type { FromWorker, ToWorker } from '../../../src/main/workers/embedding/embeddingProtocol'
import { BGE_MODEL_ID } from '../../../src/shared/embeddingModelIds'
import { expectStillAfter, pollUntil } from '../../support/poll'

/** Hosts that load at once and answer batches with zero vectors; the test crashes them. */
function fakeHosts() {
  const started: { crash: (how: string) => void; posted: ToWorker[]; answer: boolean }[] = []
  const factory: EmbeddingHostFactory = () => {
    let onMessage: (message: FromWorker) => void = () => {}
    let onExit: (reason: string) => void = () => {}
    const state = { crash: (how: string) => onExit(how), posted: [] as ToWorker[], answer: true }
    started.push(state)
    setImmediate(() => onMessage({ type: 'ready', modelId: BGE_MODEL_ID, dimension: 2 }))
    const host: EmbeddingHost = {
      post: (message) => {
        state.posted.push(message)
        if (message.type === 'embed' && state.answer) {
          const vectors = new Float32Array(message.texts.length * 2)
          setImmediate(() => onMessage({ type: 'result', id: message.id, dimension: 2, vectors }))
        }
      },
      onMessage: (listener) => (onMessage = listener),
      onExit: (listener) => (onExit = listener),
      terminate: async () => {}
    }
    return host
  }
  return { started, factory }
}

/**
 * That no host is started again: an absence, which polling cannot show, so a window longer than
 * every restart delay (10, 20 ms) in which a wrong restart would show. What should happen is
 * polled for.
 */
const noRestartAfter = (hosts: ReturnType<typeof fakeHosts>, count: number) =>
  expectStillAfter(30, () => expect(hosts.started).toHaveLength(count))

function client(factory: EmbeddingHostFactory) {
  return new EmbeddingClient({
    workerPath: 'unused.js',
    spec: modelSpec(BGE_MODEL_ID),
    source: { kind: 'folder', root: '/models', name: BGE_MODEL_ID },
    host: factory,
    respawnDelaysMs: [10, 20]
  })
}

describe('the embedding host ending after the model loaded', () => {
  it('is started again; the running batch fails, queued and later work is embedded', async () => {
    const hosts = fakeHosts()
    const embedder = client(hosts.factory)
    await embedder.ready()
    hosts.started[0]!.answer = false
    const running = embedder.embed(['in the crash'])
    await pollUntil(() => hosts.started[0]!.posted.some((m) => m.type === 'embed'), {
      what: 'the batch to reach the host'
    })
    hosts.started[0]!.crash('exit code 1')
    await expect(running).rejects.toThrow('the embedding worker stopped (exit code 1)')
    expect(embedder.status().state).toBe('loading')
    const queued = embedder.embed(['after the crash'])
    await pollUntil(() => embedder.status().state === 'ready', { what: 'the restarted host' })
    expect(hosts.started).toHaveLength(2)
    expect(embedder.status()).toMatchObject({ state: 'ready', error: null })
    expect(await queued).toHaveLength(1)
    await embedder.close()
  })

  it('gives up, naming the cause, when it keeps ending', async () => {
    const hosts = fakeHosts()
    const embedder = client(hosts.factory)
    await embedder.ready()
    for (let i = 0; i < 2; i++) {
      hosts.started.at(-1)!.crash('exit code 134')
      await pollUntil(() => hosts.started.length === i + 2 && embedder.status().state === 'ready', {
        what: `host ${i + 2} to start and load`
      })
    }
    hosts.started.at(-1)!.crash('exit code 134')
    await noRestartAfter(hosts, 3)
    expect(embedder.status()).toMatchObject({
      state: 'unavailable',
      error: 'the embedding worker stopped 3 times in a row (last: exit code 134)'
    })
    await expect(embedder.embed(['x'])).rejects.toThrow(/stopped 3 times/)
    await embedder.close()
  })

  it('is not restarted after close', async () => {
    const hosts = fakeHosts()
    const embedder = client(hosts.factory)
    await embedder.ready()
    await embedder.close()
    hosts.started[0]!.crash('exit code 0')
    await noRestartAfter(hosts, 1)
  })
})

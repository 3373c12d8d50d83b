import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import {
  describeDownloadFailure,
  downloadModel,
  ModelDownloadError
} from '../../../src/main/workers/embedding/modelDownload'
import { closedPort } from '../../support/closedPort'
import { useTempDir } from '../../support/tempDir'

const tempDir = useTempDir()
const ID = 'Xenova/bge-small-zh-v1.5'
const WEIGHTS = Buffer.from(Array.from({ length: 200_000 }, (_, i) => i % 251))

let server: Server | null = null
afterEach(() => new Promise<void>((done) => (server ? server.close(() => done()) : done())))

/** A hub-shaped server: `/<id>/resolve/main/<file>`, with Range support; records requests. */
async function hub(options: { stallAfter?: number } = {}) {
  const requests: { url: string; headers: IncomingHttpHeaders }[] = []
  server = createServer((req, res) => {
    requests.push({ url: req.url ?? '', headers: req.headers })
    const file = req.url?.replace(`/${ID}/resolve/main/`, '')
    const body =
      file === 'onnx/model_quantized.onnx'
        ? WEIGHTS
        : file?.endsWith('.json')
          ? Buffer.from('{}')
          : null
    if (!body) {
      res.writeHead(404, 'Not Found').end()
      return
    }
    const from = Number(/bytes=(\d+)-/.exec(req.headers.range ?? '')?.[1] ?? 0)
    const part = body.subarray(from)
    res.writeHead(from > 0 ? 206 : 200, { 'content-length': String(part.length) })
    if (options.stallAfter !== undefined) res.write(part.subarray(0, options.stallAfter))
    else res.end(part)
  })
  await new Promise<void>((ready) => server?.listen(0, '127.0.0.1', ready))
  const { port } = server.address() as { port: number }
  return { endpoint: `http://127.0.0.1:${port}`, requests }
}

const files = ['config.json', 'onnx/model_quantized.onnx']

describe('downloadModel', () => {
  it('resumes a part file with a Range request and reports progress of the whole file', async () => {
    const { endpoint, requests } = await hub()
    const root = tempDir()
    mkdirSync(join(root, ID, 'onnx'), { recursive: true })
    writeFileSync(join(root, ID, 'onnx/model_quantized.onnx.part'), WEIGHTS.subarray(0, 50_000))
    const progress: [string, number, number][] = []
    await downloadModel({
      modelId: ID,
      files,
      root,
      endpoint: `${endpoint}/`,
      fetch: (url, init) => fetch(url, init),
      onProgress: (file, loaded, total) => progress.push([file, loaded, total])
    })
    expect(readFileSync(join(root, ID, 'onnx/model_quantized.onnx')).equals(WEIGHTS)).toBe(true)
    expect(existsSync(join(root, ID, 'onnx/model_quantized.onnx.part'))).toBe(false)
    const weights = requests.find((r) => r.url.endsWith('.onnx'))
    expect(weights?.headers.range).toBe('bytes=50000-')
    expect(progress.at(-1)).toEqual(['onnx/model_quantized.onnx', WEIGHTS.length, WEIGHTS.length])
    // Files already there are not fetched again.
    requests.length = 0
    await downloadModel({ modelId: ID, files, root, endpoint, fetch })
    expect(requests).toEqual([])
  })

  it('cancelling stops the download and keeps the part for next time', async () => {
    const { endpoint } = await hub({ stallAfter: 10_000 })
    const root = tempDir()
    const cancel = new AbortController()
    const done = downloadModel({
      modelId: ID,
      files: ['onnx/model_quantized.onnx'],
      root,
      endpoint,
      fetch,
      signal: cancel.signal,
      onProgress: (_file, loaded) => {
        if (loaded >= 10_000) cancel.abort()
      }
    })
    await expect(done).rejects.toThrow(/the download was cancelled/)
    expect(existsSync(join(root, ID, 'onnx/model_quantized.onnx'))).toBe(false)
    expect(existsSync(join(root, ID, 'onnx/model_quantized.onnx.part'))).toBe(true)
  })

  it('names the host and the cause: a missing file on a mirror, a refused connection', async () => {
    const { endpoint } = await hub()
    const missing = downloadModel({
      modelId: ID,
      files: ['onnx/model.onnx'],
      root: tempDir(),
      endpoint,
      fetch
    })
    await expect(missing).rejects.toThrow(ModelDownloadError)
    await expect(missing).rejects.toThrow(
      `Could not download the embedding model ${ID} from ${new URL(endpoint).host}: the file is not there (HTTP 404 Not Found); check the mirror address.`
    )
    const port = await closedPort()
    const refused = downloadModel({
      modelId: ID,
      files,
      root: tempDir(),
      endpoint: `http://127.0.0.1:${port}`,
      fetch
    })
    await expect(refused).rejects.toThrow(
      /from 127\.0\.0\.1:\d+: the connection was refused \[connect ECONNREFUSED/
    )
  })
})

describe('describeDownloadFailure', () => {
  it("reads Chromium's net errors (Electron's net.fetch) as well as Node's", () => {
    expect(describeDownloadFailure(new Error('net::ERR_NAME_NOT_RESOLVED'))).toBe(
      'the server name could not be resolved (offline, or DNS is blocked) [net::ERR_NAME_NOT_RESOLVED]'
    )
    expect(describeDownloadFailure(new Error('net::ERR_PROXY_CONNECTION_FAILED'))).toMatch(
      /^the proxy could not be reached/
    )
    expect(describeDownloadFailure(new Error('net::ERR_CERT_AUTHORITY_INVALID'))).toMatch(
      /certificate was not trusted/
    )
    const undici = new TypeError('fetch failed', {
      cause: Object.assign(new Error('getaddrinfo ENOTFOUND huggingface.co'), { code: 'ENOTFOUND' })
    })
    expect(describeDownloadFailure(undici)).toBe(
      'the server name could not be resolved (offline, or DNS is blocked) [getaddrinfo ENOTFOUND huggingface.co]'
    )
    const tls = new TypeError('fetch failed', {
      cause: Object.assign(new Error('unable to get local issuer certificate'), {
        code: 'UNABLE_TO_GET_ISSUER_CERT_LOCALLY'
      })
    })
    expect(describeDownloadFailure(tls)).toMatch(/certificate was not trusted/)
  })
})

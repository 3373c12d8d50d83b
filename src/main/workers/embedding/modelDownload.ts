/**
 * The first-run model download, in the main process rather than inside the embedding worker:
 * there the app's `fetch` is Electron's `net.fetch`, which goes through the system proxy
 * (PAC included) and trusts the OS certificate store, where Node's fetch in a worker knows
 * neither. Files go to `<models root>/<id>/<file>.part` and are renamed when complete, so an
 * interrupted download resumes with a Range request and a half file is never loaded. Its
 * failure names the cause (the host, and what went wrong) for the memory status.
 */
import { createWriteStream, existsSync, mkdirSync, renameSync, statSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import type { ReadableStream as WebReadableStream } from 'node:stream/web'
import type { EmbeddingModelSpec } from './embeddingModels'

export const DEFAULT_MODEL_ENDPOINT = 'https://huggingface.co'

/** What transformers.js reads for feature extraction (modelLocation's isModelFolder). */
export function modelFiles(spec: Pick<EmbeddingModelSpec, 'dtype'>): string[] {
  const weights = spec.dtype === 'q8' ? 'onnx/model_quantized.onnx' : 'onnx/model.onnx'
  return ['config.json', 'tokenizer.json', 'tokenizer_config.json', weights]
}

export type Fetch = (url: string, init?: RequestInit) => Promise<Response>

export interface ModelDownload {
  modelId: string
  files: string[]
  /** `<userData>/models`: the files land in `<root>/<modelId>/`. */
  root: string
  /** The hub or a mirror with the same layout (`<endpoint>/<id>/resolve/main/<file>`). */
  endpoint: string
  fetch: Fetch
  signal?: AbortSignal
  onProgress?: (file: string, loaded: number, total: number) => void
}

export class ModelDownloadError extends Error {
  constructor(
    message: string,
    readonly reason: string
  ) {
    super(message)
    this.name = 'ModelDownloadError'
  }
}

export async function downloadModel(download: ModelDownload): Promise<void> {
  for (const file of download.files) {
    const url = `${download.endpoint.replace(/\/+$/, '')}/${download.modelId}/resolve/main/${file}`
    try {
      await downloadFile(url, join(download.root, download.modelId, file), file, download)
    } catch (error) {
      const reason = describeDownloadFailure(error)
      throw new ModelDownloadError(
        `Could not download the embedding model ${download.modelId} from ${hostOf(url)}: ${reason}. Memory recall uses full-text search until the model is available.`,
        reason
      )
    }
  }
}

async function downloadFile(
  url: string,
  target: string,
  file: string,
  download: ModelDownload
): Promise<void> {
  if (existsSync(target)) return
  mkdirSync(dirname(target), { recursive: true })
  const part = `${target}.part`
  const have = existsSync(part) ? statSync(part).size : 0
  const response = await download.fetch(url, {
    headers: have > 0 ? { Range: `bytes=${have}-` } : {},
    redirect: 'follow',
    signal: download.signal
  })
  // 416: the part file is already whole (the rename was interrupted).
  if (response.status === 416 && have > 0) {
    renameSync(part, target)
    return
  }
  if (!response.ok || !response.body)
    throw new HttpStatusError(response.status, response.statusText)
  const resumed = response.status === 206
  const length = Number(response.headers.get('content-length') ?? 0)
  const total = length > 0 ? length + (resumed ? have : 0) : 0
  let loaded = resumed ? have : 0
  const body = Readable.fromWeb(response.body as WebReadableStream<Uint8Array>)
  body.on('data', (chunk: Buffer) => {
    loaded += chunk.length
    download.onProgress?.(file, loaded, total)
  })
  await pipeline(body, createWriteStream(part, { flags: resumed ? 'a' : 'w' }), {
    signal: download.signal
  })
  renameSync(part, target)
}

class HttpStatusError extends Error {
  constructor(
    readonly status: number,
    statusText: string
  ) {
    super(`HTTP ${status}${statusText ? ` ${statusText}` : ''}`)
  }
}

function hostOf(url: string): string {
  try {
    return new URL(url).host
  } catch {
    return url
  }
}

/** Node's (undici) error codes and Chromium's net:: errors, in words. */
const NETWORK_REASONS: [RegExp, string][] = [
  [
    /ENOTFOUND|EAI_AGAIN|ERR_NAME_NOT_RESOLVED/,
    'the server name could not be resolved (offline, or DNS is blocked)'
  ],
  [
    /ERR_INTERNET_DISCONNECTED|ENETUNREACH|EHOSTUNREACH|ERR_NETWORK_CHANGED/,
    'there is no network connection'
  ],
  [/ECONNREFUSED|ERR_CONNECTION_REFUSED/, 'the connection was refused'],
  [
    /ECONNRESET|ERR_CONNECTION_RESET|ERR_CONNECTION_CLOSED|UND_ERR_SOCKET/,
    'the connection was reset (a firewall or proxy may block it)'
  ],
  [
    /ETIMEDOUT|UND_ERR_CONNECT_TIMEOUT|ERR_TIMED_OUT|ERR_CONNECTION_TIMED_OUT/,
    'the connection timed out'
  ],
  [/ERR_PROXY|ERR_TUNNEL_CONNECTION_FAILED/, 'the proxy could not be reached'],
  [
    /CERT|UNABLE_TO_VERIFY|SELF_SIGNED|ERR_SSL/,
    "the server's certificate was not trusted (a proxy may intercept the connection)"
  ]
]

/** The reason in a few words; the technical code stays in brackets for support. */
export function describeDownloadFailure(error: unknown): string {
  if (error instanceof HttpStatusError) {
    if (error.status === 404)
      return `the file is not there (${error.message}); check the mirror address`
    if (error.status === 401 || error.status === 403) return `access was refused (${error.message})`
    if (error.status === 429) return `too many requests (${error.message}); try again later`
    return `the server answered ${error.message}`
  }
  if ((error as { name?: unknown } | null)?.name === 'AbortError')
    return 'the download was cancelled'
  const codes = errorChain(error)
  for (const [pattern, reason] of NETWORK_REASONS) {
    const code = codes.find((c) => pattern.test(c))
    if (code) return `${reason} [${code}]`
  }
  return codes[0] ?? String(error)
}

/** Messages and codes along `cause`: Node's fetch says only "fetch failed" at the top. */
function errorChain(error: unknown): string[] {
  const found: string[] = []
  let current: unknown = error
  for (let depth = 0; current && depth < 5; depth++) {
    const { code, message, cause } = current as {
      code?: unknown
      message?: unknown
      cause?: unknown
    }
    if (typeof code === 'string') found.push(code)
    if (typeof message === 'string' && message) found.push(message)
    current = cause
  }
  // The most specific first: the innermost code.
  return found.reverse()
}

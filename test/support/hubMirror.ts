/**
 * A Hugging Face hub mirror on 127.0.0.1 (`/<id>/resolve/main/<file>`, Range requests) that
 * serves the real test models from .cache/models. The weights can be held after a number of
 * bytes, as a slow or dropped connection would, until `release()`.
 */
import { createReadStream, existsSync, statSync } from 'node:fs'
import { createServer, type IncomingHttpHeaders } from 'node:http'
import { join } from 'node:path'

export interface HubMirror {
  url: string
  requests: { path: string; headers: IncomingHttpHeaders }[]
  /** Lets held responses (and later ones) run to the end. */
  release(): void
  close(): Promise<void>
}

export async function hubMirror(
  modelsDir: string,
  options: { holdWeightsAfter?: number } = {}
): Promise<HubMirror> {
  const requests: HubMirror['requests'] = []
  let held = options.holdWeightsAfter !== undefined
  const waiting = new Set<() => void>()
  const server = createServer((req, res) => {
    const path = decodeURIComponent(req.url ?? '')
    requests.push({ path, headers: req.headers })
    const [id, file = ''] = path.slice(1).split('/resolve/main/')
    const local = id && file ? join(modelsDir, id, file) : ''
    if (!local || !existsSync(local)) {
      res.writeHead(404, 'Not Found').end()
      return
    }
    const size = statSync(local).size
    const from = Number(/bytes=(\d+)-/.exec(req.headers.range ?? '')?.[1] ?? 0)
    res.writeHead(from > 0 ? 206 : 200, { 'content-length': String(size - from) })
    const weights = file.endsWith('.onnx')
    if (!weights || !held || options.holdWeightsAfter === undefined) {
      createReadStream(local, { start: from }).pipe(res)
      return
    }
    // The first part now, the rest once released (or never, if the client goes away).
    const cut = from + options.holdWeightsAfter
    createReadStream(local, { start: from, end: cut - 1 })
      .on('end', () => {
        const rest = () => createReadStream(local, { start: cut }).pipe(res)
        if (held) waiting.add(rest)
        else rest()
      })
      .pipe(res, { end: false })
  })
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready))
  const { port } = server.address() as { port: number }
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    release() {
      held = false
      for (const rest of waiting) rest()
      waiting.clear()
    },
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections()
        server.close(() => done())
      })
  }
}

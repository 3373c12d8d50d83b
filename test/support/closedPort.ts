import { createServer } from 'node:net'

/** A port on 127.0.0.1 that nothing listens on: connecting is refused at once. */
export async function closedPort(): Promise<number> {
  const probe = createServer()
  await new Promise<void>((ready) => probe.listen(0, '127.0.0.1', ready))
  const { port } = probe.address() as { port: number }
  await new Promise<void>((done) => probe.close(() => done()))
  return port
}

import { spawn } from 'node:child_process'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { beforeAll, describe, expect, it } from 'vitest'
import { bundleStoreChild, childEnv } from '../support/bundleStoreChild'
import { useTempDir } from '../support/tempDir'

const tempDir = useTempDir()

/** A seeded PRNG, so a failing run can be repeated (mulberry32). */
function random(seed: number): () => number {
  let a = seed
  return () => {
    a = (a + 0x6d2b79f5) | 0
    let t = Math.imul(a ^ (a >>> 15), 1 | a)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/**
 * Runs the writer until it has acknowledged at least `minAcks` writes plus a random extra
 * delay, then SIGKILLs it mid-stream. Returns every number it acknowledged.
 */
function writeUntilKilled(
  child: string,
  path: string,
  start: number,
  minAcks: number,
  extraMs: number
): Promise<number[]> {
  return new Promise((resolve, reject) => {
    const writer = spawn(process.execPath, [child, 'write', path, String(start)], {
      env: childEnv,
      stdio: ['ignore', 'pipe', 'pipe']
    })
    const acked: number[] = []
    let buffered = ''
    let stderr = ''
    let killTimer: NodeJS.Timeout | null = null
    writer.stdout.on('data', (chunk: Buffer) => {
      buffered += chunk.toString()
      const lines = buffered.split('\n')
      buffered = lines.pop() ?? ''
      for (const line of lines) if (line.startsWith('ack ')) acked.push(Number(line.slice(4)))
      if (acked.length >= minAcks && !killTimer) {
        killTimer = setTimeout(() => writer.kill('SIGKILL'), extraMs)
      }
    })
    writer.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    writer.on('exit', (_code, signal) => {
      if (signal === 'SIGKILL') resolve(acked)
      else reject(new Error(`the writer stopped by itself: ${stderr}`))
    })
  })
}

describe('kill -9 durability', () => {
  let child = ''
  beforeAll(async () => {
    child = await bundleStoreChild()
  })

  it('keeps every acknowledged message, with an intact file, across repeated SIGKILLs', async () => {
    const path = join(tempDir(), 'store.sqlite')
    const next = random(11)
    const acknowledged: number[] = []
    let start = 0
    for (let round = 0; round < 5; round++) {
      const acked = await writeUntilKilled(
        child,
        path,
        start,
        5 + Math.floor(next() * 20),
        Math.floor(next() * 150)
      )
      acknowledged.push(...acked)
      // The next writer starts above anything the killed one may have written unacknowledged.
      start = (acked.at(-1) ?? start) + 1000

      const db = new Database(path)
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok')
      const stored = new Set(db.prepare('SELECT content FROM messages').pluck().all() as string[])
      db.close()
      const missing = acknowledged.filter((n) => !stored.has(`durable ${n}`))
      expect(missing).toEqual([])
    }
    expect(acknowledged.length).toBeGreaterThan(25)
  })
})

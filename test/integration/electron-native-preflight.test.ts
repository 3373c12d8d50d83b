/**
 * scripts/electron-native.mjs as `npm run dev` runs it, on a machine without a toolchain:
 * with no prebuilt binary it must say what to install before compiling anything; with a
 * prebuilt binary (served here as better-sqlite3's release would be) it needs no toolchain.
 */
import { copyFileSync, existsSync, mkdirSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { closedPort } from '../support/closedPort'
import { runProcess } from '../support/runProcess'
import { ROOT } from '../support/bootBuiltApp'
import { useTempDir } from '../support/tempDir'

const tempDir = useTempDir()
const SCRIPT = join(ROOT, 'scripts/electron-native.mjs')
const electronVersion = (
  JSON.parse(readFileSync(join(ROOT, 'node_modules/electron/package.json'), 'utf8')) as {
    version: string
  }
).version

let server: Server | null = null
afterEach(() => new Promise<void>((done) => (server ? server.close(() => done()) : done())))

/** Runs the script with no compiler, Python or make on PATH; better-sqlite3's host given. */
function run(host: string, cache: string) {
  return runProcess(process.execPath, [SCRIPT], {
    cwd: ROOT,
    env: {
      PATH: join(tempDir(), 'empty-bin'),
      HOME: tempDir(),
      CONTEXT_LENS_NATIVE_CACHE: cache,
      npm_config_better_sqlite3_binary_host: host
    }
  })
}

const bindingIn = (cache: string) =>
  join(
    cache,
    `${electronVersion}-${process.platform}-${process.arch}`,
    'node_modules/better-sqlite3/build/Release/better_sqlite3.node'
  )

describe('npm run dev on a machine without a toolchain', () => {
  it('says what to install, before compiling anything, when no prebuilt binary exists', async () => {
    const cache = tempDir()
    const started = Date.now()
    const result = await run(`http://127.0.0.1:${await closedPort()}`, cache)
    expect(result.status).toBe(1)
    expect(result.stderr).toMatch(
      new RegExp(
        `better-sqlite3 [\\d.]+ for Electron ${electronVersion.replace(/\./g, '\\.')} has to be compiled`
      )
    )
    if (process.platform === 'linux') {
      expect(result.stderr).toContain('needs: Python 3, a C++ compiler (g++ 13 or newer), make.')
      expect(result.stderr).toContain('sudo apt install python3 make g++')
    }
    expect(existsSync(bindingIn(cache))).toBe(false)
    expect(Date.now() - started).toBeLessThan(30_000)
  }, 60_000)

  it("takes better-sqlite3's prebuilt binary for Electron when its release has one", async () => {
    // A release asset as prebuild-install expects it: build/Release/better_sqlite3.node in a tar.gz.
    const staging = tempDir()
    mkdirSync(join(staging, 'build/Release'), { recursive: true })
    copyFileSync(
      join(ROOT, 'node_modules/better-sqlite3/build/Release/better_sqlite3.node'),
      join(staging, 'build/Release/better_sqlite3.node')
    )
    const tarball = join(tempDir(), 'asset.tar.gz')
    execFileSync('tar', ['czf', tarball, '-C', staging, 'build'])
    const asset = readFileSync(tarball)
    const requested: string[] = []
    server = createServer((req, res) => {
      requested.push(req.url ?? '')
      res.writeHead(200, { 'content-length': String(asset.length) }).end(asset)
    })
    await new Promise<void>((ready) => server?.listen(0, '127.0.0.1', ready))
    const { port } = server.address() as { port: number }
    const cache = tempDir()
    const result = await run(`http://127.0.0.1:${port}`, cache)
    expect(result.stderr).toBe('')
    expect(result.status).toBe(0)
    expect(result.stdout).toMatch(/Done \(prebuilt\)/)
    expect(requested[0]).toMatch(/better-sqlite3-v[\d.]+-electron-v\d+-/)
    expect(existsSync(bindingIn(cache))).toBe(true)
  }, 60_000)
})

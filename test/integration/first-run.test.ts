import { spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { createServer as createHttpServer } from 'node:http'
import { crc32 } from 'node:zlib'
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { closedPort } from '../support/closedPort'
import { runProcess } from '../support/runProcess'
import { useTempDir } from '../support/tempDir'

const root = resolve(import.meta.dirname, '../..')
const script = join(root, 'scripts/ensure-electron.mjs')
const electronDir = dirname(join(root, 'node_modules/electron/package.json'))
const { version } = JSON.parse(readFileSync(join(electronDir, 'package.json'), 'utf8')) as {
  version: string
}
const tempDir = useTempDir()

/** A copy of the electron package as npm installs it: no binary, no path.txt. */
function freshElectronPackage(): string {
  const dir = join(tempDir(), 'electron')
  mkdirSync(dir)
  for (const file of ['package.json', 'install.js', 'checksums.json', 'index.js', 'cli.js']) {
    copyFileSync(join(electronDir, file), join(dir, file))
  }
  return dir
}

function childEnv(dir: string, env: Record<string, string>): NodeJS.ProcessEnv {
  const clean = Object.fromEntries(
    Object.entries(process.env).filter(
      ([name]) =>
        !/^(ELECTRON_|electron_|npm_config_(platform|arch)$|(https?|no)_proxy$|(HTTPS?|NO)_PROXY$)/.test(
          name
        )
    )
  )
  return {
    ...clean,
    CONTEXT_LENS_ELECTRON_DIR: dir,
    // The copy resolves @electron/get and the zip extractor from the project's node_modules.
    NODE_PATH: join(root, 'node_modules'),
    // A private cache, so an archive downloaded earlier on this machine cannot hide the failure.
    electron_config_cache: join(dirname(dir), 'cache'),
    ...env
  }
}

function ensureElectron(dir: string, env: Record<string, string>) {
  return spawnSync(process.execPath, [script], {
    encoding: 'utf8',
    timeout: 60_000,
    env: childEnv(dir, env)
  })
}

/** As ensureElectron, while this process keeps serving the test's mirror. */
function ensureElectronAsync(dir: string, env: Record<string, string>) {
  return runProcess(process.execPath, [script], { env: childEnv(dir, env) })
}

/** A little-endian record: a 4-byte signature, then [offset, 2 or 4 bytes, value] fields. */
function record(size: number, signature: number, fields: [number, 2 | 4, number][]): Buffer {
  const buffer = Buffer.alloc(size)
  buffer.writeUInt32LE(signature, 0)
  for (const [at, bytes, value] of fields) {
    if (bytes === 2) buffer.writeUInt16LE(value, at)
    else buffer.writeUInt32LE(value, at)
  }
  return buffer
}

/** A zip archive of uncompressed ("stored") files, enough for Electron's extractor. */
function storedZip(files: Record<string, string>): Buffer {
  const locals: Buffer[] = []
  const centrals: Buffer[] = []
  let offset = 0
  for (const [name, text] of Object.entries(files)) {
    const data = Buffer.from(text)
    const fileName = Buffer.from(name)
    const crc = crc32(data)
    const local = record(30, 0x04034b50, [
      [4, 2, 20],
      [14, 4, crc],
      [18, 4, data.length],
      [22, 4, data.length],
      [26, 2, fileName.length]
    ])
    const central = record(46, 0x02014b50, [
      [4, 2, 20],
      [6, 2, 20],
      [16, 4, crc],
      [20, 4, data.length],
      [24, 4, data.length],
      [28, 2, fileName.length],
      [42, 4, offset]
    ])
    locals.push(local, fileName, data)
    centrals.push(central, fileName)
    offset += local.length + fileName.length + data.length
  }
  const directory = Buffer.concat(centrals)
  const count = Object.keys(files).length
  const end = record(22, 0x06054b50, [
    [8, 2, count],
    [10, 2, count],
    [12, 4, directory.length],
    [16, 4, offset]
  ])
  return Buffer.concat([...locals, directory, end])
}

function expectOneClearSentence(stderr: string) {
  const lines = stderr.trim().split('\n')
  expect(lines).toHaveLength(1)
  expect(lines[0]).toMatch(new RegExp(`^Could not download Electron ${version} \\(`))
  expect(lines[0]).toMatch(/ELECTRON_MIRROR/)
  expect(lines[0]).toMatch(/HTTPS_PROXY/)
  expect(lines[0]).toMatch(/then run it again\.$/)
  expect(stderr).not.toMatch(/\n\s+at /)
}

describe('npm run dev on a fresh clone (scripts/ensure-electron.mjs)', () => {
  it('runs before the native rebuild and electron-vite in dev and start', () => {
    const { scripts } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>
    }
    for (const name of ['dev', 'start']) {
      const steps = scripts[name]!.split('&&').map((step) => step.trim())
      expect(steps[0]).toBe('node scripts/ensure-electron.mjs')
      expect(steps.indexOf('node scripts/electron-native.mjs')).toBe(1)
      expect(steps[2]).toMatch(/^electron-vite /)
    }
  })

  it('without a reachable mirror, says what to do in one sentence and exits 1', async () => {
    const dir = freshElectronPackage()
    const port = await closedPort()
    const run = ensureElectron(dir, { ELECTRON_MIRROR: `http://127.0.0.1:${port}/` })
    expect(run.status).toBe(1)
    expect(run.stdout).toContain(`Downloading Electron ${version}`)
    expect(run.stdout).toContain(`http://127.0.0.1:${port}/`)
    expectOneClearSentence(run.stderr)
    expect(run.stderr).toContain('ECONNREFUSED')
    expect(existsSync(join(dir, 'path.txt'))).toBe(false)
  })

  it('goes through the proxy named in HTTPS_PROXY', async () => {
    const dir = freshElectronPackage()
    const port = await closedPort()
    // Electron's default host over a proxy that refuses: the refusal proves the proxy was used.
    const run = ensureElectron(dir, { HTTPS_PROXY: `http://127.0.0.1:${port}` })
    expect(run.status).toBe(1)
    expectOneClearSentence(run.stderr)
    expect(run.stderr).toContain('ECONNREFUSED')
  })

  it("downloads from ELECTRON_MIRROR with progress, then Electron's installer unpacks it", async () => {
    const dir = freshElectronPackage()
    const archive = `electron-v${version}-${process.platform}-${process.arch}.zip`
    const zip = storedZip({ electron: '#!/bin/sh\n', version })
    const sums = `${createHash('sha256').update(zip).digest('hex')} *${archive}\n`
    const requests: string[] = []
    const mirror = createHttpServer((request, response) => {
      requests.push(request.url!)
      if (request.url === `/v${version}/${archive}`) {
        response.writeHead(200, { 'content-length': zip.length }).end(zip)
      } else if (request.url === `/v${version}/SHASUMS256.txt`) {
        response.end(sums)
      } else response.writeHead(404).end()
    })
    await new Promise<void>((done) => mirror.listen(0, '127.0.0.1', done))
    const { port } = mirror.address() as { port: number }
    try {
      const run = await ensureElectronAsync(dir, {
        ELECTRON_MIRROR: `http://127.0.0.1:${port}/`,
        // The mirror's own SHASUMS256.txt, as for a custom build (Electron's pinned ones are
        // for the real archives).
        electron_use_remote_checksums: '1'
      })
      expect(run.stderr).toBe('')
      expect(run.status).toBe(0)
      expect(run.stdout).toContain('100%')
      expect(run.stdout).toContain(`Electron ${version} is ready.`)
      expect(readFileSync(join(dir, 'path.txt'), 'utf8')).toBe('electron')
      expect(readFileSync(join(dir, 'dist', 'version'), 'utf8')).toBe(version)
      // Downloaded once: Electron's install.js found the archive in @electron/get's cache.
      expect(requests.filter((url) => url.endsWith('.zip'))).toEqual([`/v${version}/${archive}`])
    } finally {
      mirror.close()
    }
  })

  it('does nothing, without the network, when the binary is already there', async () => {
    const dir = freshElectronPackage()
    mkdirSync(join(dir, 'dist'))
    writeFileSync(join(dir, 'dist', 'version'), version)
    writeFileSync(join(dir, 'dist', 'electron'), '')
    writeFileSync(join(dir, 'path.txt'), 'electron')
    const run = ensureElectron(dir, { ELECTRON_MIRROR: `http://127.0.0.1:${await closedPort()}/` })
    expect(run).toMatchObject({ status: 0, stdout: '', stderr: '' })
  })

  it('still downloads when the binary on disk is another version', async () => {
    const dir = freshElectronPackage()
    mkdirSync(join(dir, 'dist'))
    writeFileSync(join(dir, 'dist', 'version'), '44.0.0')
    writeFileSync(join(dir, 'dist', 'electron'), '')
    writeFileSync(join(dir, 'path.txt'), 'electron')
    const run = ensureElectron(dir, { ELECTRON_MIRROR: `http://127.0.0.1:${await closedPort()}/` })
    expect(run.status).toBe(1)
    expectOneClearSentence(run.stderr)
  })
})

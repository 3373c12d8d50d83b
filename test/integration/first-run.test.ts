import { spawnSync } from 'node:child_process'
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { dirname, join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
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

/** A port on 127.0.0.1 that nothing listens on: connecting is refused at once. */
async function closedPort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
  const { port } = server.address() as { port: number }
  await new Promise((done) => server.close(done))
  return port
}

function ensureElectron(dir: string, env: Record<string, string>) {
  const clean = Object.fromEntries(
    Object.entries(process.env).filter(
      ([name]) => !/^(ELECTRON_|electron_|https?_proxy$|HTTPS?_PROXY$)/.test(name)
    )
  )
  return spawnSync(process.execPath, [script], {
    encoding: 'utf8',
    timeout: 60_000,
    env: {
      ...clean,
      CONTEXT_LENS_ELECTRON_DIR: dir,
      // The copy resolves @electron/get and the zip extractor from the project's node_modules.
      NODE_PATH: join(root, 'node_modules'),
      // A private cache, so an archive downloaded earlier on this machine cannot hide the failure.
      electron_config_cache: join(dirname(dir), 'cache'),
      ...env
    }
  })
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

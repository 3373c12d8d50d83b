/**
 * Packages the built app with the real electron-builder and electron-builder.yml, offline: a
 * dummy Electron dist stands in for the binary we cannot download (`-c.electronDist`), and
 * better-sqlite3 is not rebuilt (`-c.npmRebuild=false`: that needs Electron's headers). What
 * is checked is what the package carries, which is what electron-builder decides from the
 * config: natives unpacked with their libraries, every worker bundle, nothing of another
 * platform, nothing never loaded. About 25 s on 2 cores.
 */
import { execFileSync, spawnSync } from 'node:child_process'
import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync
} from 'node:fs'
import { tmpdir } from 'node:os'
import { createRequire } from 'node:module'
import { join, relative } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ROOT } from '../support/bootBuiltApp'

// One package for all the checks below (useTempDir's folders go after each test).
const work = mkdtempSync(join(tmpdir(), 'context-lens-package-'))
afterAll(() => rmSync(work, { recursive: true, force: true }))
const require = createRequire(import.meta.url)
const { listPackage } = require('@electron/asar') as { listPackage: (path: string) => string[] }

const MAX_RESOURCES_BYTES = 300 * 1024 * 1024

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name))
}

let resources: string
let unpacked: string[]
let packed: Set<string>

beforeAll(() => {
  const electronDist = join(work, 'electron-dist')
  mkdirSync(electronDist)
  writeFileSync(join(electronDist, 'electron'), '#!/bin/sh\nexit 0\n')
  chmodSync(join(electronDist, 'electron'), 0o755)
  const electronVersion = (require('electron/package.json') as { version: string }).version
  writeFileSync(join(electronDist, 'version'), `v${electronVersion}`)
  const output = join(work, 'release')
  execFileSync(
    process.execPath,
    [
      require.resolve('electron-builder/cli.js'),
      '--linux',
      'dir',
      '--projectDir',
      ROOT,
      `-c.electronDist=${electronDist}`,
      '-c.npmRebuild=false',
      `-c.directories.output=${output}`
    ],
    {
      cwd: ROOT,
      // No network is needed; nothing of the test runner's environment is either.
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', CI: 'true' },
      stdio: ['ignore', 'ignore', 'pipe']
    }
  )
  resources = join(
    output,
    `linux-${process.arch === 'x64' ? '' : `${process.arch}-`}unpacked`,
    'resources'
  )
  unpacked = filesUnder(join(resources, 'app.asar.unpacked')).map((f) =>
    relative(join(resources, 'app.asar.unpacked'), f)
  )
  packed = new Set(listPackage(join(resources, 'app.asar')).map((p) => p.replace(/^[\\/]/, '')))
}, 240_000)

describe.runIf(process.platform === 'linux')('the Linux package', () => {
  it('is under 300 MB of resources', () => {
    const bytes = filesUnder(resources).reduce((sum, file) => sum + statSync(file).size, 0)
    console.info(`[packaging] resources/: ${(bytes / 1024 / 1024).toFixed(0)} MB`)
    expect(bytes).toBeLessThan(MAX_RESOURCES_BYTES)
  })

  it('unpacks every native module, and each finds its libraries', () => {
    const natives = unpacked.filter((f) => /\.node$|\.so(\.\d+)*$/.test(f))
    for (const expected of [
      /^node_modules\/better-sqlite3\/build\/Release\/better_sqlite3\.node$/,
      /^node_modules\/sqlite-vec-linux-x64\/vec0\.so$/,
      /^node_modules\/onnxruntime-node\/bin\/napi-v6\/linux\/x64\/onnxruntime_binding\.node$/,
      /^node_modules\/onnxruntime-node\/bin\/napi-v6\/linux\/x64\/libonnxruntime\.so\.1$/,
      /^node_modules\/@img\/sharp-linux-x64\/lib\/sharp-linux-x64-[\d.]+\.node$/,
      /^node_modules\/@img\/sharp-libvips-linux-x64\/lib\/libvips-cpp\.so\.[\d.]+$/
    ]) {
      expect(
        natives.filter((f) => expected.test(f)),
        String(expected)
      ).toHaveLength(1)
    }
    // sharp's JS must sit beside its binding, or its loader looks in app.asar and fails.
    const sharp = JSON.parse(readFileSync(join(ROOT, 'node_modules/sharp/package.json'), 'utf8'))
    expect(unpacked).toContain(join('node_modules/sharp', (sharp as { main: string }).main))
    const missing = natives.flatMap((file) => {
      const ldd = spawnSync('ldd', [join(resources, 'app.asar.unpacked', file)], {
        encoding: 'utf8'
      })
      if (ldd.status !== 0) return [`${file}: ldd failed (${ldd.status}): ${ldd.stderr}`]
      return ldd.stdout
        .split('\n')
        .filter((line) => line.includes('not found'))
        .map((line) => `${file}: ${line.trim()}`)
    })
    expect(missing).toEqual([])
  })

  it('carries every worker bundle the main bundle starts, and the chunks they load', () => {
    const main = readFileSync(join(ROOT, 'out/main/startApp.js'), 'utf8')
    const workers = [...new Set([...main.matchAll(/"(\w+Worker)\.js"/g)].map((m) => m[1]))]
    expect(workers.length).toBeGreaterThanOrEqual(7)
    const bundles = ['index', 'startApp', ...workers].map((name) => `out/main/${name}.js`)
    for (const bundle of bundles) {
      expect(packed.has(bundle), bundle).toBe(true)
      const code = readFileSync(join(ROOT, bundle), 'utf8')
      for (const [, chunk] of code.matchAll(/require\("\.\/(chunks\/[^"]+)"\)/g)) {
        expect(packed.has(`out/main/${chunk}`), `${bundle} loads ${chunk}`).toBe(true)
      }
    }
    expect(packed.has('out/preload/index.js')).toBe(true)
    expect(packed.has('out/renderer/index.html')).toBe(true)
  })

  it("carries no other platform's binaries, no onnxruntime-web, no native sources", () => {
    const everything = [...packed, ...unpacked]
    expect(everything.filter((f) => /\.(dll|dylib|exe)$/.test(f))).toEqual([])
    expect(
      everything.filter((f) => /onnxruntime-node\/bin\/napi-v6\/(darwin|win32)\//.test(f))
    ).toEqual([])
    const otherArch = process.arch === 'x64' ? 'arm64' : 'x64'
    expect(everything.filter((f) => f.includes(`napi-v6/linux/${otherArch}/`))).toEqual([])
    expect(everything.filter((f) => f.startsWith('node_modules/onnxruntime-web/'))).toEqual([])
    expect(
      everything.filter((f) =>
        /^node_modules\/(better-sqlite3\/(src|deps|build\/deps|build\/Release\/obj)|sharp\/src)\//.test(
          f
        )
      )
    ).toEqual([])
    expect(everything.filter((f) => /\.(map|ts|tsx)$/.test(f) && !f.endsWith('.d.ts'))).toEqual([])
  })
})

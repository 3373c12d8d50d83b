// Puts better-sqlite3 for Electron's ABI into .cache/electron-native, leaving the copy in
// node_modules (built for Node, which the tests use) untouched. In development the main
// process loads this copy through better-sqlite3's `nativeBinding` option; packaged apps are
// rebuilt by electron-builder instead. It takes better-sqlite3's prebuilt binary when its
// release has one for this Electron, else compiles, after checking that Python and a C++
// toolchain are there (electron-build-tools.mjs says what to install if not). Needs the
// network (a prebuilt binary or Electron's headers), so it runs from `npm run dev`, never
// from `npm install`.
import { spawnSync } from 'node:child_process'
import { cpSync, existsSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { rebuild } from '@electron/rebuild'
import {
  installAdvice,
  missingBuildTools,
  oldCompilerNote,
  systemProbe
} from './electron-build-tools.mjs'

const require = createRequire(import.meta.url)
const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const electronVersion = require('electron/package.json').version
const { version } = require('better-sqlite3/package.json')
// A test points this elsewhere, so it never touches the real cache.
const cacheRoot = process.env.CONTEXT_LENS_NATIVE_CACHE ?? join(root, '.cache', 'electron-native')
const target = join(cacheRoot, `${electronVersion}-${process.platform}-${process.arch}`)
const binding = join(
  target,
  'node_modules',
  'better-sqlite3',
  'build',
  'Release',
  'better_sqlite3.node'
)

if (existsSync(binding)) process.exit(0)

console.log(`Building better-sqlite3 ${version} for Electron ${electronVersion} (once)…`)
const source = dirname(require.resolve('better-sqlite3/package.json'))
cpSync(source, join(target, 'node_modules', 'better-sqlite3'), {
  recursive: true,
  filter: (path) => !path.startsWith(join(source, 'build'))
})
writeFileSync(
  join(target, 'package.json'),
  JSON.stringify({
    name: 'electron-native',
    private: true,
    dependencies: { 'better-sqlite3': version }
  })
)
const moduleDir = join(target, 'node_modules', 'better-sqlite3')
if (prebuilt(moduleDir)) {
  console.log(`Done (prebuilt): ${binding}`)
  process.exit(0)
}
// No prebuilt binary: compiling needs a toolchain. Say what is missing before starting.
const probe = systemProbe()
const missing = process.env.CONTEXT_LENS_SKIP_TOOLCHAIN_CHECK
  ? []
  : missingBuildTools(process.platform, probe)
if (missing.length > 0) {
  console.error(
    installAdvice(
      process.platform,
      missing,
      `better-sqlite3 ${version} for Electron ${electronVersion}`
    )
  )
  process.exit(1)
}
const note = oldCompilerNote(process.platform, probe)
if (note) console.warn(note)
try {
  await rebuild({
    buildPath: target,
    electronVersion,
    arch: process.arch,
    onlyModules: ['better-sqlite3'],
    force: true
  })
} catch (error) {
  console.error(
    `Could not build better-sqlite3 for Electron ${electronVersion}: ${error instanceof Error ? error.message : error}\n` +
      'This step downloads Electron headers or a prebuilt binary; check your network and run `npm run dev` again.'
  )
  process.exit(1)
}
console.log(`Done: ${binding}`)

/**
 * better-sqlite3's own prebuilt binary for this Electron, if its release has one: the same
 * download its install script makes (prebuild-install, proxy settings honoured), one minute at
 * most. Offline or without a matching binary it fails quietly and the compile path follows.
 */
function prebuilt(dir) {
  const prebuildInstall = createRequire(join(source, 'package.json')).resolve(
    'prebuild-install/bin.js'
  )
  const result = spawnSync(
    process.execPath,
    [prebuildInstall, '--runtime', 'electron', '--target', electronVersion, '--arch', process.arch],
    { cwd: dir, stdio: 'ignore', timeout: 60_000 }
  )
  return result.status === 0 && existsSync(binding)
}

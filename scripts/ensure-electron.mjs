// Makes sure the Electron binary is on disk before `npm run dev` / `npm start` hand over to
// electron-vite. Electron 42+ has no postinstall (it downloads its binary the first time its
// own installer runs), while electron-vite 6 only reads node_modules/electron/path.txt and
// otherwise throws "Electron uninstall" (electron-vite issue #904). So this runs first.
//
// It downloads through Electron's own @electron/get (honouring ELECTRON_MIRROR,
// electron_config_cache and, for proxies, HTTPS_PROXY/HTTP_PROXY/NO_PROXY) and prints the
// progress, then runs Electron's install.js, which finds the archive in @electron/get's cache,
// checks it, unpacks it and writes path.txt exactly as Electron does. When the download is
// impossible the user gets one sentence saying what to do and exit code 1, not a stack trace.
import { spawnSync } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { pathToFileURL } from 'node:url'

const require = createRequire(import.meta.url)
// A test points this at a copy of the package so it can exercise a missing binary.
const electronDir =
  process.env.CONTEXT_LENS_ELECTRON_DIR ?? dirname(require.resolve('electron/package.json'))
const { version } = JSON.parse(readFileSync(join(electronDir, 'package.json'), 'utf8'))

if (process.env.ELECTRON_EXEC_PATH || installed()) process.exit(0)

// @electron/get only routes through a proxy when asked to; a user behind one has it set.
const proxy = ['HTTPS_PROXY', 'https_proxy', 'HTTP_PROXY', 'http_proxy'].some(
  (name) => process.env[name]
)
if (proxy) process.env.ELECTRON_GET_USE_PROXY ??= '1'

const from =
  process.env.ELECTRON_MIRROR ??
  process.env.npm_config_electron_mirror ??
  'github.com/electron/electron/releases'
console.log(
  `Downloading Electron ${version} for ${process.platform}-${process.arch} (once) from ${from}…`
)

try {
  await download()
} catch (error) {
  giveUp(describe(error))
}

const install = spawnSync(process.execPath, [join(electronDir, 'install.js')], {
  stdio: ['ignore', 'inherit', 'pipe'],
  env: process.env,
  encoding: 'utf8'
})
if (install.status !== 0 || !installed()) {
  // install.js prints a stack trace; its first line is the reason.
  giveUp(install.stderr?.trim().split('\n')[0] || `installer exited with ${install.status}`)
}
console.log(`Electron ${version} is ready.`)

/** The same test Electron's install.js makes: the right version, and the file path.txt names. */
function installed() {
  try {
    const executable = readFileSync(join(electronDir, 'path.txt'), 'utf8')
    const distVersion = readFileSync(join(electronDir, 'dist', 'version'), 'utf8')
    return (
      distVersion.trim().replace(/^v/, '') === version &&
      existsSync(join(electronDir, 'dist', executable))
    )
  } catch {
    return false
  }
}

/** Fills @electron/get's cache with the artifact install.js asks for, showing progress. */
async function download() {
  const electronRequire = createRequire(join(electronDir, 'package.json'))
  const { downloadArtifact } = await import(
    pathToFileURL(electronRequire.resolve('@electron/get')).href
  )
  let shown = -1
  await downloadArtifact({
    version,
    artifactName: 'electron',
    platform:
      process.env.ELECTRON_INSTALL_PLATFORM || process.env.npm_config_platform || process.platform,
    arch: process.env.ELECTRON_INSTALL_ARCH || process.env.npm_config_arch || process.arch,
    cacheRoot: process.env.electron_config_cache,
    force: process.env.force_no_cache === 'true',
    // As install.js: the pinned checksums, unless the user asked for the mirror's own.
    checksums:
      process.env.electron_use_remote_checksums ||
      process.env.npm_config_electron_use_remote_checksums
        ? undefined
        : JSON.parse(readFileSync(join(electronDir, 'checksums.json'), 'utf8')),
    downloadOptions: {
      quiet: true,
      getProgressCallback: ({ percent, transferred }) => {
        const step = Math.floor(percent * 100)
        if (process.stdout.isTTY) {
          process.stdout.write(`\r  ${step}% (${(transferred / 1e6).toFixed(1)} MB)`)
          if (percent >= 1) process.stdout.write('\n')
        } else if (step >= shown + 10 || (percent >= 1 && step !== shown)) {
          console.log(`  ${step}%`)
          shown = step
        }
      }
    }
  })
}

function describe(error) {
  const cause = error?.cause
  const detail = cause?.code ?? cause?.message
  const message = error instanceof Error ? error.message : String(error)
  return detail && !message.includes(detail) ? `${message}: ${detail}` : message
}

function giveUp(reason) {
  const event = process.env.npm_lifecycle_event
  const command = !event ? 'the app' : event === 'start' ? '`npm start`' : `\`npm run ${event}\``
  console.error(
    `Could not download Electron ${version} (${reason}); ${command} needs it once: ` +
      'connect to the internet, or set ELECTRON_MIRROR to a reachable mirror ' +
      '(for example https://npmmirror.com/mirrors/electron/), or set HTTPS_PROXY if you use a proxy, ' +
      'then run it again.'
  )
  process.exit(1)
}

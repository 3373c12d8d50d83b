// What compiling better-sqlite3 for Electron needs, checked before compiling starts, so that
// `npm run dev` on a machine without a toolchain says what to install instead of failing
// half-way through node-gyp. better-sqlite3 12 has no prebuilt binary for Electron 45;
// version 13 (Node-API, prebuilt for every runtime) needs Node 22+, and our CI runs Node 20
// (docs/RELEASE.md, "Known limits").
import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { join } from 'node:path'

/** Runs a command quietly; true when it exits with 0. */
function succeeds(command, args) {
  const result = spawnSync(command, args, { stdio: 'ignore', timeout: 10_000 })
  return result.status === 0
}

function firstLine(command, args) {
  const result = spawnSync(command, args, { encoding: 'utf8', timeout: 10_000 })
  return result.status === 0 ? (result.stdout.split('\n')[0] ?? '') : null
}

/** The probes each platform needs, as `run(command, args) => boolean` over the real system. */
export function systemProbe(env = process.env) {
  return {
    run: succeeds,
    firstLine,
    exists: existsSync,
    env
  }
}

function hasPython(probe) {
  if (probe.env.PYTHON || probe.env.npm_config_python) return true
  return ['python3', 'python'].some((p) => probe.run(p, ['--version']))
}

function hasCxx(probe) {
  if (probe.env.CXX) return true
  return ['c++', 'g++', 'clang++'].some((c) => probe.run(c, ['--version']))
}

function hasVisualCpp(probe) {
  const programs = probe.env['ProgramFiles(x86)'] ?? 'C:\\Program Files (x86)'
  const vswhere = join(programs, 'Microsoft Visual Studio', 'Installer', 'vswhere.exe')
  if (!probe.exists(vswhere)) return false
  const found = probe.firstLine(vswhere, [
    '-latest',
    '-products',
    '*',
    '-requires',
    'Microsoft.VisualStudio.Component.VC.Tools.x86.x64',
    '-property',
    'installationPath'
  ])
  return Boolean(found && found.trim())
}

/** The tools missing on this platform, by name. */
export function missingBuildTools(platform, probe) {
  const missing = []
  if (!hasPython(probe)) missing.push('Python 3')
  if (platform === 'win32') {
    if (!hasVisualCpp(probe)) missing.push('Visual Studio Build Tools (C++)')
  } else if (platform === 'darwin') {
    if (!probe.run('xcode-select', ['-p']) || !hasCxx(probe)) {
      missing.push('Xcode Command Line Tools')
    }
  } else {
    if (!hasCxx(probe)) missing.push('a C++ compiler (g++ 13 or newer)')
    if (!probe.run('make', ['--version'])) missing.push('make')
  }
  return missing
}

/** GCC older than 13 may fail on Electron 45's V8 headers: said before compiling, not fatal. */
export function oldCompilerNote(platform, probe) {
  if (platform !== 'linux' || probe.env.CXX) return null
  const version = probe.firstLine('g++', ['-dumpversion'])
  const major = Number(version?.split('.')[0])
  return major && major < 13
    ? `g++ ${version.trim()} found; Electron's V8 headers may need g++ 13 or newer. If the build fails, install a newer g++ (or set CXX to clang++).`
    : null
}

const INSTALL = {
  linux: [
    'Debian/Ubuntu: sudo apt install python3 make g++   (Ubuntu 24.04 and Debian 13 ship g++ 13+)',
    'Fedora:        sudo dnf install python3 make gcc-c++',
    'Arch:          sudo pacman -S python make gcc'
  ],
  darwin: ['xcode-select --install   (the Xcode Command Line Tools: clang, make and Python 3)'],
  win32: [
    'winget install Python.Python.3.12',
    'winget install Microsoft.VisualStudio.2022.BuildTools --override "--add Microsoft.VisualStudio.Workload.VCTools --includeRecommended --passive"',
    '(or the Visual Studio Installer: "Desktop development with C++")'
  ]
}

/** The message `npm run dev` prints instead of compiling. */
export function installAdvice(platform, missing, what) {
  const lines = INSTALL[platform] ?? INSTALL.linux
  return [
    `${what} has to be compiled on this machine (no prebuilt binary could be downloaded), and this needs: ${missing.join(', ')}.`,
    'Install it, then run the command again:',
    ...lines.map((line) => `  ${line}`)
  ].join('\n')
}

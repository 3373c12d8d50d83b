import { describe, expect, it } from 'vitest'
import {
  installAdvice,
  missingBuildTools,
  oldCompilerNote
} from '../../../scripts/electron-build-tools.mjs'

/** A machine with exactly these commands (answering --version) and files. */
function machine(commands: string[], env: Record<string, string> = {}, files: string[] = []) {
  return {
    run: (command: string) => commands.includes(command),
    firstLine: (command: string) => (commands.includes(command) ? '12.2.0\n' : null),
    exists: (path: string) => files.includes(path),
    env
  }
}

describe('missingBuildTools', () => {
  it('Linux needs Python, a C++ compiler and make', () => {
    expect(missingBuildTools('linux', machine([]))).toEqual([
      'Python 3',
      'a C++ compiler (g++ 13 or newer)',
      'make'
    ])
    expect(missingBuildTools('linux', machine(['python3', 'g++', 'make']))).toEqual([])
    expect(
      missingBuildTools('linux', machine(['make'], { PYTHON: '/x/python', CXX: 'clang++-18' }))
    ).toEqual([])
  })

  it('macOS needs the Xcode Command Line Tools', () => {
    expect(missingBuildTools('darwin', machine(['python3', 'clang++']))).toEqual([
      'Xcode Command Line Tools'
    ])
    expect(missingBuildTools('darwin', machine(['python3', 'clang++', 'xcode-select']))).toEqual([])
  })

  it('Windows needs Visual Studio Build Tools with the C++ workload, found by vswhere', () => {
    const vswhere = 'C:\\Program Files (x86)/Microsoft Visual Studio/Installer/vswhere.exe'
    expect(missingBuildTools('win32', machine(['python']))).toEqual([
      'Visual Studio Build Tools (C++)'
    ])
    const withTools = machine(
      ['python', vswhere],
      { 'ProgramFiles(x86)': 'C:\\Program Files (x86)' },
      [vswhere]
    )
    expect(missingBuildTools('win32', withTools)).toEqual([])
  })
})

describe('what npm run dev says', () => {
  it('names what is missing and how to install it on this OS', () => {
    const advice = installAdvice(
      'win32',
      ['Python 3'],
      'better-sqlite3 12.11.1 for Electron 45.4.1'
    )
    expect(advice).toMatch(
      /^better-sqlite3 12\.11\.1 for Electron 45\.4\.1 has to be compiled .* needs: Python 3\./
    )
    expect(advice).toContain('winget install Python.Python.3.12')
    expect(installAdvice('darwin', ['Xcode Command Line Tools'], 'x')).toContain(
      'xcode-select --install'
    )
    expect(installAdvice('linux', ['make'], 'x')).toContain('sudo apt install python3 make g++')
  })

  it('warns about g++ older than 13 on Linux', () => {
    expect(oldCompilerNote('linux', machine(['g++']))).toMatch(
      /^g\+\+ 12\.2\.0 found; .* g\+\+ 13 or newer/
    )
    expect(oldCompilerNote('linux', machine(['g++'], { CXX: 'clang++' }))).toBeNull()
    expect(oldCompilerNote('darwin', machine(['g++']))).toBeNull()
  })
})

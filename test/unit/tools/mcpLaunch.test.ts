import { EventEmitter } from 'node:events'
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { afterEach, describe, expect, it, vi } from 'vitest'
import {
  childEnvironment,
  IsolatedStdioTransport,
  resolveCommand
} from '../../../src/main/services/tools/stdioTransport'
import { useTempDir } from '../../support/tempDir'

const spawned = vi.hoisted(
  () => [] as { program: string; args: string[]; options: { env: Record<string, string> } }[]
)
vi.mock('cross-spawn', () => ({
  spawn: (program: string, args: string[], options: { env: Record<string, string> }) => {
    spawned.push({ program, args, options })
    const child = Object.assign(new EventEmitter(), {
      stdin: new EventEmitter(),
      stdout: new EventEmitter(),
      stderr: new EventEmitter(),
      pid: 1
    })
    setImmediate(() => child.emit('spawn'))
    return child
  }
}))

const tempDir = useTempDir()

function executable(dir: string, name: string): string {
  mkdirSync(dir, { recursive: true })
  const path = join(dir, name)
  writeFileSync(path, '#!/bin/sh\nexit 0\n')
  chmodSync(path, 0o755)
  return path
}

afterEach(() => {
  spawned.length = 0
  delete process.env.CONTEXT_LENS_TEST_SECRET
})

describe('childEnvironment', () => {
  const base = { HOME: '/home/u', PATH: '/usr/bin:/bin', USER: 'u', TERM: 'xterm' }

  it("is the SDK's allow-list, PATH from the login shell, the user's variables on top", () => {
    expect(childEnvironment({ API_TOKEN: 't' }, '/opt/homebrew/bin:/usr/bin', base)).toEqual({
      HOME: '/home/u',
      PATH: '/opt/homebrew/bin:/usr/bin',
      USER: 'u',
      TERM: 'xterm',
      API_TOKEN: 't'
    })
    // The user's own PATH wins; without a login shell PATH the app's allowed one is kept.
    expect(childEnvironment({ PATH: '/mine' }, '/login', base).PATH).toBe('/mine')
    expect(childEnvironment({}, null, base).PATH).toBe('/usr/bin:/bin')
  })

  it("never carries the rest of the app's environment", () => {
    process.env.CONTEXT_LENS_TEST_SECRET = 'sk-app-only'
    const env = childEnvironment({ GIVEN: '1' }, null)
    expect(Object.values(env)).not.toContain('sk-app-only')
    expect(
      Object.keys(env).every((k) =>
        ['HOME', 'LOGNAME', 'PATH', 'SHELL', 'TERM', 'USER', 'GIVEN'].includes(k)
      )
    ).toBe(true)
  })
})

describe('resolveCommand', () => {
  it("finds a command on the login shell's PATH that the app's PATH lacks", () => {
    const brew = join(tempDir(), 'homebrew/bin')
    const server = executable(brew, 'context-lens-test-server')
    const env = childEnvironment({}, `${brew}:/usr/bin`, {})
    expect(resolveCommand('context-lens-test-server', '/', env, '/usr/bin:/bin')).toBe(server)
    expect(() => resolveCommand('context-lens-test-server', '/', {}, '/usr/bin:/bin')).toThrow(
      /"context-lens-test-server" was not found on the PATH of your login shell or the app's PATH/
    )
  })

  it('on Windows, finds npx.cmd on a semicolon-separated PATH', () => {
    const nodeDir = join(tempDir(), 'nodejs')
    const cmd = executable(nodeDir, 'npx.cmd')
    expect(resolveCommand('npx', '/', { PATH: `C:\\Windows;${nodeDir}` }, undefined, 'win32')).toBe(
      cmd
    )
  })
})

describe('IsolatedStdioTransport', () => {
  it("waits for the login shell's PATH, finds the command there and starts it with that environment", async () => {
    const bin = join(tempDir(), 'bin')
    const npx = executable(bin, 'npx')
    const transport = new IsolatedStdioTransport(
      { command: 'npx', args: ['-y', 'server@1'], env: { TOKEN: 'x' }, cwd: null },
      Promise.resolve(bin)
    )
    await transport.start()
    expect(spawned).toHaveLength(1)
    expect(spawned[0]?.program).toBe(npx)
    expect(spawned[0]?.args).toEqual(['-y', 'server@1'])
    expect(spawned[0]?.options.env).toMatchObject({ PATH: bin, TOKEN: 'x' })
    expect(spawned[0]?.options.env.HOME).toBe(process.env.HOME)
  })

  it('on Windows cross-spawn runs a .cmd shim through cmd.exe (Node refuses to spawn it)', () => {
    const platform = Object.getOwnPropertyDescriptor(process, 'platform')
    Object.defineProperty(process, 'platform', { value: 'win32' })
    try {
      const require = createRequire(import.meta.url)
      const parsePath = require.resolve('cross-spawn/lib/parse.js')
      // cross-spawn reads the platform when it loads: a fresh copy, as on Windows.
      for (const key of Object.keys(require.cache))
        if (key.includes('cross-spawn')) delete require.cache[key]
      const parse = require(parsePath) as (
        command: string,
        args: string[],
        options: object
      ) => { command: string; args: string[]; options: { windowsVerbatimArguments?: boolean } }
      const cmd = executable(join(tempDir(), 'nodejs'), 'npx.cmd')
      const plan = parse(cmd, ['-y', '@modelcontextprotocol/server-everything'], {})
      expect(plan.command).toMatch(/cmd\.exe$/i)
      expect(plan.args.slice(0, 3)).toEqual(['/d', '/s', '/c'])
      expect(plan.args[3]).toContain('npx.cmd')
      expect(plan.options.windowsVerbatimArguments).toBe(true)
    } finally {
      if (platform) Object.defineProperty(process, 'platform', platform)
    }
  })
})

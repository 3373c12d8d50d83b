/**
 * Starts the BUILT main bundle (out/main/index.js) in a child Node process with the fake
 * `electron` module hooked into its module loader (fakeElectron/), and follows what the app
 * does through the reports the fake sends: windows, IPC handlers, dialogs, exit.
 */
import { fork, type ChildProcess } from 'node:child_process'
import { join } from 'node:path'

export const ROOT = join(import.meta.dirname, '../..')
const HOOK = join(import.meta.dirname, 'fakeElectron/hook.cjs')
export const BUILT_MAIN = join(ROOT, 'out/main/index.js')

interface Report {
  type: string
  [key: string]: unknown
}

export interface BootedApp {
  child: ChildProcess
  reports: Report[]
  stderr: () => string
  /** Resolves with the first report (old or new) that matches; rejects after `timeoutMs`. */
  waitFor(match: (report: Report) => boolean, timeoutMs?: number): Promise<Report>
  invoke(channel: string, input?: unknown, senderUrl?: string): Promise<unknown>
  permission(permission: string, url: string): Promise<boolean>
  exited: Promise<number | null>
  quit(): Promise<number | null>
}

/**
 * PATH and HOME, and how this test run loads native code: under `npm run test:node22`
 * NODE_OPTIONS preloads the better-sqlite3 build for Node 22 (scripts/node22/preloadAddon.cjs).
 */
function runtimeEnvironment(): Record<string, string> {
  const keep = ['PATH', 'HOME', 'NODE_OPTIONS', 'CONTEXT_LENS_SQLITE_ADDON']
  return Object.fromEntries(
    keep.flatMap((key) =>
      process.env[key] === undefined ? [] : [[key, process.env[key] as string]]
    )
  )
}

export function bootBuiltApp(env: Record<string, string>): BootedApp {
  // Only what the app needs: no test runner variables, nothing of this process's secrets.
  const child = fork(BUILT_MAIN, [], {
    cwd: ROOT,
    execArgv: ['--require', HOOK],
    env: { ...runtimeEnvironment(), ...env },
    stdio: ['ignore', 'pipe', 'pipe', 'ipc']
  })
  const reports: Report[] = []
  const waiters = new Set<() => void>()
  let stderr = ''
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  child.stdout?.resume()
  child.on('message', (report: Report) => {
    reports.push(report)
    for (const wake of waiters) wake()
  })
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => resolve(code))
  )
  let nextId = 1

  const waitFor = (match: (report: Report) => boolean, timeoutMs = 20_000) =>
    new Promise<Report>((resolve, reject) => {
      const check = () => {
        const found = reports.find(match)
        if (!found) return
        cleanup()
        resolve(found)
      }
      const timer = setTimeout(() => {
        cleanup()
        reject(new Error(`no matching report in ${timeoutMs} ms; stderr:\n${stderr.slice(-3000)}`))
      }, timeoutMs)
      const cleanup = () => {
        clearTimeout(timer)
        waiters.delete(check)
      }
      waiters.add(check)
      check()
    })

  const ask = async (message: Record<string, unknown>): Promise<unknown> => {
    const id = nextId++
    child.send({ ...message, id })
    const reply = await waitFor((r) => r.type === 'reply' && r.id === id)
    return reply.result
  }

  return {
    child,
    reports,
    stderr: () => stderr,
    waitFor,
    invoke: (channel, input, senderUrl) => ask({ type: 'invoke', channel, input, senderUrl }),
    permission: async (permission, url) =>
      (await ask({ type: 'permission', permission, url })) as boolean,
    exited,
    quit: async () => {
      if (child.exitCode === null) child.send({ type: 'quit' })
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000)
      const code = await exited
      clearTimeout(timer)
      return code
    }
  }
}

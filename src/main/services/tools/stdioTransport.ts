/**
 * The MCP stdio transport, differing from the SDK's in what the child inherits and where its
 * command is found. The child gets the SDK's own allow-list of the app's environment
 * (getDefaultEnvironment: HOME, LOGNAME, PATH, SHELL, TERM, USER; on Windows APPDATA, PATH,
 * SYSTEMROOT, TEMP...), with PATH taken from the user's login shell (loginShellPath.ts), and
 * the user's variables over it: never the rest of the app's environment, which can carry
 * tokens the user never meant to share. An empty environment made `npx` servers fail (no
 * HOME for npm's cache, no PATH for node). The command is looked up here, on that PATH, and
 * started with cross-spawn, as the SDK does: on Windows it runs `.cmd`/`.bat` shims such as
 * `npx.cmd` through cmd.exe, which Node refuses to spawn directly (EINVAL since CVE-2024-27980).
 */
import type { ChildProcess } from 'node:child_process'
import { accessSync, constants, statSync } from 'node:fs'
import { homedir } from 'node:os'
import { delimiter, isAbsolute, join, resolve } from 'node:path'
import { getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js'
import { ReadBuffer, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js'
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js'
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js'
import { spawn } from 'cross-spawn'

export interface StdioLaunch {
  command: string
  args: string[]
  env: Record<string, string>
  cwd: string | null
}

function isExecutableFile(path: string): boolean {
  try {
    if (!statSync(path).isFile()) return false
    if (process.platform !== 'win32') accessSync(path, constants.X_OK)
    return true
  } catch {
    return false
  }
}

/**
 * What the child runs with: the SDK's allow-list, PATH from the login shell when it was read,
 * and the user's variables last, so the user can override any of them.
 */
export function childEnvironment(
  userEnv: Record<string, string>,
  loginPath: string | null,
  base: Record<string, string> = getDefaultEnvironment()
): Record<string, string> {
  return { ...base, ...(loginPath && { PATH: loginPath }), ...userEnv }
}

/**
 * The absolute path of the program to start. A command with a slash is a path (relative ones
 * from the working folder); a bare name is looked up on the child's PATH, else on the app's
 * own PATH (only to find the program: that PATH is not passed on).
 */
export function resolveCommand(
  command: string,
  cwd: string,
  env: Record<string, string>,
  appPath: string | undefined = process.env.PATH,
  platform: NodeJS.Platform = process.platform
): string {
  if (command.includes('/') || command.includes('\\')) {
    const path = isAbsolute(command) ? command : resolve(cwd, command)
    if (isExecutableFile(path)) return path
    throw new Error(`"${command}" is not an executable file (looked at ${path}).`)
  }
  const extensions = platform === 'win32' ? ['.exe', '.cmd', '.bat', '.com', ''] : ['']
  const separator = platform === 'win32' ? ';' : delimiter
  for (const searchPath of [env.PATH ?? env.Path, appPath]) {
    for (const dir of (searchPath ?? '').split(separator)) {
      if (!dir) continue
      for (const ext of extensions) {
        const candidate = join(dir, command + ext)
        if (isExecutableFile(candidate)) return candidate
      }
    }
  }
  throw new Error(
    `"${command}" was not found on the PATH of your login shell or the app's PATH. Give its full path, or set PATH in the server's environment.`
  )
}

export class IsolatedStdioTransport implements Transport {
  private child: ChildProcess | undefined
  private readonly buffer = new ReadBuffer()
  private stderrTail = ''
  onclose?: () => void
  onerror?: (error: Error) => void
  onmessage?: (message: JSONRPCMessage) => void

  /** `loginPath`: the login shell's PATH, read once at start-up (null: not available). */
  constructor(
    private readonly launch: StdioLaunch,
    private readonly loginPath: Promise<string | null> = Promise.resolve(null)
  ) {}

  get pid(): number | null {
    return this.child?.pid ?? null
  }

  /** The last lines the server wrote to stderr, for the error the user sees. */
  get stderr(): string {
    return this.stderrTail.trim()
  }

  async start(): Promise<void> {
    const cwd = this.launch.cwd ?? homedir()
    const env = childEnvironment(this.launch.env, await this.loginPath)
    const program = resolveCommand(this.launch.command, cwd, env)
    return new Promise((started, failed) => {
      const child = spawn(program, this.launch.args, {
        env,
        cwd,
        stdio: ['pipe', 'pipe', 'pipe'],
        shell: false,
        windowsHide: true
      })
      this.child = child
      child.on('error', (error) => {
        failed(error)
        this.onerror?.(error)
      })
      child.on('spawn', () => started())
      child.on('close', () => {
        this.child = undefined
        this.onclose?.()
      })
      child.stdin?.on('error', (error) => this.onerror?.(error))
      child.stdout?.on('data', (chunk: Buffer) => {
        this.buffer.append(chunk)
        for (;;) {
          let message: JSONRPCMessage | null
          try {
            message = this.buffer.readMessage()
          } catch (error) {
            this.onerror?.(error as Error)
            continue
          }
          if (message === null) break
          this.onmessage?.(message)
        }
      })
      child.stderr?.on('data', (chunk: Buffer) => {
        this.stderrTail = (this.stderrTail + chunk.toString('utf8')).slice(-2000)
      })
    })
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((done) => {
      const stdin = this.child?.stdin
      if (!stdin) throw new Error('The server is not running.')
      if (stdin.write(serializeMessage(message))) done()
      else stdin.once('drain', done)
    })
  }

  /** SIGTERM, then SIGKILL if the server has not exited after two seconds. */
  async close(): Promise<void> {
    const child = this.child
    if (!child) return
    const exited = new Promise<void>((done) => child.once('close', () => done()))
    child.stdin?.end()
    child.kill('SIGTERM')
    const timer = setTimeout(() => child.kill('SIGKILL'), 2000)
    await exited
    clearTimeout(timer)
    this.buffer.clear()
  }

  /** Synchronous last resort at quit: the process must not outlive the app. */
  killNow(): void {
    this.child?.kill('SIGKILL')
  }
}

/**
 * The MCP stdio transport with one difference from the SDK's: the child gets exactly the
 * environment the user gave and nothing of the app's (the SDK's transport always adds HOME,
 * PATH, USER... of the parent, which can carry tokens and paths the user never meant to share).
 * So the command cannot be looked up on the child's PATH: `resolveCommand` finds it in main.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { accessSync, constants, statSync } from 'node:fs'
import { homedir } from 'node:os'
import { delimiter, isAbsolute, join, resolve } from 'node:path'
import { ReadBuffer, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js'
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js'
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js'

export interface StdioLaunch {
  command: string
  args: string[]
  env: Record<string, string>
  cwd: string | null
}

function isExecutableFile(path: string): boolean {
  try {
    if (!statSync(path).isFile()) return false
    accessSync(path, constants.X_OK)
    return true
  } catch {
    return false
  }
}

/**
 * The absolute path of the program to start. A command with a slash is a path (relative ones
 * from the working folder); a bare name is looked up on the PATH the user gave the server,
 * else on the app's own PATH (only to find the program: that PATH is not passed on).
 */
export function resolveCommand(
  command: string,
  cwd: string,
  env: Record<string, string>,
  appPath: string | undefined = process.env.PATH
): string {
  if (command.includes('/') || command.includes('\\')) {
    const path = isAbsolute(command) ? command : resolve(cwd, command)
    if (isExecutableFile(path)) return path
    throw new Error(`"${command}" is not an executable file (looked at ${path}).`)
  }
  const extensions = process.platform === 'win32' ? ['.exe', '.cmd', '.bat', ''] : ['']
  for (const searchPath of [env.PATH, appPath]) {
    for (const dir of (searchPath ?? '').split(delimiter)) {
      if (!dir) continue
      for (const ext of extensions) {
        const candidate = join(dir, command + ext)
        if (isExecutableFile(candidate)) return candidate
      }
    }
  }
  throw new Error(`"${command}" was not found on the server's PATH or the app's PATH.`)
}

export class IsolatedStdioTransport implements Transport {
  private child: ChildProcess | undefined
  private readonly buffer = new ReadBuffer()
  private stderrTail = ''
  onclose?: () => void
  onerror?: (error: Error) => void
  onmessage?: (message: JSONRPCMessage) => void

  constructor(private readonly launch: StdioLaunch) {}

  get pid(): number | null {
    return this.child?.pid ?? null
  }

  /** The last lines the server wrote to stderr, for the error the user sees. */
  get stderr(): string {
    return this.stderrTail.trim()
  }

  start(): Promise<void> {
    const cwd = this.launch.cwd ?? homedir()
    const program = resolveCommand(this.launch.command, cwd, this.launch.env)
    return new Promise((started, failed) => {
      const child = spawn(program, this.launch.args, {
        // Exactly what the user gave: an empty object means an empty environment.
        env: { ...this.launch.env },
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

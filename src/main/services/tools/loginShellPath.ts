/**
 * The PATH of the user's login shell. An app started from the Dock, Finder or a desktop menu
 * gets a minimal PATH (on macOS /usr/bin:/bin:/usr/sbin:/sbin), without Homebrew, nvm, volta
 * or ~/.local/bin, so `npx`, `uvx` or `node` would not be found for an MCP server that works
 * in the user's terminal. Read once at start-up, bounded by a timeout: a shell profile that
 * hangs or prompts must not hold anything up. Windows GUI apps inherit the user's PATH.
 */
import { execFile } from 'node:child_process'
import { getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js'

const MARK = '__CONTEXT_LENS_PATH__'
const LOGIN_SHELL_TIMEOUT_MS = 5_000

export interface LoginShellOptions {
  platform?: NodeJS.Platform
  /** The user's shell (SHELL); /bin/sh when unset. */
  shell?: string
  timeoutMs?: number
}

/** Resolves with the PATH, or null when it cannot be read in time (the app's PATH is used). */
export function readLoginShellPath(options: LoginShellOptions = {}): Promise<string | null> {
  const platform = options.platform ?? process.platform
  if (platform === 'win32') return Promise.resolve(null)
  const shell = options.shell ?? process.env.SHELL ?? '/bin/sh'
  // Between markers, because profiles may print banners; quoted "$PATH" is colon-joined in
  // sh, bash, zsh and fish alike.
  const script = `printf '%s%s%s' '${MARK}' "$PATH" '${MARK}'`
  return new Promise((resolve) => {
    execFile(
      shell,
      ['-ilc', script],
      {
        encoding: 'utf8',
        timeout: options.timeoutMs ?? LOGIN_SHELL_TIMEOUT_MS,
        killSignal: 'SIGKILL',
        // What a login shell needs (HOME, USER, SHELL, TERM...), nothing else of the app's.
        env: { ...getDefaultEnvironment(), DISABLE_AUTO_UPDATE: 'true' }
      },
      (_error, stdout) => resolve(pathBetweenMarks(stdout ?? ''))
    )
  })
}

export function pathBetweenMarks(output: string): string | null {
  const start = output.indexOf(MARK)
  const end = output.indexOf(MARK, start + MARK.length)
  if (start === -1 || end === -1) return null
  const path = output.slice(start + MARK.length, end).trim()
  return path || null
}

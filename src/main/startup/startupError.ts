/**
 * What the user reads when Context Lens cannot start. Any error before the window is up ends
 * here (startupGuard.ts): one dialog in plain words that names the cause, then exit. Without
 * it Electron shows "A JavaScript error occurred in the main process" or nothing at all, and
 * the process keeps the single-instance lock, so launching again does nothing.
 */

type StartupCause =
  /** A native module built for another Node/Electron ABI (NODE_MODULE_VERSION). */
  | 'native_mismatch'
  /** A native module present but not loadable: a missing system library, wrong architecture. */
  | 'native_unloadable'
  /** A file of the app is not where it should be (a broken install or package). */
  | 'component_missing'
  /** The data folder cannot be written. */
  | 'data_folder'
  | 'unknown'

export interface StartupProblem {
  cause: StartupCause
  /** One sentence, the dialog's title line. */
  message: string
  /** What to do, then the technical line the user can report. */
  detail: string
}

/** The parts users and support recognise, by the file or package that failed. */
const COMPONENTS: [RegExp, string][] = [
  [/better[-_]sqlite3/, 'the database engine (better-sqlite3)'],
  [/sqlite-vec|vec0\.(so|dylib|dll)/, 'the vector search extension (sqlite-vec)'],
  [/onnxruntime/, 'the embedding runtime (onnxruntime-node)'],
  [/sharp|libvips/, 'the image library (sharp)']
]

function componentOf(text: string): string {
  for (const [pattern, name] of COMPONENTS) if (pattern.test(text)) return name
  const module = /Cannot find module '([^']+)'/.exec(text)?.[1]
  return module ? `the module "${module}"` : 'a built-in component'
}

const REINSTALL =
  'Reinstall Context Lens from its download page. If you run it from source, run `npm run dev` again: it rebuilds native modules for Electron.'

function firstLine(text: string): string {
  return text.split('\n')[0]?.trim() ?? ''
}

function codeOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code
  return typeof code === 'string' ? code : undefined
}

function textOf(error: unknown): string {
  if (error instanceof Error) return error.message
  return String(error)
}

export function describeStartupError(error: unknown): StartupProblem {
  const text = textOf(error)
  const code = codeOf(error)
  const technical = `Technical detail: ${firstLine(text) || 'no message'}${code ? ` (${code})` : ''}`
  const component = componentOf(text)

  if (/NODE_MODULE_VERSION|compiled against a different Node\.js version/.test(text)) {
    return {
      cause: 'native_mismatch',
      message: `Context Lens could not start: ${component} does not match this version of the app.`,
      detail: `It was built for a different version of Electron. ${REINSTALL}\n\n${technical}`
    }
  }
  const missingLibrary = /([\w.+-]+\.(?:so[\w.]*|dylib|dll)): cannot open shared object file/.exec(
    text
  )?.[1]
  if (code === 'ERR_DLOPEN_FAILED' || missingLibrary || /invalid ELF header|dlopen/i.test(text)) {
    const why = missingLibrary
      ? `It needs the system library ${missingLibrary}, which was not found.`
      : 'Its file is damaged or made for another kind of computer.'
    return {
      cause: 'native_unloadable',
      message: `Context Lens could not start: ${component} could not be loaded.`,
      detail: `${why} ${REINSTALL}\n\n${technical}`
    }
  }
  if (
    code === 'MODULE_NOT_FOUND' ||
    /Could not locate the bindings file|Loadble extension for sqlite-vec not found|Loadable extension .* not found|Unsupported platform for sqlite-vec/.test(
      text
    )
  ) {
    return {
      cause: 'component_missing',
      message: `Context Lens could not start: ${component} is missing.`,
      detail: `The installation is incomplete. ${REINSTALL}\n\n${technical}`
    }
  }
  if (code && ['EACCES', 'EPERM', 'EROFS', 'ENOSPC'].includes(code)) {
    const path = (error as { path?: unknown }).path
    const where = typeof path === 'string' ? ` (${path})` : ''
    const why =
      code === 'ENOSPC' ? 'The disk is full.' : 'Context Lens may not write to its data folder.'
    return {
      cause: 'data_folder',
      message: `Context Lens could not start: it cannot save its data${where}.`,
      detail: `${why} Free some space or fix the folder's permissions, then start Context Lens again.\n\n${technical}`
    }
  }
  return {
    cause: 'unknown',
    message: 'Context Lens could not start because of an unexpected error.',
    detail: `Start it again; if this keeps happening, please report it with the text below.\n\n${technical}`
  }
}

/**
 * What the user reads when Context Lens cannot start. Any error before the window is up ends
 * here (startupGuard.ts): one dialog in plain words that names the cause, then exit. Without
 * it Electron shows "A JavaScript error occurred in the main process" or nothing at all, and
 * the process keeps the single-instance lock, so launching again does nothing.
 */

import type { Language } from '@shared/domain'

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

/** What a start-up failure says, in each language the app speaks (index.ts picks one). */
interface StartupText {
  /** The parts users and support recognise, by the file or package that failed. */
  components: { sqlite: string; vectors: string; embeddings: string; images: string }
  module(name: string): string
  builtIn: string
  reinstall: string
  /** Between two sentences: a space in English, nothing in Chinese. */
  gap: string
  technical(line: string, code: string | undefined): string
  noMessage: string
  mismatch: { message(component: string): string; detail: string }
  unloadable: {
    message(component: string): string
    missingLibrary(library: string): string
    damaged: string
  }
  missing: { message(component: string): string; detail: string }
  dataFolder: {
    message(path: string | undefined): string
    full: string
    denied: string
    detail: string
  }
  unknown: { message: string; detail: string }
}

const english: StartupText = {
  components: {
    sqlite: 'the database engine (better-sqlite3)',
    vectors: 'the vector search extension (sqlite-vec)',
    embeddings: 'the embedding runtime (onnxruntime-node)',
    images: 'the image library (sharp)'
  },
  module: (name) => `the module "${name}"`,
  builtIn: 'a built-in component',
  reinstall:
    'Reinstall Context Lens from its download page. If you run it from source, run `npm run dev` again: it rebuilds native modules for Electron.',
  gap: ' ',
  technical: (line, code) => `Technical detail: ${line}${code ? ` (${code})` : ''}`,
  noMessage: 'no message',
  mismatch: {
    message: (component) =>
      `Context Lens could not start: ${component} does not match this version of the app.`,
    detail: 'It was built for a different version of Electron.'
  },
  unloadable: {
    message: (component) => `Context Lens could not start: ${component} could not be loaded.`,
    missingLibrary: (library) => `It needs the system library ${library}, which was not found.`,
    damaged: 'Its file is damaged or made for another kind of computer.'
  },
  missing: {
    message: (component) => `Context Lens could not start: ${component} is missing.`,
    detail: 'The installation is incomplete.'
  },
  dataFolder: {
    message: (path) =>
      `Context Lens could not start: it cannot save its data${path ? ` (${path})` : ''}.`,
    full: 'The disk is full.',
    denied: 'Context Lens may not write to its data folder.',
    detail: "Free some space or fix the folder's permissions, then start Context Lens again."
  },
  unknown: {
    message: 'Context Lens could not start because of an unexpected error.',
    detail: 'Start it again; if this keeps happening, please report it with the text below.'
  }
}

const chinese: StartupText = {
  components: {
    sqlite: '数据库引擎（better-sqlite3）',
    vectors: '向量搜索扩展（sqlite-vec）',
    embeddings: '嵌入模型运行时（onnxruntime-node）',
    images: '图像库（sharp）'
  },
  module: (name) => `模块“${name}”`,
  builtIn: '一个内置组件',
  reinstall:
    '请从下载页面重新安装 Context Lens。如果你是从源码运行的，请再运行一次 `npm run dev`：它会为 Electron 重新编译原生模块。',
  gap: '',
  technical: (line, code) => `技术信息：${line}${code ? ` (${code})` : ''}`,
  noMessage: '没有错误信息',
  mismatch: {
    message: (component) => `Context Lens 无法启动：${component}与当前版本的应用不匹配。`,
    detail: '它是为另一个版本的 Electron 编译的。'
  },
  unloadable: {
    message: (component) => `Context Lens 无法启动：无法加载${component}。`,
    missingLibrary: (library) => `它需要系统库 ${library}，但没有找到。`,
    damaged: '它的文件已损坏，或者是为另一种类型的电脑编译的。'
  },
  missing: {
    message: (component) => `Context Lens 无法启动：缺少${component}。`,
    detail: '安装不完整。'
  },
  dataFolder: {
    message: (path) => `Context Lens 无法启动：无法保存数据${path ? `（${path}）` : ''}。`,
    full: '磁盘已满。',
    denied: 'Context Lens 没有写入其数据文件夹的权限。',
    detail: '请腾出一些空间或修正该文件夹的权限，然后重新启动 Context Lens。'
  },
  unknown: {
    message: 'Context Lens 因意外错误无法启动。',
    detail: '请重新启动它；如果问题一再出现，请连同下面的文字一起报告给我们。'
  }
}

const TEXT: Record<Language, StartupText> = { en: english, 'zh-CN': chinese }

const COMPONENTS: [RegExp, keyof StartupText['components']][] = [
  [/better[-_]sqlite3/, 'sqlite'],
  [/sqlite-vec|vec0\.(so|dylib|dll)/, 'vectors'],
  [/onnxruntime/, 'embeddings'],
  [/sharp|libvips/, 'images']
]

function componentOf(text: string, words: StartupText): string {
  for (const [pattern, name] of COMPONENTS) if (pattern.test(text)) return words.components[name]
  const module = /Cannot find module '([^']+)'/.exec(text)?.[1]
  return module ? words.module(module) : words.builtIn
}

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

export function describeStartupError(error: unknown, language: Language = 'en'): StartupProblem {
  const words = TEXT[language]
  const text = textOf(error)
  const code = codeOf(error)
  const technical = words.technical(firstLine(text) || words.noMessage, code)
  const component = componentOf(text, words)
  const advice = (why: string) => `${why}${words.gap}${words.reinstall}\n\n${technical}`

  if (/NODE_MODULE_VERSION|compiled against a different Node\.js version/.test(text)) {
    return {
      cause: 'native_mismatch',
      message: words.mismatch.message(component),
      detail: advice(words.mismatch.detail)
    }
  }
  const missingLibrary = /([\w.+-]+\.(?:so[\w.]*|dylib|dll)): cannot open shared object file/.exec(
    text
  )?.[1]
  if (code === 'ERR_DLOPEN_FAILED' || missingLibrary || /invalid ELF header|dlopen/i.test(text)) {
    return {
      cause: 'native_unloadable',
      message: words.unloadable.message(component),
      detail: advice(
        missingLibrary ? words.unloadable.missingLibrary(missingLibrary) : words.unloadable.damaged
      )
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
      message: words.missing.message(component),
      detail: advice(words.missing.detail)
    }
  }
  if (code && ['EACCES', 'EPERM', 'EROFS', 'ENOSPC'].includes(code)) {
    const path = (error as { path?: unknown }).path
    const why = code === 'ENOSPC' ? words.dataFolder.full : words.dataFolder.denied
    return {
      cause: 'data_folder',
      message: words.dataFolder.message(typeof path === 'string' ? path : undefined),
      detail: `${why}${words.gap}${words.dataFolder.detail}\n\n${technical}`
    }
  }
  return {
    cause: 'unknown',
    message: words.unknown.message,
    detail: `${words.unknown.detail}\n\n${technical}`
  }
}

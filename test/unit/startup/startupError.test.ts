import { describe, expect, it } from 'vitest'
import { describeStartupError } from '../../../src/main/startup/startupError'

const withCode = (message: string, code: string, extra: Record<string, unknown> = {}) =>
  Object.assign(new Error(message), { code, ...extra })

describe('describeStartupError', () => {
  it('names a native module built for another ABI and says to reinstall', () => {
    const problem = describeStartupError(
      withCode(
        "The module '/opt/Context Lens/resources/app.asar.unpacked/node_modules/better-sqlite3/build/Release/better_sqlite3.node'\nwas compiled against a different Node.js version using\nNODE_MODULE_VERSION 115. This version of Node.js requires\nNODE_MODULE_VERSION 139.",
        'ERR_DLOPEN_FAILED'
      )
    )
    expect(problem.cause).toBe('native_mismatch')
    expect(problem.message).toBe(
      'Context Lens could not start: the database engine (better-sqlite3) does not match this version of the app.'
    )
    expect(problem.detail).toMatch(/^It was built for a different version of Electron\. Reinstall/)
    expect(problem.detail).toMatch(
      /Technical detail: The module .*better_sqlite3\.node' \(ERR_DLOPEN_FAILED\)$/
    )
  })

  it('names the system library a native module needs', () => {
    const problem = describeStartupError(
      withCode(
        'libvips-cpp.so.8.18.7: cannot open shared object file: No such file or directory',
        'ERR_DLOPEN_FAILED'
      )
    )
    expect(problem.cause).toBe('native_unloadable')
    expect(problem.message).toBe(
      'Context Lens could not start: the image library (sharp) could not be loaded.'
    )
    expect(problem.detail).toMatch(
      /^It needs the system library libvips-cpp\.so\.8\.18\.7, which was not found\./
    )
  })

  it('a damaged native file or one for another architecture', () => {
    const problem = describeStartupError(
      withCode(
        '/x/node_modules/onnxruntime-node/bin/onnxruntime_binding.node: invalid ELF header',
        'ERR_DLOPEN_FAILED'
      )
    )
    expect(problem).toMatchObject({
      cause: 'native_unloadable',
      message:
        'Context Lens could not start: the embedding runtime (onnxruntime-node) could not be loaded.'
    })
    expect(problem.detail).toMatch(/damaged or made for another kind of computer/)
  })

  it('a missing sqlite-vec, whichever way it is missing', () => {
    for (const error of [
      withCode("Cannot find module 'sqlite-vec-linux-x64/vec0.so'", 'MODULE_NOT_FOUND'),
      new Error(
        'Loadble extension for sqlite-vec not found. Was the sqlite-vec-linux-x64 package installed?'
      ),
      new Error('Unsupported platform for sqlite-vec, on a linux-ia32 machine.')
    ]) {
      expect(describeStartupError(error)).toMatchObject({
        cause: 'component_missing',
        message:
          'Context Lens could not start: the vector search extension (sqlite-vec) is missing.'
      })
    }
  })

  it('a missing better-sqlite3 build and an unknown missing module', () => {
    expect(
      describeStartupError(
        new Error('Could not locate the bindings file. Tried:\n → /a/better_sqlite3.node')
      ).message
    ).toBe('Context Lens could not start: the database engine (better-sqlite3) is missing.')
    expect(
      describeStartupError(withCode("Cannot find module '@ai-sdk/openai'", 'MODULE_NOT_FOUND'))
        .message
    ).toBe('Context Lens could not start: the module "@ai-sdk/openai" is missing.')
  })

  it('an unwritable data folder and a full disk', () => {
    const denied = describeStartupError(
      withCode("EACCES: permission denied, mkdir '/home/u/.config/Context Lens'", 'EACCES', {
        path: '/home/u/.config/Context Lens'
      })
    )
    expect(denied).toMatchObject({
      cause: 'data_folder',
      message:
        'Context Lens could not start: it cannot save its data (/home/u/.config/Context Lens).'
    })
    expect(
      describeStartupError(withCode('ENOSPC: no space left on device', 'ENOSPC')).detail
    ).toMatch(/^The disk is full\./)
  })

  it('anything else is an unexpected error with its text to report', () => {
    const problem = describeStartupError('boom')
    expect(problem).toMatchObject({
      cause: 'unknown',
      message: 'Context Lens could not start because of an unexpected error.'
    })
    expect(problem.detail).toMatch(/Technical detail: boom$/)
  })
})

describe('describeStartupError on a Chinese system', () => {
  const zh = (error: unknown) => describeStartupError(error, 'zh-CN')

  it('says each cause in Chinese, keeping the technical line as the system wrote it', () => {
    const mismatch = zh(
      withCode(
        "The module '/x/better_sqlite3.node'\nwas compiled against a different Node.js version using\nNODE_MODULE_VERSION 115.",
        'ERR_DLOPEN_FAILED'
      )
    )
    expect(mismatch).toMatchObject({
      cause: 'native_mismatch',
      message: 'Context Lens 无法启动：数据库引擎（better-sqlite3）与当前版本的应用不匹配。'
    })
    expect(mismatch.detail).toMatch(/^它是为另一个版本的 Electron 编译的。请从下载页面重新安装/)
    expect(mismatch.detail).toMatch(
      /\n\n技术信息：The module '\/x\/better_sqlite3\.node' \(ERR_DLOPEN_FAILED\)$/
    )

    const library = zh(
      withCode(
        'libvips-cpp.so.8: cannot open shared object file: No such file',
        'ERR_DLOPEN_FAILED'
      )
    )
    expect(library.message).toBe('Context Lens 无法启动：无法加载图像库（sharp）。')
    expect(library.detail).toMatch(/^它需要系统库 libvips-cpp\.so\.8，但没有找到。/)

    expect(zh(withCode("Cannot find module 'zod'", 'MODULE_NOT_FOUND'))).toMatchObject({
      cause: 'component_missing',
      message: 'Context Lens 无法启动：缺少模块“zod”。'
    })
    expect(zh(new Error('Unsupported platform for sqlite-vec')).message).toBe(
      'Context Lens 无法启动：缺少向量搜索扩展（sqlite-vec）。'
    )
  })

  it('an unwritable data folder, a full disk and anything else', () => {
    expect(
      zh(withCode('EACCES: permission denied', 'EACCES', { path: '/home/u/.config/Context Lens' }))
    ).toMatchObject({
      cause: 'data_folder',
      message: 'Context Lens 无法启动：无法保存数据（/home/u/.config/Context Lens）。'
    })
    expect(zh(withCode('ENOSPC: no space left on device', 'ENOSPC')).detail).toMatch(
      /^磁盘已满。请腾出一些空间或修正该文件夹的权限.*\n\n技术信息：ENOSPC: no space left on device \(ENOSPC\)$/
    )
    const unknown = zh('boom')
    expect(unknown).toMatchObject({
      cause: 'unknown',
      message: 'Context Lens 因意外错误无法启动。'
    })
    expect(unknown.detail).toMatch(/技术信息：boom$/)
  })
})

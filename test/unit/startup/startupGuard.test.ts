import { EventEmitter } from 'node:events'
import { describe, expect, it, vi } from 'vitest'
import { startupGuard } from '../../../src/main/startup/startupGuard'

function setUp() {
  const process = new EventEmitter()
  const deps = {
    showError: vi.fn(),
    exit: vi.fn(),
    log: vi.fn(),
    process: process as unknown as NodeJS.Process
  }
  return { process, deps, guard: startupGuard(deps) }
}

describe('startupGuard', () => {
  it('a failed start shows one dialog, then exits with 1, once', () => {
    const { deps, guard } = setUp()
    guard.fail(Object.assign(new Error("Cannot find module 'zod'"), { code: 'MODULE_NOT_FOUND' }))
    guard.fail(new Error('a second error'))
    expect(deps.showError).toHaveBeenCalledOnce()
    expect(deps.showError).toHaveBeenCalledWith(
      'Context Lens could not start: the module "zod" is missing.',
      expect.stringContaining('Reinstall')
    )
    expect(deps.exit).toHaveBeenCalledOnce()
    expect(deps.exit).toHaveBeenCalledWith(1)
    expect(guard.failed?.cause).toBe('component_missing')
  })

  it('speaks the language it is given when the dialog shows', () => {
    const { deps } = setUp()
    const guard = startupGuard({ ...deps, language: () => 'zh-CN' })
    guard.fail(Object.assign(new Error("Cannot find module 'zod'"), { code: 'MODULE_NOT_FOUND' }))
    expect(deps.showError).toHaveBeenCalledWith(
      'Context Lens 无法启动：缺少模块“zod”。',
      expect.stringContaining('请从下载页面重新安装 Context Lens')
    )
  })

  it('an exception thrown anywhere before the window is up is a failed start', () => {
    const { process, deps } = setUp()
    process.emit('uncaughtException', new Error('thrown in a timer'))
    expect(deps.showError).toHaveBeenCalledOnce()
    expect(deps.exit).toHaveBeenCalledWith(1)
    expect(process.listenerCount('uncaughtException')).toBe(0)
  })

  it('exits even when the dialog itself throws', () => {
    const { deps, guard } = setUp()
    deps.showError.mockImplementation(() => {
      throw new Error('no display')
    })
    expect(() => guard.fail(new Error('x'))).toThrow('no display')
    expect(deps.exit).toHaveBeenCalledWith(1)
  })

  it('once the window is up, it lets go', () => {
    const { process, deps, guard } = setUp()
    guard.windowUp()
    expect(process.listenerCount('uncaughtException')).toBe(0)
    guard.fail(new Error('late'))
    expect(deps.showError).not.toHaveBeenCalled()
    expect(deps.exit).not.toHaveBeenCalled()
  })
})

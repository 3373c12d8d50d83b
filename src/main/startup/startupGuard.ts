/**
 * Until the window is up, any error (a rejected start, an exception thrown anywhere) ends in
 * one dialog and an exit that releases the single-instance lock, so the next launch starts
 * afresh instead of handing over to an invisible process. After that, errors are the running
 * app's business (Electron's own handling and the services' logs).
 */
import type { Language } from '@shared/domain'
import { describeStartupError, type StartupProblem } from './startupError'

export interface StartupGuardDeps {
  /** Electron's dialog.showErrorBox: synchronous, and usable before `ready`. */
  showError(title: string, content: string): void
  /** Releases the single-instance lock and exits with this code. */
  exit(code: number): void
  log(message: string, error: unknown): void
  /** The language of the dialog, asked when it shows (the system's; English by default). */
  language?: () => Language
  /** The process to watch for uncaught exceptions (tests pass their own emitter). */
  process?: Pick<NodeJS.Process, 'on' | 'off'>
}

export interface StartupGuard {
  /** The start-up failed: tell the user and exit. Safe to call more than once. */
  fail(error: unknown): void
  /** The window exists: later errors are no longer start-up errors. */
  windowUp(): void
  readonly failed: StartupProblem | null
}

export function startupGuard(deps: StartupGuardDeps): StartupGuard {
  const target = deps.process ?? process
  let failed: StartupProblem | null = null
  let done = false
  const onUncaught = (error: unknown) => guard.fail(error)
  const guard: StartupGuard = {
    fail(error) {
      if (done) return
      done = true
      target.off('uncaughtException', onUncaught)
      deps.log('[startup] Context Lens could not start', error)
      failed = describeStartupError(error, deps.language?.() ?? 'en')
      try {
        deps.showError(failed.message, failed.detail)
      } finally {
        deps.exit(1)
      }
    },
    windowUp() {
      if (done) return
      done = true
      target.off('uncaughtException', onUncaught)
    },
    get failed() {
      return failed
    }
  }
  target.on('uncaughtException', onUncaught)
  return guard
}

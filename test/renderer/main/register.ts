/**
 * A setup file of the renderer project: offers the real main process to the test's fake
 * backend, loading it (a second or two of modules) only in files that start one.
 */
import { afterAll } from 'vitest'

let main: Promise<typeof import('./startMain')> | null = null

globalThis.startMainProcess = async (options) =>
  (await (main ??= import('./startMain'))).startMain(options)

afterAll(async () => (await main)?.removeTemplate())

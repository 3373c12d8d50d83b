/**
 * A setup file of the renderer project: offers the real main process to the test's fake
 * backend, loading it (a second or two of modules) only in files that start one.
 */
globalThis.startMainProcess = async (options) => (await import('./startMain')).startMain(options)

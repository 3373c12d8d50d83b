// Preloaded (node --require) before the built out/main/index.js: `require('electron')` gets
// the fake beside this file, and FAKE_ELECTRON_MISSING names packages that act as if they
// were not installed (a broken install or package), for the start-up failure tests.
const Module = require('node:module')
const { join } = require('node:path')

const fake = join(__dirname, 'electron.cjs')
const missing = (process.env.FAKE_ELECTRON_MISSING ?? '').split(',').filter(Boolean)
const resolve = Module._resolveFilename
Module._resolveFilename = function (request, ...rest) {
  if (request === 'electron') return fake
  if (missing.some((name) => request === name || request.startsWith(`${name}/`))) {
    const error = new Error(`Cannot find module '${request}'`)
    error.code = 'MODULE_NOT_FOUND'
    throw error
  }
  return resolve.call(this, request, ...rest)
}

// Electron sets process.versions.electron; the app reads it to find its Electron-built natives.
if (process.env.FAKE_ELECTRON_VERSION) {
  Object.defineProperty(process.versions, 'electron', {
    value: process.env.FAKE_ELECTRON_VERSION,
    enumerable: true
  })
}

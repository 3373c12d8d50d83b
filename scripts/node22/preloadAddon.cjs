// Preloaded (NODE_OPTIONS=--require) by scripts/node22/test.mjs into every process and worker
// of a test run under Node 22: better-sqlite3 loads its addon with require() from
// build/Release, which holds the build for the Node that ran `npm install`. Putting the addon
// compiled for this Node into require's cache under that path makes every
// `new Database()` use it, without touching node_modules or the code under test.
/* eslint-disable @typescript-eslint/no-require-imports -- a --require preload is CommonJS */
const Module = require('node:module')
const { join, dirname } = require('node:path')

const addon = process.env.CONTEXT_LENS_SQLITE_ADDON
if (addon) {
  const installed = join(
    dirname(require.resolve('better-sqlite3/package.json', { paths: [process.cwd()] })),
    'build',
    'Release',
    'better_sqlite3.node'
  )
  const entry = new Module(installed)
  entry.filename = installed
  entry.exports = require(addon)
  entry.loaded = true
  Module._cache[installed] = entry
}

import { createHash } from 'node:crypto'
import { resolve } from 'node:path'
import { defineConfig } from 'electron-vite'
import type { Plugin } from 'vite'
import react from '@vitejs/plugin-react'

const shared = resolve(__dirname, 'src/shared')

/**
 * The renderer's CSP forbids inline scripts and styles. In development only, the dev server
 * needs three exceptions: React Fast Refresh's inline preamble (allowed by its exact hash,
 * nothing else), the HMR websocket, and inline styles, because Vite injects each CSS module as
 * a <style> element while it serves (a build links them as files). Production builds keep the
 * CSP of index.html unchanged.
 */
function devServerCsp(): Plugin {
  const preamble = react.preambleCode.replace('__BASE__', '/')
  const hash = createHash('sha256').update(preamble).digest('base64')
  return {
    name: 'context-lens:dev-server-csp',
    apply: 'serve',
    transformIndexHtml: (html) =>
      html
        .replace("script-src 'self'", `script-src 'self' 'sha256-${hash}'`)
        .replace("connect-src 'self'", "connect-src 'self' ws://localhost:*")
        .replace("style-src 'self'", "style-src 'self' 'unsafe-inline'")
  }
}

export default defineConfig({
  main: {
    resolve: { alias: { '@shared': shared } },
    build: {
      // Native modules and their loaders stay outside the bundle so they can be unpacked from
      // app.asar and rebuilt for Electron's ABI.
      externalizeDeps: true,
      rollupOptions: {
        // Workers are their own entries (src/main/workers/<worker>/<name>.ts): worker_threads
        // loads out/main/<name>.js. startApp is one too, so the bootstrap's dynamic import finds
        // it beside index.js (same __dirname).
        input: {
          index: resolve(__dirname, 'src/main/index.ts'),
          startApp: resolve(__dirname, 'src/main/startApp.ts'),
          embeddingWorker: resolve(__dirname, 'src/main/workers/embedding/embeddingWorker.ts'),
          integrityWorker: resolve(__dirname, 'src/main/workers/integrity/integrityWorker.ts'),
          salvageWorker: resolve(__dirname, 'src/main/workers/salvage/salvageWorker.ts'),
          fileWorker: resolve(__dirname, 'src/main/workers/file/fileWorker.ts'),
          importWorker: resolve(__dirname, 'src/main/workers/import/importWorker.ts'),
          searchWorker: resolve(__dirname, 'src/main/workers/search/searchWorker.ts'),
          restoreCheckWorker: resolve(
            __dirname,
            'src/main/workers/restoreCheck/restoreCheckWorker.ts'
          )
        }
      }
    }
  },
  preload: {
    resolve: { alias: { '@shared': shared } },
    build: {
      // A sandboxed preload cannot require node_modules: bundle everything it uses.
      externalizeDeps: false
    }
  },
  renderer: {
    resolve: {
      alias: {
        '@shared': shared,
        '@renderer': resolve(__dirname, 'src/renderer/src')
      }
    },
    plugins: [react(), devServerCsp()]
  }
})

import { resolve } from 'node:path'
import { defineConfig } from 'electron-vite'
import react from '@vitejs/plugin-react'

const shared = resolve(__dirname, 'src/shared')

export default defineConfig({
  main: {
    resolve: { alias: { '@shared': shared } },
    build: {
      // Native modules and their loaders must stay outside the bundle so they can be
      // unpacked from app.asar and rebuilt for Electron's ABI.
      externalizeDeps: true
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
    plugins: [react()]
  }
})

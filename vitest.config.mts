import { resolve } from 'node:path'
import { defineConfig } from 'vitest/config'
import react from '@vitejs/plugin-react'

const alias = {
  '@shared': resolve(import.meta.dirname, 'src/shared'),
  '@renderer': resolve(import.meta.dirname, 'src/renderer/src')
}

export default defineConfig({
  resolve: { alias },
  test: {
    projects: [
      {
        resolve: { alias },
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts'],
          environment: 'node',
          // Some unit files spawn the CLI bundles several times per test; on a loaded 2-core
          // machine that passes 5 s. Speed is measured by npm run bench, not by test timeouts.
          testTimeout: 30_000
        }
      },
      {
        resolve: { alias },
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts'],
          environment: 'node',
          testTimeout: 30_000
        }
      },
      {
        plugins: [react()],
        resolve: { alias },
        test: {
          name: 'renderer',
          include: ['test/renderer/**/*.test.{ts,tsx}'],
          environment: 'jsdom',
          testTimeout: 30_000,
          setupFiles: ['test/renderer/setup.ts', 'test/renderer/main/register.ts'],
          // The timers vi.useFakeTimers() fakes by default, less setImmediate: main runs in these
          // tests (test/renderer/support/fakeApi.ts) and yields with it, and in the app main is
          // another process, out of the renderer's fake clock's reach.
          fakeTimers: {
            toFake: [
              'setTimeout',
              'clearTimeout',
              'setInterval',
              'clearInterval',
              'Date',
              'hrtime',
              'performance',
              'requestAnimationFrame',
              'cancelAnimationFrame',
              'requestIdleCallback',
              'cancelIdleCallback'
            ]
          }
        }
      },
      {
        resolve: { alias },
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          environment: 'node',
          testTimeout: 120_000,
          hookTimeout: 120_000,
          fileParallelism: false
        }
      }
    ]
  }
})

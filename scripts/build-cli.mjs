// Bundles the headless entry points (scripts/ctx.ts, scripts/bench.ts, scripts/eval.ts, and the
// embedding worker entries bench/embeddingWorker and eval/embeddingWorker) into out/cli/*.cjs
// with vite, so `npm run ctx`, `bench` and `eval` run the app's code under plain Node with no
// TypeScript runner. Dependencies stay in node_modules; only our sources are bundled.
import { builtinModules } from 'node:module'
import { resolve } from 'node:path'
import { build } from 'vite'

const root = resolve(import.meta.dirname, '..')
const entries = process.argv.slice(2)
if (entries.length === 0) entries.push('ctx', 'bench')

const external = (id) =>
  id.startsWith('node:') ||
  builtinModules.includes(id) ||
  (!id.startsWith('.') && !id.startsWith('/') && !id.startsWith('@shared') && !id.startsWith('\0'))

await build({
  configFile: false,
  root,
  logLevel: 'warn',
  resolve: { alias: { '@shared': resolve(root, 'src/shared') } },
  build: {
    ssr: true,
    target: 'node20',
    outDir: resolve(root, 'out/cli'),
    emptyOutDir: false,
    minify: false,
    rollupOptions: {
      input: Object.fromEntries(entries.map((name) => [name, resolve(root, `scripts/${name}.ts`)])),
      external,
      output: { format: 'cjs', entryFileNames: '[name].cjs', chunkFileNames: '[name]-[hash].cjs' }
    }
  }
})

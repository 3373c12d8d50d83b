import { chmodSync, mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { build } from 'rolldown'

/**
 * Bundles test/support/storeChild.ts into one CommonJS file that plain `node` runs (the test
 * runner's TypeScript transform does not reach child processes). Native and heavy packages
 * stay external and load from node_modules; the folder is world-readable so a child running
 * as another user can load it.
 */
const root = resolve(import.meta.dirname, '../..')

/** The environment a bundled child needs: its externals resolve from this repository. */
export const childEnv = { ...process.env, NODE_PATH: join(root, 'node_modules') }

export async function bundleStoreChild(): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'context-lens-child-'))
  chmodSync(dir, 0o755)
  const file = join(dir, 'storeChild.cjs')
  await build({
    input: join(root, 'test/support/storeChild.ts'),
    platform: 'node',
    external: (id) => !id.startsWith('.') && !id.startsWith('/') && !id.startsWith('@shared'),
    resolve: { alias: { '@shared': join(root, 'src/shared') } },
    output: { file, format: 'cjs' },
    logLevel: 'silent'
  })
  return file
}

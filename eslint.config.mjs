import js from '@eslint/js'
import tseslint from 'typescript-eslint'
import reactHooks from 'eslint-plugin-react-hooks'
import reactRefresh from 'eslint-plugin-react-refresh'
import globals from 'globals'
import { builtinModules } from 'node:module'

/*
 * The layering in docs/ARCHITECTURE.md, checked by folder, so depth cannot slip past it:
 *
 * - context/ (the pure core) imports only @shared, itself and pure packages: no Node
 *   built-ins, no Electron, no SQLite;
 * - store/ imports only @shared and itself;
 * - workers/ import only store/, context/, @shared and their own folder;
 * - nothing in src/main imports ipc/ but the composition root (index.ts, startApp.ts, startup/).
 *
 * A relative import leaves a folder when it climbs more levels than the file lies below it, so
 * each depth gets its own pattern (`climbsOut`). ESLint takes one option list per rule and
 * file, so each block carries every restriction for its files.
 */
const MAX_DEPTH = 4
/** The relative imports from a file `depth` folders below `layer` that leave `layer`. */
const climbsOut = (depth) => `^(\\.\\./){${depth + 1}}`
/** The same, except into one of `allowed` (folders beside `layer` in src/main). */
const climbsOutExcept = (depth, allowed) => `^(\\.\\./){${depth + 1}}(?!(${allowed.join('|')})/)`
const IPC = { group: ['**/ipc', '**/ipc/**'], message: 'Only the composition root imports ipc/.' }
const NODE_BUILTINS = [...builtinModules, ...builtinModules.map((name) => `node:${name}`)]

function layer(folder, restrictionsAt) {
  return Array.from({ length: MAX_DEPTH + 1 }, (_, depth) => ({
    files: [`src/main/${folder}/${'*/'.repeat(depth)}*.ts`],
    rules: { 'no-restricted-imports': ['error', restrictionsAt(depth)] }
  }))
}

const layering = [
  {
    files: ['src/main/**/*.ts'],
    ignores: [
      'src/main/index.ts',
      'src/main/startApp.ts',
      'src/main/startup/**',
      'src/main/ipc/**'
    ],
    rules: { 'no-restricted-imports': ['error', { patterns: [IPC] }] }
  },
  ...layer('context', (depth) => ({
    paths: NODE_BUILTINS.map((name) => ({ name, message: 'context/ is pure: no Node built-ins.' })),
    patterns: [
      {
        group: ['electron', 'better-sqlite3', 'sqlite-vec', 'node:*'],
        message: 'context/ is pure.'
      },
      { regex: climbsOut(depth), message: 'context/ imports only @shared and itself.' },
      {
        // Folder segments at any depth, also through an alias or an absolute path.
        group: ['**/store/**', '**/services/**', '**/ipc/**', '**/workers/**', '**/startup/**'],
        message: 'context/ imports only @shared and itself.'
      }
    ]
  })),
  ...layer('store', (depth) => ({
    patterns: [
      { regex: climbsOut(depth), message: 'store/ imports only @shared and itself.' },
      {
        group: ['**/context/**', '**/services/**', '**/ipc/**', '**/workers/**', '**/startup/**'],
        message: 'store/ imports only @shared and itself.'
      }
    ]
  })),
  ...layer('workers', (depth) => ({
    patterns: [
      {
        regex: climbsOutExcept(depth, ['store', 'context']),
        message: 'workers/ import only store/, context/ and @shared.'
      },
      {
        group: ['**/services/**', '**/ipc/**', '**/startup/**'],
        message: 'workers/ import only store/, context/ and @shared.'
      }
    ]
  }))
]

export default tseslint.config(
  { ignores: ['out', 'dist', 'release', 'node_modules', 'test-results', '.cache'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }]
    }
  },
  {
    files: [
      'src/main/**/*.ts',
      'src/preload/**/*.ts',
      'scripts/**/*',
      'test/**/*.ts',
      '*.ts',
      '*.mjs'
    ],
    languageOptions: { globals: globals.node }
  },
  {
    // CommonJS preloaded into plain Node by tests (the fake electron module).
    files: ['test/**/*.cjs'],
    languageOptions: { globals: globals.node, sourceType: 'commonjs' },
    rules: { '@typescript-eslint/no-require-imports': 'off' }
  },
  {
    files: ['src/renderer/**/*.{ts,tsx}', 'test/renderer/**/*.{ts,tsx}'],
    languageOptions: { globals: globals.browser },
    plugins: { 'react-hooks': reactHooks, 'react-refresh': reactRefresh },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'react-refresh/only-export-components': ['warn', { allowConstantExport: true }]
    }
  },
  ...layering,
  {
    files: ['src/renderer/**/*.{ts,tsx}', 'src/preload/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['**/main/**'], message: 'Only src/shared is shared across processes.' }
          ]
        }
      ]
    }
  }
)

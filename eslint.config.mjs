import js from '@eslint/js'
import tseslint from 'typescript-eslint'
import reactHooks from 'eslint-plugin-react-hooks'
import reactRefresh from 'eslint-plugin-react-refresh'
import globals from 'globals'

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
  {
    // The layering in docs/ARCHITECTURE.md: the pure core (and its subfolders) must not reach
    // into the app.
    files: ['src/main/context/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['electron', 'better-sqlite3', 'sqlite-vec', 'node:*'],
              message: 'context/ is pure.'
            },
            {
              // Folder segments at any depth, so a subfolder of context/ cannot slip past.
              group: ['**/store/**', '**/services/**', '**/ipc/**', '**/workers/**'],
              message: 'context/ only imports shared.'
            }
          ]
        }
      ]
    }
  },
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

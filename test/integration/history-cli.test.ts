import { execFileSync, spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { openDatabase } from '../../src/main/store/database'
import { LATEST_VERSION } from '../../src/main/store/migrations'
import { SearchRepository } from '../../src/main/store/search/searchRepository'
import { useTempDir } from '../support/tempDir'

const ROOT = resolve(import.meta.dirname, '../..')
const CLI = join(ROOT, 'out/cli/history.cjs')
const FIXTURES = join(ROOT, 'test/fixtures/history')
const tempDir = useTempDir()

/** The CLI as `npm run -s history -- …` runs it (the bundle it builds first). */
function history(...args: string[]) {
  const result = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', cwd: ROOT })
  return { code: result.status, stdout: result.stdout, stderr: result.stderr }
}

beforeAll(() => {
  execFileSync(process.execPath, [join(ROOT, 'scripts/build-cli.mjs'), 'history'], { cwd: ROOT })
}, 120_000)

describe('npm run history', () => {
  it('imports a ChatGPT export into a new database and prints one JSON line', () => {
    const db = join(tempDir(), 'cli.sqlite')
    const file = join(FIXTURES, 'chatgpt-conversations.json')
    const first = history('import', file, '--db', db, '--with-branches')
    expect(first.code, first.stderr).toBe(0)
    expect(first.stdout.trim().split('\n')).toHaveLength(1)
    expect(JSON.parse(first.stdout)).toEqual({
      format: 'chatgpt',
      threads: 4,
      messages: 14,
      skipped: { empty: 3, system: 2, hidden: 1, tool: 2 },
      forks: 2
    })
    const again = history('import', file, '--db', db, '--with-branches')
    expect(JSON.parse(again.stdout)).toMatchObject({ threads: 0, messages: 0, forks: 0 })
    expect(JSON.parse(again.stdout).skipped.already_imported).toBe(4)
    const store = openDatabase(db)
    expect(new SearchRepository(store).search('奈良的鹿', 5)).toHaveLength(1)
    store.close()
  })

  it('exports JSON that imports into a fresh database as the same conversations, and Markdown', () => {
    const dir = tempDir()
    const db = join(dir, 'a.sqlite')
    expect(history('import', join(FIXTURES, 'claude-conversations.json'), '--db', db).code).toBe(0)
    const out = join(dir, 'export.json')
    const exported = history('export', '--db', db, '--format', 'json', '--out', out)
    expect(exported.code, exported.stderr).toBe(0)
    expect(JSON.parse(exported.stdout)).toEqual({ path: out, threads: 2, messages: 6 })
    // The header names the schema the budgets were saved at, so a later app reads them as meant.
    expect(JSON.parse(readFileSync(out, 'utf8'))[0]).toMatchObject({
      format: 'context-lens',
      version: 1,
      schema: LATEST_VERSION
    })
    const fresh = join(dir, 'b.sqlite')
    const back = history('import', out, '--db', fresh)
    expect(JSON.parse(back.stdout)).toEqual({
      format: 'context-lens',
      threads: 2,
      messages: 6,
      skipped: {},
      forks: 0
    })
    const dump = (path: string) => {
      const store = openDatabase(path)
      const rows = store
        .prepare('SELECT thread_id, seq, role, content, created_at FROM messages ORDER BY 1, 2')
        .all()
      store.close()
      return rows
    }
    expect(dump(fresh)).toEqual(dump(db))

    const threadId = (JSON.parse(readFileSync(out, 'utf8')) as { id?: string }[])[1]?.id ?? ''
    const md = join(dir, 'one.md')
    const markdown = history(
      'export',
      '--db',
      db,
      '--format',
      'md',
      '--out',
      md,
      '--thread',
      threadId
    )
    expect(JSON.parse(markdown.stdout)).toMatchObject({ threads: 1 })
    expect(readFileSync(md, 'utf8')).toMatch(/^# 学习 Rust 所有权 🦀\n/)
  })

  it('reports bad input with exit code 1 and a bad command line with 2', () => {
    const dir = tempDir()
    const missing = history('import', join(dir, 'nope.json'), '--db', join(dir, 'x.sqlite'))
    expect(missing.code).toBe(1)
    expect(missing.stderr).toContain('no such file')
    expect(history('import', join(FIXTURES, 'claude-conversations.json')).code).toBe(2)
    expect(
      history('export', '--db', join(dir, 'x.sqlite'), '--format', 'pdf', '--out', 'x').code
    ).toBe(2)
    expect(history('frobnicate').code).toBe(2)
  })
})

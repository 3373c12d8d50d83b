import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { prepareBuild } from '../../../src/main/context/cli/buildInput'
import { EngineRegistry } from '../../../src/main/context/engine/engineRegistry'
import type { BuiltContext } from '@shared/context'

const root = resolve(import.meta.dirname, '../../..')
const example = join(root, 'docs/examples/context-build.json')
const dir = mkdtempSync(join(tmpdir(), 'ctx-cli-'))

function ctx(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [join(root, 'out/cli/ctx.cjs'), ...args], {
    encoding: 'utf8'
  })
  return { status: result.status, stdout: result.stdout, stderr: result.stderr }
}

function file(name: string, content: string): string {
  const path = join(dir, name)
  writeFileSync(path, content)
  return path
}

beforeAll(() => {
  const built = spawnSync(process.execPath, [join(root, 'scripts/build-cli.mjs'), 'ctx'], {
    encoding: 'utf8'
  })
  expect(built.stderr).toBe('')
  expect(built.status).toBe(0)
}, 60_000)

describe('npm run ctx -- build', () => {
  it('prints the same BuiltContext the app builds for the example', () => {
    const { status, stdout, stderr } = ctx('build', '--input', example)
    expect(stderr).toBe('')
    expect(status).toBe(0)
    const built = JSON.parse(stdout) as BuiltContext
    const prepared = prepareBuild(JSON.parse(readFileSync(example, 'utf8')))
    if (!prepared.ok) throw new Error(prepared.issues.join('\n'))
    expect(built).toEqual(new EngineRegistry().build(prepared.request, prepared.config))
    expect(built.trace.map((t) => t.id)).toEqual([
      'system',
      'summary',
      'm1',
      'm2',
      'm3',
      'm4',
      '1',
      '2',
      '3',
      '4',
      '5',
      '6',
      '7',
      '8',
      '9',
      '10',
      '11',
      '12',
      '13',
      'input',
      'pinning'
    ])
    expect(built.messages.at(-1)?.content).toBe(
      '帮我写一个单元测试，覆盖 1.234,56 和 03.02.2024 这两种情况。'
    )
    // The worked example in docs/CONTEXT.md quotes these numbers.
    expect(built.tokenStats.total).toBe(460)
    expect(
      Object.values(built.tokenStats.sections).map((s) => [s.share, s.budget, s.used, s.items])
    ).toEqual([
      [92, 92, 31, 1],
      [46, 46, 46, 1],
      [46, 54, 54, 3],
      [253, 253, 246, 7],
      [23, 35, 35, 1],
      [0, 48, 48, 1],
      [0, 0, 0, 0],
      [0, 0, 0, 0]
    ])
  })

  it('uses defaults for everything optional', () => {
    const { status, stdout } = ctx('build', '--input', file('minimal.json', '{"input":"hi"}'))
    expect(status).toBe(0)
    const built = JSON.parse(stdout) as BuiltContext
    expect(built.messages).toEqual([{ role: 'user', content: 'hi' }])
    // gpt-4o's window less its reply would be 111,616: over the safety net's 85 %.
    expect(built.tokenStats.budget).toBe(108_800)
  })

  it('fails on a missing file', () => {
    const { status, stdout, stderr } = ctx('build', '--input', join(dir, 'nope.json'))
    expect(status).toBe(1)
    expect(stdout).toBe('')
    expect(stderr).toMatch(/nope\.json: no such file/)
  })

  it('fails on invalid JSON', () => {
    const { status, stderr } = ctx('build', '--input', file('broken.json', '{"input": "hi",'))
    expect(status).toBe(1)
    expect(stderr).toMatch(/broken\.json is not valid JSON/)
  })

  it('lists schema errors with their field paths', () => {
    const bad = {
      input: 'hi',
      messages: [
        { id: '1', seq: 1, role: 'robot', content: 'x' },
        { id: '2', seq: 1, role: 'user', content: 'y', pinned: 'yes' }
      ],
      config: { percentages: { recent: 90 } }
    }
    const { status, stderr } = ctx('build', '--input', file('bad.json', JSON.stringify(bad)))
    expect(status).toBe(1)
    expect(stderr).toContain('messages[0].role:')
    expect(stderr).toContain('messages[1].pinned:')
    const sum = ctx(
      'build',
      '--input',
      file('sum.json', JSON.stringify({ input: 'x', config: bad.config }))
    )
    expect(sum.stderr).toContain('config.percentages: the sections add up to 150 %, at most 100 %')
  })

  it('explains its usage on a bad command line', () => {
    expect(ctx().status).toBe(2)
    const missing = ctx('build')
    expect(missing.status).toBe(2)
    expect(missing.stderr).toMatch(/missing --input/)
  })
})

describe('npm run ctx -- simulate', () => {
  const thread = () => {
    const messages = Array.from({ length: 240 }, (_, i) => ({
      id: `m${i}`,
      seq: i + 1,
      role: i % 2 === 0 ? 'user' : 'assistant',
      content: `Turn ${i}: ${'we talk about the budget parser and its decimal commas. '.repeat(3)}`
    }))
    return file('thread.json', JSON.stringify({ system: 'Be brief.', messages }))
  }

  it('replays a thread and reports the cacheable share for either policy', () => {
    const chunked = ctx('simulate', '--input', thread(), '--budget', '4000')
    expect(chunked.stderr).toBe('')
    const report = JSON.parse(chunked.stdout)
    expect(report).toMatchObject({ policy: 'chunked', budget: 4000, turns: 119 })
    expect(report.cacheablePrefixShare).toBeGreaterThan(0.75)
    const sliding = JSON.parse(
      ctx('simulate', '--input', thread(), '--budget', '4000', '--policy', 'sliding').stdout
    )
    expect(sliding.cacheablePrefixShare).toBeLessThan(0.2)
    expect(sliding.cuts.length).toBeGreaterThan(report.cuts.length * 3)
  })

  it('refuses a bad budget or policy on the command line', () => {
    const budget = ctx('simulate', '--input', thread(), '--budget', 'lots')
    expect(budget.status).toBe(2)
    expect(budget.stderr).toMatch(/--budget must be a whole number/)
    const policy = ctx('simulate', '--input', thread(), '--policy', 'fixed')
    expect(policy.status).toBe(2)
    expect(policy.stderr).toMatch(/--policy must be "chunked" or "sliding"/)
  })
})

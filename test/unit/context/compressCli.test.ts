import { spawnSync } from 'node:child_process'
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { protocolProblems } from '../../../src/main/context/compressor/messageGroups'
import {
  fromOpenAi,
  OpenAiMessageSchema,
  type OpenAiMessage
} from '../../../src/main/context/cli/openaiMessages'
import type { CompressOutput } from '../../../src/main/context/cli/compressInput'
import type { CacheOutput } from '../../../src/main/context/cli/promptCacheInput'
import { pollUntil } from '../../support/poll'

const root = resolve(import.meta.dirname, '../../..')
const fixtures = join(import.meta.dirname, 'fixtures')
const compressExample = join(fixtures, 'compress-example.json')
const cacheExample = join(fixtures, 'cache-example.json')
const dir = mkdtempSync(join(tmpdir(), 'ctx-compress-'))
// cli.test.ts builds the same bundle concurrently; run a private copy so a rebuild in flight
// can never hand this file a half-written script.
const cli = join(root, 'out/cli', `ctx-compress-test-${process.pid}.cjs`)

function ctx(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8' })
  return { status: result.status, stdout: result.stdout, stderr: result.stderr }
}

function file(name: string, content: unknown): string {
  const path = join(dir, name)
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content))
  return path
}

const internal = (messages: OpenAiMessage[]) =>
  messages.map((m) => fromOpenAi(OpenAiMessageSchema.parse(m)))

beforeAll(async () => {
  const built = spawnSync(process.execPath, [join(root, 'scripts/build-cli.mjs'), 'ctx'], {
    encoding: 'utf8'
  })
  expect(built.stderr).toBe('')
  expect(built.status).toBe(0)
  // A rebuild in flight may have left the shared bundle half written: copied again until whole.
  await pollUntil(
    () => {
      copyFileSync(join(root, 'out/cli/ctx.cjs'), cli)
      return spawnSync(process.execPath, ['--check', cli]).status === 0
    },
    { what: 'a complete out/cli/ctx.cjs to copy', timeoutMs: 20_000 }
  )
}, 60_000)

afterAll(() => rmSync(cli, { force: true }))

describe('npm run ctx -- compress', () => {
  it('compresses the example reproducibly with the fallback summarizer', () => {
    const first = ctx('compress', '--input', compressExample)
    expect(first.stderr).toBe('')
    expect(first.status).toBe(0)
    expect(ctx('compress', '--input', compressExample).stdout).toBe(first.stdout)
    const output = JSON.parse(first.stdout) as CompressOutput
    const input = JSON.parse(readFileSync(compressExample, 'utf8')) as { messages: OpenAiMessage[] }
    // The numbers docs/CONTEXT.md quotes.
    expect(output.compressed).toBe(true)
    expect(output.tokens).toEqual({ before: 2302, after: 1116, threshold: 2125 })
    expect(output.messages).toHaveLength(13)
    expect(output.messages[0]).toEqual(input.messages[0])
    expect(output.messages[3]!.content).toBe(
      '[tool result of read_file (path: src/import/csv.ts): 58 lines, 4055 chars, pruned]'
    )
    expect(output.messages[4]).toMatchObject({ role: 'user' })
    expect(output.messages[4]!.content).toContain(
      '[Reference only: summary of earlier conversation'
    )
    expect(output.summary).toContain('Summary generated without a model')
    expect(output.summary).toContain('src/import/parseAmount.ts')
    expect(output.messages.at(-1)).toEqual(input.messages.at(-1))
    expect(protocolProblems(internal(output.messages))).toEqual([])
  })

  it('leaves messages under the threshold alone, unless forced or given a focus', () => {
    const input = JSON.parse(readFileSync(compressExample, 'utf8')) as { messages: OpenAiMessage[] }
    const roomy = ctx(
      'compress',
      '--input',
      file('roomy.json', { messages: input.messages, contextLength: 128_000 })
    )
    const output = JSON.parse(roomy.stdout) as CompressOutput
    expect(output).toMatchObject({ compressed: false, summary: null })
    expect(output.note).toMatch(/under the threshold \(2302 of 96000 tokens\)/)
    expect(internal(output.messages)).toEqual(internal(input.messages))

    const focused = JSON.parse(
      ctx(
        'compress',
        '--input',
        file('focus.json', {
          messages: input.messages,
          contextLength: 4_000,
          focusTopic: 'amounts'
        })
      ).stdout
    ) as CompressOutput
    // 2302 tokens are under this window's threshold (3400): the focus makes it a manual run.
    expect(focused.compressed).toBe(true)
    expect(focused.summary).toContain(
      '## Focus: amounts\n- We decided to parse amounts with a locale-aware parser'
    )
  })

  it('fails with a message on bad input', () => {
    const missing = ctx('compress', '--input', file('missing.json', { contextLength: 1000 }))
    expect(missing.status).toBe(1)
    expect(missing.stdout).toBe('')
    expect(missing.stderr).toContain('messages:')
    const bad = ctx(
      'compress',
      '--input',
      file('bad.json', {
        messages: [
          { role: 'user', content: 'hi' },
          { role: 'tool', content: 'x' }
        ],
        summarizer: 'gpt-4o',
        contextLength: -5
      })
    )
    expect(bad.status).toBe(1)
    expect(bad.stderr).toContain('messages[1].tool_call_id: a tool message needs tool_call_id')
    expect(bad.stderr).toContain('summarizer: only "fallback" is available headless')
    expect(bad.stderr).toContain('contextLength:')
    const broken = ctx('compress', '--input', file('broken.json', '{"messages": ['))
    expect(broken.status).toBe(1)
    expect(broken.stderr).toMatch(/broken\.json is not valid JSON/)
  })
})

describe('npm run ctx -- cache', () => {
  it('adds system_and_3 markers with the TTL', () => {
    const { status, stdout, stderr } = ctx('cache', '--input', cacheExample)
    expect(stderr).toBe('')
    expect(status).toBe(0)
    const output = JSON.parse(stdout) as CacheOutput
    expect(output.breakpoints).toEqual([0, 2, 3, 4])
    const marker = { type: 'ephemeral', ttl: '1h' }
    expect(output.messages[0]!.content).toEqual([
      { type: 'text', text: 'You are a careful coding assistant.', cache_control: marker }
    ])
    expect(output.messages[2]).toMatchObject({ content: null, cache_control: marker })
    expect(output.messages[5]).toEqual({ role: 'user', content: '' })
  })

  it('fails with a message on bad input', () => {
    const bad = ctx('cache', '--input', file('ttl.json', { messages: [], ttl: '2h' }))
    expect(bad.status).toBe(1)
    expect(bad.stderr).toContain('ttl: must be "5m" or "1h"')
    const usage = ctx('compress')
    expect(usage.status).toBe(2)
    expect(usage.stderr).toMatch(/missing --input/)
    expect(ctx('squash', '--input', cacheExample).stderr).toMatch(
      /usage: npm run ctx -- <build\|compress\|cache\|simulate>/
    )
  })
})

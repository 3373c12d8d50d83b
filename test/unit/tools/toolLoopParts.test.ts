/**
 * The tool loop's pure parts: the window guard for the exchange, the names sent to the model,
 * and how a server's command is found without passing the app's PATH on.
 */
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { ProviderMessage } from '@shared/context'
import type { ToolDescriptor } from '@shared/tools'
import { PRUNED_MARKER } from '../../../src/main/context/compressor/toolPruning'
import { estimateTokens } from '../../../src/main/context/tokens/tokenEstimate'
import { resolveCommand } from '../../../src/main/services/tools/stdioTransport'
import { fitExchange } from '../../../src/main/services/tools/toolLoop'
import { assignSentNames } from '../../../src/main/services/tools/toolNames'
import { useTempDir } from '../../support/tempDir'

const tempDir = useTempDir()

const exchange = (outputs: string[]): ProviderMessage[] =>
  outputs.flatMap((content, i) => [
    {
      role: 'assistant' as const,
      content: '',
      toolCalls: [{ id: `c${i}`, name: 'read_file', arguments: `{"path":"f${i}.txt"}` }]
    },
    { role: 'tool' as const, content, toolCallId: `c${i}` }
  ])

const cost = (messages: ProviderMessage[]) =>
  messages.reduce((sum, m) => sum + estimateTokens(m.content) + 4, 0)

describe('fitExchange', () => {
  it('leaves an exchange that fits untouched', () => {
    const small = exchange(['a', 'b'])
    expect(fitExchange(small, 1_000, estimateTokens)).toEqual(small)
  })

  it('describes older results first, then cuts the newest, and says so; the input is not changed', () => {
    const big = 'line of output\n'.repeat(2_000)
    const input = exchange([big, big, big])
    const fitted = fitExchange(input, 3_000, estimateTokens)
    expect(cost(fitted)).toBeLessThanOrEqual(3_000)
    const results = fitted.filter((m) => m.role === 'tool')
    expect(results[0]?.content).toContain(PRUNED_MARKER)
    expect(results[0]?.content).toContain('path: f0.txt')
    expect(results[1]?.content).toContain(PRUNED_MARKER)
    expect(results[2]?.content.startsWith('line of output')).toBe(true)
    expect(results[2]?.content).toMatch(/\[output cut here: \d+ of 30000 characters did not fit/)
    expect(input[1]?.content).toBe(big)
  })
})

const tool = (name: string, sourceName: string): ToolDescriptor => ({
  key: `mcp:${sourceName}:${name}`,
  name,
  description: '',
  parameters: {},
  source: sourceName,
  sourceName
})

describe('assignSentNames', () => {
  it('keeps valid unique names, and makes clashes and invalid characters valid and unique', () => {
    const names = [
      ...assignSentNames([
        tool('search', 'Files'),
        tool('search', 'Web Search'),
        tool('read file', 'Files'),
        tool('x'.repeat(80), 'Files')
      ]).keys()
    ]
    expect(names).toEqual(['search', 'Web_Search_search', 'read_file', 'x'.repeat(64)])
    for (const name of names) expect(name).toMatch(/^[A-Za-z0-9_-]{1,64}$/)
  })
})

describe('resolveCommand', () => {
  it('finds a bare name on the PATH the user gave, then on the app PATH', () => {
    const dir = tempDir()
    const userBin = join(dir, 'user-bin')
    const appBin = join(dir, 'app-bin')
    for (const bin of [userBin, appBin]) {
      mkdirSync(bin)
      writeFileSync(join(bin, 'server'), '#!/bin/sh\n')
      chmodSync(join(bin, 'server'), 0o755)
    }
    expect(resolveCommand('server', dir, { PATH: userBin }, appBin)).toBe(join(userBin, 'server'))
    expect(resolveCommand('server', dir, {}, appBin)).toBe(join(appBin, 'server'))
    expect(() => resolveCommand('server', dir, {}, join(dir, 'none'))).toThrow(/was not found/)
  })

  it('takes a relative path from the working folder and refuses a file that cannot run', () => {
    const dir = tempDir()
    writeFileSync(join(dir, 'run.sh'), '#!/bin/sh\n')
    expect(() => resolveCommand('./run.sh', dir, {}, '')).toThrow(/not an executable file/)
    chmodSync(join(dir, 'run.sh'), 0o755)
    expect(resolveCommand('./run.sh', dir, {}, '')).toBe(join(dir, 'run.sh'))
  })
})

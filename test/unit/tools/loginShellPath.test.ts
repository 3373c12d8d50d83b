import { chmodSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import {
  pathBetweenMarks,
  readLoginShellPath
} from '../../../src/main/services/tools/loginShellPath'
import { useTempDir } from '../../support/tempDir'

const tempDir = useTempDir()
const home = process.env.HOME

afterEach(() => {
  process.env.HOME = home
})

describe('readLoginShellPath', () => {
  it("reads PATH as the user's login shell sets it, past whatever the profile prints", async () => {
    const dir = tempDir()
    process.env.HOME = dir
    writeFileSync(
      join(dir, '.profile'),
      'echo "Welcome to the machine"\nexport PATH="/opt/fake-brew/bin:$PATH"\n'
    )
    const path = await readLoginShellPath({ shell: '/bin/sh', platform: 'linux' })
    expect(path).toMatch(/^\/opt\/fake-brew\/bin:/)
  })

  it('gives up after the timeout when a profile hangs', async () => {
    const shell = join(tempDir(), 'slow-shell')
    writeFileSync(shell, '#!/bin/sh\nsleep 10\n')
    chmodSync(shell, 0o755)
    const started = Date.now()
    expect(await readLoginShellPath({ shell, platform: 'linux', timeoutMs: 300 })).toBeNull()
    expect(Date.now() - started).toBeLessThan(3_000)
  })

  it('is not needed on Windows, and a missing shell is no PATH', async () => {
    expect(await readLoginShellPath({ platform: 'win32' })).toBeNull()
    expect(await readLoginShellPath({ shell: '/nonexistent/shell', platform: 'linux' })).toBeNull()
  })

  it('takes only what is between the marks', () => {
    expect(pathBetweenMarks('banner\n__CONTEXT_LENS_PATH__/a:/b__CONTEXT_LENS_PATH__bye')).toBe(
      '/a:/b'
    )
    expect(pathBetweenMarks('no marks here')).toBeNull()
  })
})

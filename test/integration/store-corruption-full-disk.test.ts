/**
 * A damaged store on a disk too full to keep its copy (issue #22): the app never repairs it
 * without the copy, and says so in words, not as `ENOSPC: no space left on device, copyfile`.
 * The disk is made full for the copy alone: every other file operation is the real one.
 */
import * as fs from 'node:fs'
import { describe, expect, it, vi } from 'vitest'
import { CHOICES, openStoreInteractively, type RecoveryDialogs } from '../../src/main/storeRecovery'
import { overwrite, populatedStore } from '../support/storeFiles'
import { useTempDir } from '../support/tempDir'

const disk = vi.hoisted(() => ({ full: false }))

vi.mock('node:fs', async (original) => {
  const real = await original<typeof fs>()
  return {
    ...real,
    copyFileSync: (...args: Parameters<typeof fs.copyFileSync>) => {
      if (disk.full) {
        // As a real copy does: the destination is created and written until the disk is full.
        real.writeFileSync(args[1], 'the first pages')
        throw Object.assign(
          new Error(`ENOSPC: no space left on device, copyfile '${String(args[0])}'`),
          {
            code: 'ENOSPC'
          }
        )
      }
      return real.copyFileSync(...args)
    }
  }
})

const tempDir = useTempDir()

describe('a damaged store on a full disk', () => {
  it('is left as it is, and the dialog says the disk is full and how much room is needed', async () => {
    const store = await populatedStore(tempDir(), 20)
    overwrite(store.path, 0, Buffer.from('garbage garbage!'))
    const before = fs.readFileSync(store.path)
    const asked: { message: string; detail: string; buttons: string[] }[] = []
    const dialogs: RecoveryDialogs = {
      ask: (dialog) => {
        asked.push(dialog)
        return dialog.buttons.indexOf(CHOICES.quit)
      }
    }
    disk.full = true
    try {
      expect(await openStoreInteractively(store.path, {}, dialogs)).toBeNull()
    } finally {
      disk.full = false
    }
    expect(asked).toHaveLength(1)
    const [dialog] = asked
    expect(dialog?.message).toBe('The disk is full.')
    expect(dialog?.detail).toMatch(/damaged, and a copy of it must be kept before it is repaired/)
    expect(dialog?.detail).toMatch(/about \d+ MB free/)
    expect(dialog?.detail).not.toMatch(/ENOSPC|copyfile/)
    expect(dialog?.buttons).toEqual([CHOICES.retry, CHOICES.quit])
    // Nothing was changed, and no half-written copy lies beside it.
    expect(fs.readFileSync(store.path).equals(before)).toBe(true)
    expect(fs.readdirSync(tempDir()).filter((name) => name.includes('.corrupt-'))).toEqual([])
  })
})

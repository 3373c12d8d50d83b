/**
 * A damaged store on a disk too full to keep its copy (issue #22): the app never repairs it
 * without the copy, and says so in words, not as `ENOSPC: no space left on device, copyfile`.
 * The disk is made full for the copy alone: every other file operation is the real one.
 */
import * as fs from 'node:fs'
import { describe, expect, it, vi } from 'vitest'
import { openStoreInteractively, type RecoveryDialogs } from '../../src/main/storeRecovery'
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
  it.each([
    {
      language: 'en' as const,
      title: 'The disk is full.',
      why: /damaged, and a copy of it must be kept before it is repaired: that needs about (\d+) MB free/,
      buttons: ['Try again', 'Quit']
    },
    {
      language: 'zh-CN' as const,
      title: '磁盘已满。',
      why: /文件已损坏，修复前必须先保存一份副本：这需要大约 (\d+) MB 的可用空间/,
      buttons: ['重试', '退出']
    }
  ])(
    'is left as it is, and the dialog says the disk is full and how much room is needed ($language)',
    async ({ language, title, why, buttons }) => {
      const store = await populatedStore(tempDir(), 20)
      overwrite(store.path, 0, Buffer.from('garbage garbage!'))
      const before = fs.readFileSync(store.path)
      const asked: { message: string; detail: string; buttons: string[] }[] = []
      const dialogs: RecoveryDialogs = {
        language,
        ask: (dialog) => {
          asked.push(dialog)
          return dialog.buttons.length - 1 // Quit
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
      expect(dialog?.message).toBe(title)
      expect(dialog?.detail).toContain(store.path)
      // The copy needs the file's size, rounded up to whole MB: the same figure in each language.
      const megabytes = Math.ceil(fs.statSync(store.path).size / 1_000_000)
      expect(dialog?.detail).toMatch(why)
      expect(Number(why.exec(dialog?.detail ?? '')?.[1])).toBe(megabytes)
      expect(dialog?.detail).not.toMatch(/ENOSPC|copyfile/)
      expect(dialog?.buttons).toEqual(buttons)
      // Nothing was changed, and no half-written copy lies beside it.
      expect(fs.readFileSync(store.path).equals(before)).toBe(true)
      expect(fs.readdirSync(tempDir()).filter((name) => name.includes('.corrupt-'))).toEqual([])
    }
  )
})

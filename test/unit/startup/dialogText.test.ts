import { describe, expect, it } from 'vitest'
import type { SalvageReport } from '@shared/domain'
import { DIALOG_TEXT, languageOf } from '../../../src/main/startup/dialogText'
import { describeOpenFailure } from '../../../src/main/store/openFailureText'
import { describeSalvage } from '../../../src/main/storeRecovery'

const table = (name: string, copied: number, unreadable = 0, unknownLoss = false) => ({
  table: name,
  copied,
  unreadable,
  invalid: 0,
  unknownLoss
})

const report: SalvageReport = {
  headerRepaired: false,
  schemaReadable: true,
  tables: [
    table('threads', 1),
    table('messages', 118, 2),
    table('memories', 0, 0, true),
    table('mcp_servers', 1)
  ],
  threadsRecreated: 1
}

describe('the language of the store dialogs', () => {
  it('is Chinese for any zh system locale and English for every other', () => {
    for (const locale of ['zh', 'zh-CN', 'zh-TW', 'zh-Hans-CN', 'ZH_cn']) {
      expect(languageOf(locale)).toBe('zh-CN')
    }
    for (const locale of ['en-US', 'de', 'ja-JP', '', undefined])
      expect(languageOf(locale)).toBe('en')
  })

  it('the recovery report says the same counts in English and in Chinese', () => {
    expect(describeSalvage(report, '/d/store.sqlite.corrupt-1').split('\n')).toEqual([
      'Recovered: 1 conversation, 118 messages, 1 MCP server.',
      'Could not be read: 2 messages, all memories.',
      '1 conversation lost its title and is now called "Recovered conversation".',
      'Search and memory recall are rebuilt in the background.',
      'The damaged file is kept unchanged at /d/store.sqlite.corrupt-1.'
    ])
    expect(describeSalvage(report, '/d/store.sqlite.corrupt-1', 'zh-CN').split('\n')).toEqual([
      '已恢复：1 个对话、118 条消息、1 个 MCP 服务器。',
      '无法读取：2 条消息、全部记忆。',
      '1 个对话的标题已丢失，现在名为“Recovered conversation”。',
      '搜索和记忆召回会在后台重建。',
      '损坏的文件原样保留在 /d/store.sqlite.corrupt-1。'
    ])
    const nothing = { ...report, schemaReadable: false }
    expect(describeSalvage(nothing, '/b')).toMatch(/^Nothing could be read from the damaged file/)
    expect(describeSalvage(nothing, '/b', 'zh-CN')).toMatch(/^损坏的文件中没有任何内容可以读取/)
  })

  it('a damaged file on a full disk: the room its copy needs, in MB, in both languages', () => {
    const facts = {
      kind: 'full' as const,
      path: '/d/store.sqlite',
      backupPath: null,
      detail: 'ENOSPC: the copy needs about 37 MB',
      reason: { kind: 'backup_needs_space' as const, megabytes: 37 }
    }
    expect(describeOpenFailure(facts, 'en')).toBe(
      'The disk that holds /d/store.sqlite is full, so the conversation database cannot be opened (it is damaged, and a copy of it must be kept before it is repaired: that needs about 37 MB free). Free some space and try again; nothing in the file was changed.'
    )
    expect(describeOpenFailure(facts, 'zh-CN')).toBe(
      '存放 /d/store.sqlite 的磁盘已满，无法打开对话数据库（文件已损坏，修复前必须先保存一份副本：这需要大约 37 MB 的可用空间）。请腾出一些空间后再试；文件里的内容没有任何改动。'
    )
  })

  it('the Chinese dialogs leave no English sentence behind', () => {
    const zh = DIALOG_TEXT['zh-CN']
    const texts = [
      ...Object.values(zh.choices),
      ...Object.values(zh.titles),
      zh.recoveryFinished,
      zh.recoveryFinishedRestart,
      zh.damagedWhileRunning('/p', '/b')
    ]
    // Only the product's name and the paths may be in Latin letters.
    for (const text of texts)
      expect(text.replace(/Context Lens|\/[pb]\b/g, '')).not.toMatch(/[A-Za-z]/)
  })
})

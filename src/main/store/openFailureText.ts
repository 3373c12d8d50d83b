import type { Language } from '@shared/domain'

/**
 * Why the store could not be opened, in each language the app speaks. The English text is also
 * the DatabaseOpenError's message (logs, tests); the dialogs pick the user's language
 * (startup/dialogText.ts). Raw system text (`detail`, paths) is shown as it came.
 *
 * - `corrupt`: damaged; a byte-for-byte backup exists and salvage can be offered.
 * - `empty`: the file exists but holds 0 bytes, so whatever it held is gone; never treated as
 *   a new store, because that would hide the loss.
 * - `readonly`, `full`: the file or its folder cannot be written, or the disk is full.
 */
export type OpenFailureKind = 'corrupt' | 'unreadable' | 'too_new' | 'readonly' | 'full' | 'empty'

/** What an open failure is known to be; `reason`, when set, replaces the raw `detail`. */
export interface OpenFailureFacts {
  kind: OpenFailureKind
  path: string
  backupPath: string | null
  /** SQLite's or the system's own words. */
  detail: string
  reason?:
    | { kind: 'not_writable' }
    /** A damaged file on a full disk: its copy, kept before any repair, needs this much room. */
    | { kind: 'backup_needs_space'; megabytes: number }
    | { kind: 'schema_too_new'; found: number; known: number }
}

interface Wording {
  notWritable: string
  backupNeedsSpace(megabytes: number): string
  schemaTooNew(found: number, known: number): string
  explain: Record<OpenFailureKind, (path: string, why: string, backupPath: string | null) => string>
}

const WORDING: Record<Language, Wording> = {
  en: {
    notWritable: 'the file may not be written',
    backupNeedsSpace: (mb) =>
      `it is damaged, and a copy of it must be kept before it is repaired: that needs about ${mb} MB free`,
    schemaTooNew: (found, known) =>
      `This database was written by a newer version of the app (schema ${found}, this app knows ${known}). Update the app to open it.`,
    explain: {
      corrupt: (path, why, backup) =>
        `The conversation database at ${path} is damaged and cannot be read (${why}). A copy of it was saved to ${backup}.`,
      unreadable: (path, why) =>
        `The conversation database at ${path} cannot be opened (${why}). Check that the file exists and that you have permission to read and write it.`,
      too_new: (_path, why) => why,
      readonly: (path, why) =>
        `The conversation database at ${path} is read-only (${why}). Context Lens writes to the file and keeps a journal beside it, so both the file and its folder must be writable.`,
      full: (path, why) =>
        `The disk that holds ${path} is full, so the conversation database cannot be opened (${why}). Free some space and try again; nothing in the file was changed.`,
      empty: (path) =>
        `The conversation database at ${path} is an empty file (0 bytes): it was cut short, for example by a crash, a full disk or a sync tool, and holds no conversations. If you have a copy of it, put it back at that path and try again.`
    }
  },
  'zh-CN': {
    notWritable: '没有写入这个文件的权限',
    backupNeedsSpace: (mb) =>
      `文件已损坏，修复前必须先保存一份副本：这需要大约 ${mb} MB 的可用空间`,
    schemaTooNew: (found, known) =>
      `这个数据库是由更新版本的应用写入的（数据库版本 ${found}，本应用最高支持 ${known}）。请更新应用后再打开。`,
    explain: {
      corrupt: (path, why, backup) =>
        `位于 ${path} 的对话数据库已损坏，无法读取（${why}）。已将它的副本保存到 ${backup}。`,
      unreadable: (path, why) =>
        `无法打开位于 ${path} 的对话数据库（${why}）。请确认这个文件存在，并且你有读写它的权限。`,
      too_new: (_path, why) => why,
      readonly: (path, why) =>
        `位于 ${path} 的对话数据库是只读的（${why}）。Context Lens 需要写入这个文件，并在它旁边保存日志文件，所以文件和它所在的文件夹都必须可写。`,
      full: (path, why) =>
        `存放 ${path} 的磁盘已满，无法打开对话数据库（${why}）。请腾出一些空间后再试；文件里的内容没有任何改动。`,
      empty: (path) =>
        `位于 ${path} 的对话数据库是一个空文件（0 字节）：它在写入途中被截断了，比如程序崩溃、磁盘已满或同步软件造成的，里面已经没有任何对话。如果你有它的副本，请把副本放回这个位置，然后再试一次。`
    }
  }
}

/** The open failure in words, in `language`. */
export function describeOpenFailure(facts: OpenFailureFacts, language: Language): string {
  const wording = WORDING[language]
  return wording.explain[facts.kind](facts.path, whyIn(wording, facts), facts.backupPath)
}

function whyIn(wording: Wording, { reason, detail }: OpenFailureFacts): string {
  switch (reason?.kind) {
    case 'not_writable':
      return wording.notWritable
    case 'backup_needs_space':
      return wording.backupNeedsSpace(reason.megabytes)
    case 'schema_too_new':
      return wording.schemaTooNew(reason.found, reason.known)
    case undefined:
      return detail
  }
}

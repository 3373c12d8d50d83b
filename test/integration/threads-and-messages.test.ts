import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { Worker } from 'node:worker_threads'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base'
import { AppError } from '@shared/result'
import { openDatabase } from '../../src/main/store/database'
import { servicesIn, steppingClock } from '../support/services'
import { useTempDir } from '../support/tempDir'

const tempDir = useTempDir()

describe('threads', () => {
  it('lists threads by last activity: a new message or a rename moves a thread to the top', async () => {
    const { services } = servicesIn(tempDir(), steppingClock())
    const a = services.threads.create('A')
    const b = services.threads.create('B')
    const c = services.threads.create('C')
    expect(services.threads.list().map((t) => t.title)).toEqual(['C', 'B', 'A'])
    await services.chat.send(a.id, 'hello again')
    expect(services.threads.list().map((t) => t.title)).toEqual(['A', 'C', 'B'])
    services.threads.rename(b.id, 'B renamed')
    expect(services.threads.list().map((t) => t.title)).toEqual(['B renamed', 'A', 'C'])
    expect(services.threads.list()[1]).toMatchObject({
      messageCount: 1,
      lastMessagePreview: 'hello again'
    })
    expect(c.settings).toEqual({ autoTitle: false })
  })

  it('names an untitled thread after its first message, once, and never overrides a rename', async () => {
    const { services } = servicesIn(tempDir(), steppingClock())
    const untitled = services.threads.create()
    expect(untitled.title).toBe('')
    await services.chat.send(
      untitled.id,
      '  帮我规划一下\n下周去杭州的行程，预算三千元以内，喜欢安静的民宿和茶园  '
    )
    await services.chat.send(untitled.id, 'second message does not rename')
    expect(services.threads.get(untitled.id).title).toBe(
      '帮我规划一下 下周去杭州的行程，预算三千元以内，喜欢安静的民宿和茶园'
    )

    const named = services.threads.create()
    services.threads.rename(named.id, 'Mine')
    await services.chat.send(named.id, 'first message')
    expect(services.threads.get(named.id).title).toBe('Mine')
  })

  it('reports a missing thread as not_found', async () => {
    const { services } = servicesIn(tempDir())
    const missing = '00000000-0000-4000-8000-000000000000'
    for (const action of [
      () => services.threads.rename(missing, 'x'),
      () => services.threads.delete(missing),
      () => services.messages.list(missing)
    ]) {
      expect(action).toThrow(AppError)
      expect(action).toThrow(/no longer exists/)
    }
    await expect(services.chat.send(missing, 'hi')).rejects.toThrow(/no longer exists/)
  })

  it('publishes threads:changed for every change the sidebar must show', async () => {
    const { services, published } = servicesIn(tempDir())
    const t = services.threads.create()
    await services.chat.send(t.id, 'x')
    services.threads.rename(t.id, 'y')
    services.threads.delete(t.id)
    const changed = { event: 'threads:changed', payload: { threadId: t.id } }
    // The send's announcement follows its build: it wakes background work (indexing) that
    // must not compete with the turn.
    expect(published).toEqual([
      changed,
      { event: 'context:built', payload: expect.objectContaining({ threadId: t.id }) },
      changed,
      changed,
      changed
    ])
  })
})

describe('messages', () => {
  it('stores the user message with its o200k token count cached at insert, and says no model is configured', async () => {
    const dir = tempDir()
    const { db, services } = servicesIn(dir)
    const thread = services.threads.create('t')
    const text = 'Mixed 中英文 text: 我们明天 meet at 10am, ok? 🚀'
    const outcome = await services.chat.send(thread.id, text)
    expect(outcome.status).toBe('no_model_configured')
    expect(outcome.message).toMatchObject({
      seq: 1,
      role: 'user',
      content: text,
      pinned: false,
      excluded: false
    })
    expect(outcome.message.tokenCount).toBe(countTokens(text))
    db.close()

    const reopened = openDatabase(join(dir, 'store.sqlite'))
    const row = reopened.prepare('SELECT content, token_count FROM messages').get()
    expect(row).toEqual({ content: text, token_count: countTokens(text) })
    reopened.close()
  })

  it('pins and excludes messages, and keeps each flag when only the other changes', async () => {
    const { services } = servicesIn(tempDir())
    const thread = services.threads.create('t')
    const { message } = await services.chat.send(thread.id, 'keep me')
    expect(services.messages.setFlags(message.id, { pinned: true })).toMatchObject({
      pinned: true,
      excluded: false
    })
    expect(services.messages.setFlags(message.id, { excluded: true })).toMatchObject({
      pinned: true,
      excluded: true
    })
    expect(() => services.messages.setFlags(999_999, { pinned: true })).toThrow(/no longer exists/)
  })

  it('gives concurrent writers from separate connections unique, gap-free sequence numbers', async () => {
    const dir = tempDir()
    const path = join(dir, 'store.sqlite')
    const { services, db } = servicesIn(dir)
    const thread = services.threads.create('busy')
    db.close()

    const repositoryJs = ts.transpileModule(
      readFileSync(join(import.meta.dirname, '../../src/main/store/messageRepository.ts'), 'utf8'),
      { compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 } }
    ).outputText
    const writer = `
      const { workerData, parentPort } = require('node:worker_threads')
      const Database = require(workerData.betterSqlite)
      const module = { exports: {} }
      new Function('module', 'exports', 'require', workerData.repositoryJs)(module, module.exports, require)
      const db = new Database(workerData.path)
      db.pragma('busy_timeout = 10000')
      db.pragma('foreign_keys = ON')
      const repo = new module.exports.MessageRepository(db)
      for (let i = 0; i < workerData.count; i++) {
        repo.append({ threadId: workerData.threadId, role: 'user', content: workerData.name + ' ' + i, tokenCount: 3, createdAt: Date.now() })
      }
      db.close()
      parentPort.postMessage('done')
    `
    const count = 250
    const run = (name: string) =>
      new Promise<void>((resolve, reject) => {
        const worker = new Worker(writer, {
          eval: true,
          workerData: {
            path,
            threadId: thread.id,
            count,
            name,
            repositoryJs,
            betterSqlite: require.resolve('better-sqlite3')
          }
        })
        worker.once('message', () => resolve())
        worker.once('error', reject)
      })
    await Promise.all([run('left'), run('right'), run('third')])

    const check = openDatabase(path)
    const seqs = check
      .prepare('SELECT seq FROM messages WHERE thread_id = ? ORDER BY seq')
      .pluck()
      .all(thread.id)
    expect(seqs).toEqual(Array.from({ length: 3 * count }, (_, i) => i + 1))
    const perWriter = check
      .prepare(
        "SELECT substr(content, 1, instr(content, ' ') - 1) AS w, count(*) AS n FROM messages GROUP BY w ORDER BY w"
      )
      .all()
    expect(perWriter).toEqual([
      { w: 'left', n: count },
      { w: 'right', n: count },
      { w: 'third', n: count }
    ])
    check.close()
  })
})

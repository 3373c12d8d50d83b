import { join } from 'node:path'
import Database from 'better-sqlite3'
import { describe, expect, it } from 'vitest'
import { openDatabase } from '../../src/main/store/database'
import { migrate } from '../../src/main/store/migrations'
import { MessageRepository } from '../../src/main/store/messageRepository'
import { SummaryRepository } from '../../src/main/store/summaryRepository'
import { useTempDir } from '../support/tempDir'

const tempDir = useTempDir()

describe('the cost-parts and summary-versions migration', () => {
  it('upgrades a version 9 store: its summaries become each thread’s first known version', () => {
    const path = join(tempDir(), 'store.sqlite')
    const old = new Database(path)
    migrate(old, 9)
    old.exec(`
      INSERT INTO threads (id, title, created_at, updated_at) VALUES ('t1', 'Parser', 1, 1);
      INSERT INTO messages (thread_id, seq, role, content, token_count, created_at)
        VALUES ('t1', 1, 'user', 'Refactor the parser', 4, 1);
      INSERT INTO messages (thread_id, seq, role, content, token_count, created_at)
        VALUES ('t1', 2, 'assistant', 'Done', 1, 2);
      INSERT INTO message_usage (message_id, model_id, status, prompt_tokens, completion_tokens,
        cache_read_tokens, cache_write_tokens, cost)
        VALUES (2, 'gpt-4o', 'complete', 10, 1, 0, 0, 0.0001);
      INSERT INTO thread_summaries (thread_id, content, last_message_seq, version, source, updated_at)
        VALUES ('t1', 'We refactor the parser.', 1, 4, 'user', 7);
    `)
    old.close()

    const db = openDatabase(path)
    const summaries = new SummaryRepository(db)
    expect(summaries.get('t1')).toEqual({
      threadId: 't1',
      content: 'We refactor the parser.',
      lastMessageSeq: 1,
      version: 4,
      source: 'user',
      updatedAt: 7
    })
    expect(summaries.versions('t1')).toEqual([
      expect.objectContaining({ version: 4, kind: 'edit', content: 'We refactor the parser.' })
    ])
    // Stored replies keep their cost; the parts are unknown for them, not invented.
    const [user, reply] = new MessageRepository(db).listByThread('t1')
    expect(user?.summaryExempt).toBeUndefined()
    expect(reply?.reply?.cost).toBe(0.0001)
    expect(reply?.reply?.costParts).toBeUndefined()

    // The next write is the next version, in the history as well; stale marks only covered seqs.
    summaries.put('t1', { content: 'v5', lastMessageSeq: 2, source: 'model' }, 8)
    expect(summaries.markStale('t1', 3)).toBeNull()
    expect(summaries.markStale('t1', 2)?.staleSinceSeq).toBe(2)
    expect(summaries.markStale('t1', 1)?.staleSinceSeq).toBe(1)
    expect(summaries.versions('t1').map((v) => v.version)).toEqual([5, 4])
    // A stale rewrite starts from the newest version that covers only unchanged messages.
    expect(summaries.newestVersionBefore('t1', 2)?.version).toBe(4)
    expect(summaries.newestVersionBefore('t1', 3)?.version).toBe(5)
    expect(summaries.newestVersionBefore('t1', 1)).toBeNull()
    db.close()
  })
})

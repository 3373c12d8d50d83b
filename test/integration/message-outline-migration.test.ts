import { join } from 'node:path'
import Database from 'better-sqlite3'
import { describe, expect, it } from 'vitest'
import { openDatabase } from '../../src/main/store/database'
import { MessageOutlines } from '../../src/main/store/messageOutline'
import { migrate } from '../../src/main/store/migrations'
import { OUTLINE_FLAGS_SQL } from '../../src/main/store/schema/messageOutlineIndex'
import { useTempDir } from '../support/tempDir'

const tempDir = useTempDir()

describe('the outline index migration', () => {
  it('upgrades a version 19 store, whatever its messages hold, and reads their outline', () => {
    const path = join(tempDir(), 'store.sqlite')
    const old = new Database(path)
    migrate(old, 19)
    old.exec(`
      INSERT INTO threads (id, title, created_at, updated_at) VALUES ('t1', 'Parser', 1, 1);
      INSERT INTO messages (thread_id, seq, role, content, tool_calls, token_count, created_at, pinned)
        VALUES ('t1', 1, 'user', 'Refactor the parser', NULL, 4, 1, 1),
               ('t1', 2, 'assistant', '', '[{"id":"c1","name":"read","arguments":"{}"}]', 9, 2, 0),
               ('t1', 3, 'tool', 'file text', NULL, 3, 3, 0),
               ('t1', 4, 'assistant', char(12288, 10), NULL, 1, 4, 0),
               ('t1', 5, 'assistant', 'Done', '{}', 1, 5, 0);
    `)
    old.close()

    const db = openDatabase(path)
    const outline = new MessageOutlines(db).after('t1', 0, 10)
    expect(
      outline.map((m) => [
        m.seq,
        m.role,
        m.tokenCount,
        m.pinned,
        m.content,
        m.toolCalls?.length ?? 0
      ])
    ).toEqual([
      [1, 'user', 4, true, '…', 0],
      [2, 'assistant', 9, false, '', 1],
      [3, 'tool', 3, false, '…', 0],
      [4, 'assistant', 1, false, '', 0], // an ideographic space and a newline: no visible text
      [5, 'assistant', 1, false, '…', 0] // tool calls that are not a list count as none
    ])
    // Read from the index alone: an expression that drifted from the index's would read rows.
    const plan = db
      .prepare(
        `EXPLAIN QUERY PLAN SELECT seq, id, token_count, ${OUTLINE_FLAGS_SQL} FROM messages
          WHERE thread_id = ? AND seq > ? ORDER BY seq LIMIT ?`
      )
      .all('t1', 0, 10) as { detail: string }[]
    expect(plan.map((row) => row.detail).join('; ')).toMatch(/COVERING INDEX messages_outline/)
    db.close()
  })
})

import type { Migration } from '../migrations'

/**
 * How much of a message full-text search indexes: its first 32,000 characters. Indexing is
 * written inside the message's INSERT, on the main thread, and costs about 1 µs per distinct
 * trigram (a 32,000-character base64 paste 30-40 ms here, 2 M characters 5.6 s); prose of that
 * length costs 2 ms. Search finds a long paste by its head; the message itself is stored whole.
 */
export const INDEXED_CHARS = 32_000

export const SEARCH_INDEX_BOUNDS: readonly Migration[] = [
  {
    version: 19,
    name: 'full-text search indexes the first 32,000 characters of a message',
    // The external-content index is kept by triggers; each must index and un-index the same
    // text, so all three read substr(content, 1, INDEXED_CHARS). Rows already indexed whole
    // are re-indexed by their head, with the full text they were indexed by removed first.
    sql: `
      DROP TRIGGER messages_fts_insert;
      DROP TRIGGER messages_fts_delete;
      DROP TRIGGER messages_fts_update;
      INSERT INTO messages_fts (messages_fts, rowid, content)
        SELECT 'delete', id, content FROM messages WHERE length(content) > ${INDEXED_CHARS};
      INSERT INTO messages_fts (rowid, content)
        SELECT id, substr(content, 1, ${INDEXED_CHARS}) FROM messages
         WHERE length(content) > ${INDEXED_CHARS};
      CREATE TRIGGER messages_fts_insert AFTER INSERT ON messages BEGIN
        INSERT INTO messages_fts (rowid, content)
          VALUES (new.id, substr(new.content, 1, ${INDEXED_CHARS}));
      END;
      CREATE TRIGGER messages_fts_delete AFTER DELETE ON messages BEGIN
        INSERT INTO messages_fts (messages_fts, rowid, content)
          VALUES ('delete', old.id, substr(old.content, 1, ${INDEXED_CHARS}));
      END;
      CREATE TRIGGER messages_fts_update AFTER UPDATE OF content ON messages BEGIN
        INSERT INTO messages_fts (messages_fts, rowid, content)
          VALUES ('delete', old.id, substr(old.content, 1, ${INDEXED_CHARS}));
        INSERT INTO messages_fts (rowid, content)
          VALUES (new.id, substr(new.content, 1, ${INDEXED_CHARS}));
      END;
    `
  }
]

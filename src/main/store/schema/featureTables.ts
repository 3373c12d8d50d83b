/**
 * Migrations 5-13, one per feature that needed tables: reply usage, summaries, empty replies,
 * per-thread build stats, forks, import keys, cost parts and summary versions, files, MCP
 * servers. Never edited once released (see migrations.ts).
 */
import type { Migration } from '../migrations'

export const FEATURE_TABLES: readonly Migration[] = [
  {
    version: 5,
    name: 'model replies: provider, model, status, usage and cost per assistant message',
    // One row per assistant message a model produced. Usage is what the provider reported
    // (null when it reported none, e.g. a stopped reply); cost is null when a price is unknown.
    sql: `
      CREATE TABLE message_usage (
        message_id              INTEGER PRIMARY KEY REFERENCES messages (id) ON DELETE CASCADE,
        provider_id             TEXT,
        model_id                TEXT NOT NULL,
        status                  TEXT NOT NULL CHECK (status IN ('complete', 'stopped', 'failed')),
        finish_reason           TEXT,
        prompt_tokens           INTEGER CHECK (prompt_tokens IS NULL OR prompt_tokens >= 0),
        completion_tokens       INTEGER CHECK (completion_tokens IS NULL OR completion_tokens >= 0),
        cache_read_tokens       INTEGER CHECK (cache_read_tokens IS NULL OR cache_read_tokens >= 0),
        cache_write_tokens      INTEGER CHECK (cache_write_tokens IS NULL OR cache_write_tokens >= 0),
        cost                    REAL,
        estimated_prompt_tokens INTEGER,
        superseded_by           INTEGER REFERENCES messages (id) ON DELETE SET NULL
      );
    `
  },
  {
    version: 6,
    name: 'thread summaries: the builder summary section, updated in the background',
    // One row per thread. Messages with seq <= last_message_seq are represented by the summary.
    // source: a model wrote it, the extractive fallback did, or the user edited it.
    sql: `
      CREATE TABLE thread_summaries (
        thread_id        TEXT PRIMARY KEY REFERENCES threads (id) ON DELETE CASCADE,
        content          TEXT NOT NULL,
        last_message_seq INTEGER NOT NULL CHECK (last_message_seq >= 0),
        version          INTEGER NOT NULL CHECK (version >= 1),
        source           TEXT NOT NULL CHECK (source IN ('model', 'fallback', 'user')),
        updated_at       INTEGER NOT NULL
      );
    `
  },
  {
    version: 7,
    name: "model replies: an 'empty' status for replies that finished without any text",
    // SQLite cannot change a CHECK constraint in place, so the table is rebuilt (nothing
    // references it). Empty replies stored before this as 'complete' are marked for what
    // they were: the chat shows them with Retry and the builder never sends them back.
    sql: `
      CREATE TABLE message_usage_v7 (
        message_id              INTEGER PRIMARY KEY REFERENCES messages (id) ON DELETE CASCADE,
        provider_id             TEXT,
        model_id                TEXT NOT NULL,
        status                  TEXT NOT NULL
                                CHECK (status IN ('complete', 'stopped', 'failed', 'empty')),
        finish_reason           TEXT,
        prompt_tokens           INTEGER CHECK (prompt_tokens IS NULL OR prompt_tokens >= 0),
        completion_tokens       INTEGER CHECK (completion_tokens IS NULL OR completion_tokens >= 0),
        cache_read_tokens       INTEGER CHECK (cache_read_tokens IS NULL OR cache_read_tokens >= 0),
        cache_write_tokens      INTEGER CHECK (cache_write_tokens IS NULL OR cache_write_tokens >= 0),
        cost                    REAL,
        estimated_prompt_tokens INTEGER,
        superseded_by           INTEGER REFERENCES messages (id) ON DELETE SET NULL
      );
      INSERT INTO message_usage_v7 SELECT * FROM message_usage;
      DROP TABLE message_usage;
      ALTER TABLE message_usage_v7 RENAME TO message_usage;
      UPDATE message_usage SET status = 'empty'
       WHERE status = 'complete'
         AND message_id IN (
           SELECT id FROM messages WHERE trim(content) = '' AND tool_calls IS NULL
         );
    `
  },
  {
    version: 8,
    name: 'the newest build per thread with its per-section token stats, for the sidebar',
    // The sidebar lists every thread with its newest build's tokenStats. A build row holds the
    // whole payload and trace (often hundreds of kB, in overflow pages SQLite walks to reach any
    // column after them), so 1,000 threads read from context_builds take a tenth of a second or
    // more. This small table keeps one row per thread, written with each build.
    sql: `
      CREATE TABLE thread_build_stats (
        thread_id  TEXT PRIMARY KEY REFERENCES threads (id) ON DELETE CASCADE,
        build_id   INTEGER NOT NULL,
        created_at INTEGER NOT NULL,
        stats      TEXT NOT NULL CHECK (json_valid(stats))
      );
      INSERT INTO thread_build_stats (thread_id, build_id, created_at, stats)
        SELECT thread_id, id, created_at, json_extract(built, '$.tokenStats') FROM context_builds
         WHERE id IN (SELECT max(id) FROM context_builds GROUP BY thread_id)
           AND json_type(built, '$.tokenStats') = 'object';
    `
  },
  {
    version: 9,
    name: 'fork lineage: the thread and message a thread was branched from',
    // Set by "Branch from here" and by imports that bring abandoned branches in as forks. The
    // origin may be deleted later; the fork keeps its own copy of the history, so only the link
    // is cleared.
    sql: `
      ALTER TABLE threads ADD COLUMN forked_from_thread_id TEXT
        REFERENCES threads (id) ON DELETE SET NULL;
      ALTER TABLE threads ADD COLUMN forked_from_seq INTEGER;
      CREATE INDEX threads_by_fork_origin ON threads (forked_from_thread_id)
        WHERE forked_from_thread_id IS NOT NULL;
    `
  },
  {
    version: 10,
    name: 'import keys: which conversation of which export file made which thread',
    // One row per imported conversation (or abandoned branch), so importing the same file twice
    // adds nothing. The key goes with its thread: a deleted import comes back if imported again.
    sql: `
      CREATE TABLE import_keys (
        key         TEXT PRIMARY KEY,
        thread_id   TEXT NOT NULL REFERENCES threads (id) ON DELETE CASCADE,
        imported_at INTEGER NOT NULL
      );
      CREATE INDEX import_keys_by_thread ON import_keys (thread_id);
    `
  },
  {
    version: 11,
    name: 'cost by part per reply; summary versions, staleness and exempt messages',
    // cost_parts: the reply's cost split into uncached input, cache reads, cache writes and
    // output at the prices of the day it was sent (prices change; a stored reply's cost must not).
    // summary_versions: every summary ever stored, with the messages it folded in, so the user
    // can compare a version with what it replaced and restore an older one. The rows of
    // thread_summaries written before this migration become each thread's first known version.
    // stale_since_seq: the oldest covered message edited or excluded since the summary was
    // written (null while it is current). summary_exempt: kept out of every summary rewrite.
    sql: `
      ALTER TABLE message_usage ADD COLUMN cost_parts TEXT
        CHECK (cost_parts IS NULL OR json_valid(cost_parts));
      ALTER TABLE messages ADD COLUMN summary_exempt INTEGER NOT NULL DEFAULT 0
        CHECK (summary_exempt IN (0, 1));
      ALTER TABLE thread_summaries ADD COLUMN stale_since_seq INTEGER;
      CREATE TABLE summary_versions (
        id               INTEGER PRIMARY KEY,
        thread_id        TEXT NOT NULL REFERENCES threads (id) ON DELETE CASCADE,
        version          INTEGER NOT NULL CHECK (version >= 1),
        content          TEXT NOT NULL,
        last_message_seq INTEGER NOT NULL CHECK (last_message_seq >= 0),
        source           TEXT NOT NULL CHECK (source IN ('model', 'fallback', 'user')),
        kind             TEXT NOT NULL CHECK (kind IN ('auto', 'compress', 'edit', 'restore')),
        folded_ids       TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(folded_ids)),
        replaced_tokens  INTEGER NOT NULL DEFAULT 0 CHECK (replaced_tokens >= 0),
        summary_tokens   INTEGER NOT NULL DEFAULT 0 CHECK (summary_tokens >= 0),
        created_at       INTEGER NOT NULL,
        UNIQUE (thread_id, version)
      );
      INSERT INTO summary_versions (thread_id, version, content, last_message_seq, source, kind, created_at)
        SELECT thread_id, version, content, last_message_seq, source,
               CASE source WHEN 'user' THEN 'edit' ELSE 'auto' END, updated_at
          FROM thread_summaries;
    `
  },
  {
    version: 12,
    name: 'attached files: content-addressed bytes and text, attachments, chunk vectors',
    // A file is stored once by the SHA-256 of its bytes, whatever its name or how often it is
    // attached; its bytes are kept so the text can be extracted again by a later version. The
    // bytes are written before the text is read, so a crash while reading loses nothing. Chunk
    // vectors are cached per file and vector space, one blob of n x dimension floats, since a
    // file is never embedded piecemeal.
    sql: `
      CREATE TABLE files (
        hash       TEXT PRIMARY KEY CHECK (length(hash) = 64),
        size       INTEGER NOT NULL CHECK (size >= 0),
        bytes      BLOB NOT NULL,
        kind       TEXT,
        encoding   TEXT,
        text       TEXT,
        created_at INTEGER NOT NULL
      );
      CREATE TABLE attachments (
        id         TEXT PRIMARY KEY,
        thread_id  TEXT NOT NULL REFERENCES threads (id) ON DELETE CASCADE,
        message_id INTEGER REFERENCES messages (id) ON DELETE CASCADE,
        scope      TEXT NOT NULL CHECK (scope IN ('message', 'thread')),
        file_hash  TEXT NOT NULL REFERENCES files (hash),
        name       TEXT NOT NULL,
        mime       TEXT,
        created_at INTEGER NOT NULL
      );
      CREATE INDEX attachments_by_thread ON attachments (thread_id, created_at);
      CREATE INDEX attachments_by_message ON attachments (message_id)
        WHERE message_id IS NOT NULL;
      CREATE INDEX attachments_by_file ON attachments (file_hash);
      -- A file goes with its last attachment, however that goes: removed by the user, or with
      -- its thread or message (cascades fire this trigger too).
      CREATE TRIGGER attachments_release_file AFTER DELETE ON attachments
      WHEN NOT EXISTS (SELECT 1 FROM attachments WHERE file_hash = OLD.file_hash)
      BEGIN
        DELETE FROM files WHERE hash = OLD.file_hash;
      END;
      CREATE TABLE file_chunks (
        file_hash TEXT PRIMARY KEY REFERENCES files (hash) ON DELETE CASCADE,
        chunker   TEXT NOT NULL,
        chunks    TEXT NOT NULL CHECK (json_valid(chunks))
      );
      CREATE TABLE file_vectors (
        file_hash TEXT NOT NULL REFERENCES files (hash) ON DELETE CASCADE,
        space     TEXT NOT NULL,
        chunker   TEXT NOT NULL,
        dimension INTEGER NOT NULL CHECK (dimension > 0),
        vectors   BLOB NOT NULL,
        PRIMARY KEY (file_hash, space)
      );
    `
  },
  {
    version: 13,
    name: 'MCP servers the user added in Settings',
    // The whole launch description is one JSON value (stdio: command, args, env, folder; http:
    // URL, headers), validated by the contract before it is written. Thread tool choices and
    // "always allow" live in settings JSON; only servers need rows of their own.
    sql: `
      CREATE TABLE mcp_servers (
        id         TEXT PRIMARY KEY,
        name       TEXT NOT NULL,
        enabled    INTEGER NOT NULL DEFAULT 0 CHECK (enabled IN (0, 1)),
        config     TEXT NOT NULL CHECK (json_valid(config)),
        created_at INTEGER NOT NULL
      );
    `
  }
]

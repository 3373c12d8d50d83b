import type Database from 'better-sqlite3'

interface Migration {
  version: number
  name: string
  sql: string
}

/** Migration 17: the shares a stored layer resolves to, in SQL (defaults as in contextConfig). */
const SHARE_DEFAULTS = {
  system: 15,
  summary: 10,
  retrieved: 10,
  recent: 45,
  input: 5,
  attachments: 10,
  tools: 5
}
const GLOBAL_CONTEXT = "(SELECT value FROM settings WHERE key = 'context')"
/** A thread's override resolves over the global one: marked so shareOf reads both. */
const THREAD = 'thread'

function shareOf(layer: string, section: keyof typeof SHARE_DEFAULTS): string {
  const fallback = String(SHARE_DEFAULTS[section])
  if (layer !== THREAD)
    return `coalesce(json_extract(${layer}, '$.percentages.${section}'), ${fallback})`
  return `coalesce(json_extract(settings, '$.context.percentages.${section}'), json_extract(${GLOBAL_CONTEXT}, '$.percentages.${section}'), ${fallback})`
}

function oldFive(layer: string): string {
  return (['system', 'summary', 'retrieved', 'recent', 'input'] as const)
    .map((section) => shareOf(layer, section))
    .join(' + ')
}

function legacyOver(layer: string): string {
  return `(${oldFive(layer)}) + ${shareOf(layer, 'attachments')} + ${shareOf(layer, 'tools')} > 100`
}

/** What is left for the section after the old five shares (attachments before tools). */
function fitted(layer: string, section: 'attachments' | 'tools'): string {
  const room = `max(0, 100 - (${oldFive(layer)}))`
  const attachments = `min(${shareOf(layer, 'attachments')}, ${room})`
  return section === 'attachments'
    ? attachments
    : `min(${shareOf(layer, 'tools')}, max(0, 100 - (${oldFive(layer)}) - ${attachments}))`
}

/**
 * Ordered schema changes. A migration is never edited once released: add a new one.
 * Each runs inside one transaction together with the user_version bump, so a crash leaves the
 * database at the previous version, never half-migrated.
 */
const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'threads, messages, settings',
    sql: `
      CREATE TABLE threads (
        id          TEXT PRIMARY KEY,
        title       TEXT NOT NULL,
        created_at  INTEGER NOT NULL,
        updated_at  INTEGER NOT NULL,
        settings    TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(settings))
      );
      CREATE INDEX threads_by_activity ON threads (updated_at DESC);

      CREATE TABLE messages (
        id           INTEGER PRIMARY KEY,
        thread_id    TEXT NOT NULL REFERENCES threads (id) ON DELETE CASCADE,
        seq          INTEGER NOT NULL,
        role         TEXT NOT NULL CHECK (role IN ('system', 'user', 'assistant', 'tool')),
        content      TEXT NOT NULL,
        tool_calls   TEXT CHECK (tool_calls IS NULL OR json_valid(tool_calls)),
        tool_call_id TEXT,
        token_count  INTEGER NOT NULL CHECK (token_count >= 0),
        created_at   INTEGER NOT NULL,
        pinned       INTEGER NOT NULL DEFAULT 0 CHECK (pinned IN (0, 1)),
        excluded     INTEGER NOT NULL DEFAULT 0 CHECK (excluded IN (0, 1)),
        UNIQUE (thread_id, seq)
      );

      CREATE TABLE settings (
        key   TEXT PRIMARY KEY,
        value TEXT NOT NULL CHECK (json_valid(value))
      );
    `
  },
  {
    version: 2,
    name: 'full-text search over messages and thread titles',
    // trigram matches any substring of 3+ characters, which is what makes Chinese searchable
    // without a word segmenter; shorter terms are answered with LIKE (see searchRepository).
    // Titles use a self-contained FTS table because threads.rowid is not stable across VACUUM.
    sql: `
      CREATE VIRTUAL TABLE messages_fts USING fts5 (
        content, content = 'messages', content_rowid = 'id', tokenize = 'trigram'
      );
      CREATE TRIGGER messages_fts_insert AFTER INSERT ON messages BEGIN
        INSERT INTO messages_fts (rowid, content) VALUES (new.id, new.content);
      END;
      CREATE TRIGGER messages_fts_delete AFTER DELETE ON messages BEGIN
        INSERT INTO messages_fts (messages_fts, rowid, content) VALUES ('delete', old.id, old.content);
      END;
      CREATE TRIGGER messages_fts_update AFTER UPDATE OF content ON messages BEGIN
        INSERT INTO messages_fts (messages_fts, rowid, content) VALUES ('delete', old.id, old.content);
        INSERT INTO messages_fts (rowid, content) VALUES (new.id, new.content);
      END;
      INSERT INTO messages_fts (messages_fts) VALUES ('rebuild');

      CREATE VIRTUAL TABLE threads_fts USING fts5 (
        title, thread_id UNINDEXED, tokenize = 'trigram'
      );
      CREATE TRIGGER threads_fts_insert AFTER INSERT ON threads BEGIN
        INSERT INTO threads_fts (title, thread_id) VALUES (new.title, new.id);
      END;
      CREATE TRIGGER threads_fts_delete AFTER DELETE ON threads BEGIN
        DELETE FROM threads_fts WHERE thread_id = old.id;
      END;
      CREATE TRIGGER threads_fts_update AFTER UPDATE OF title ON threads BEGIN
        UPDATE threads_fts SET title = new.title WHERE thread_id = new.id;
      END;
      INSERT INTO threads_fts (title, thread_id) SELECT title, id FROM threads;
    `
  },
  {
    version: 3,
    name: 'context builds and pinned messages',
    // A build is kept as the exact JSON the inspector showed, so history never recomputes it.
    sql: `
      CREATE TABLE context_builds (
        id         INTEGER PRIMARY KEY,
        thread_id  TEXT NOT NULL REFERENCES threads (id) ON DELETE CASCADE,
        message_id INTEGER REFERENCES messages (id) ON DELETE SET NULL,
        created_at INTEGER NOT NULL,
        built      TEXT NOT NULL CHECK (json_valid(built))
      );
      CREATE INDEX context_builds_by_thread ON context_builds (thread_id, id DESC);
      CREATE INDEX messages_pinned ON messages (thread_id, seq) WHERE pinned = 1;
    `
  },
  {
    version: 4,
    name: 'long-term memory: memories, their history, full-text index, embedding queue, vector spaces',
    // Vectors live in sqlite-vec tables created at run time, one pair per vector space (model,
    // pooling, dimension), because a vec0 column's dimension is fixed when the table is made
    // (see store/vectors/vectorStore.ts). The queue is filled by triggers, so a message stored while no
    // model is loaded is still embedded later, after a restart too.
    sql: `
      CREATE TABLE memories (
        id                INTEGER PRIMARY KEY AUTOINCREMENT,
        content           TEXT NOT NULL,
        category          TEXT NOT NULL
                          CHECK (category IN ('user_preference', 'fact', 'task', 'other')),
        source_thread_id  TEXT REFERENCES threads (id) ON DELETE SET NULL,
        source_message_id INTEGER REFERENCES messages (id) ON DELETE SET NULL,
        content_hash      TEXT NOT NULL UNIQUE,
        created_at        INTEGER NOT NULL,
        updated_at        INTEGER NOT NULL
      );
      CREATE INDEX memories_by_activity ON memories (updated_at DESC);
      CREATE INDEX memories_by_source_message ON memories (source_message_id);
      CREATE INDEX memories_by_source_thread ON memories (source_thread_id);

      -- No foreign key: the history of a deleted memory is what restores it.
      CREATE TABLE memory_history (
        id                INTEGER PRIMARY KEY,
        memory_id         INTEGER NOT NULL,
        action            TEXT NOT NULL CHECK (action IN ('create', 'update', 'delete', 'restore')),
        reason            TEXT NOT NULL,
        content           TEXT NOT NULL,
        category          TEXT NOT NULL,
        previous_content  TEXT,
        previous_category TEXT,
        source_thread_id  TEXT,
        source_message_id INTEGER,
        created_at        INTEGER NOT NULL
      );
      CREATE INDEX memory_history_by_memory ON memory_history (memory_id, id);

      CREATE VIRTUAL TABLE memories_fts USING fts5 (
        content, content = 'memories', content_rowid = 'id', tokenize = 'trigram'
      );
      CREATE TRIGGER memories_fts_insert AFTER INSERT ON memories BEGIN
        INSERT INTO memories_fts (rowid, content) VALUES (new.id, new.content);
      END;
      CREATE TRIGGER memories_fts_delete AFTER DELETE ON memories BEGIN
        INSERT INTO memories_fts (memories_fts, rowid, content) VALUES ('delete', old.id, old.content);
      END;
      CREATE TRIGGER memories_fts_update AFTER UPDATE OF content ON memories BEGIN
        INSERT INTO memories_fts (memories_fts, rowid, content) VALUES ('delete', old.id, old.content);
        INSERT INTO memories_fts (rowid, content) VALUES (new.id, new.content);
      END;

      CREATE TABLE embedding_queue (
        kind        TEXT NOT NULL CHECK (kind IN ('message', 'memory')),
        item_id     INTEGER NOT NULL,
        enqueued_at INTEGER NOT NULL,
        attempts    INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (kind, item_id)
      ) WITHOUT ROWID;
      CREATE INDEX embedding_queue_order ON embedding_queue (kind, attempts, enqueued_at DESC);

      CREATE TRIGGER embedding_queue_message_insert AFTER INSERT ON messages BEGIN
        INSERT OR REPLACE INTO embedding_queue (kind, item_id, enqueued_at) VALUES ('message', new.id, new.created_at);
      END;
      CREATE TRIGGER embedding_queue_message_update AFTER UPDATE OF content ON messages BEGIN
        INSERT OR REPLACE INTO embedding_queue (kind, item_id, enqueued_at) VALUES ('message', new.id, new.created_at);
      END;
      CREATE TRIGGER embedding_queue_message_delete AFTER DELETE ON messages BEGIN
        DELETE FROM embedding_queue WHERE kind = 'message' AND item_id = old.id;
      END;
      CREATE TRIGGER embedding_queue_memory_insert AFTER INSERT ON memories BEGIN
        INSERT OR REPLACE INTO embedding_queue (kind, item_id, enqueued_at) VALUES ('memory', new.id, new.updated_at);
      END;
      CREATE TRIGGER embedding_queue_memory_update AFTER UPDATE OF content ON memories BEGIN
        INSERT OR REPLACE INTO embedding_queue (kind, item_id, enqueued_at) VALUES ('memory', new.id, new.updated_at);
      END;
      CREATE TRIGGER embedding_queue_memory_delete AFTER DELETE ON memories BEGIN
        DELETE FROM embedding_queue WHERE kind = 'memory' AND item_id = old.id;
      END;
      INSERT INTO embedding_queue (kind, item_id, enqueued_at)
        SELECT 'message', id, created_at FROM messages;

      CREATE TABLE vector_spaces (
        id         INTEGER PRIMARY KEY,
        key        TEXT NOT NULL UNIQUE,
        model_id   TEXT NOT NULL,
        dimension  INTEGER NOT NULL CHECK (dimension > 0),
        state      TEXT NOT NULL CHECK (state IN ('active', 'retired')),
        created_at INTEGER NOT NULL
      );
      CREATE UNIQUE INDEX vector_spaces_one_active ON vector_spaces (state) WHERE state = 'active';
    `
  },
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
  },
  {
    version: 17,
    name: 'budgets saved before the attachments and tools sections keep their meaning',
    // The new sections have default shares (attachments 10 %, tools 5 %). A saved budget whose
    // own shares leave less than that room would no longer add up to at most 100 %, so it gives
    // the new sections only what its shares leave: global first, then each thread override as
    // it resolves over the global one (contextConfig.ts).
    sql: `
      UPDATE settings
         SET value = json_set(value,
               '$.percentages.attachments', ${fitted('value', 'attachments')},
               '$.percentages.tools', ${fitted('value', 'tools')})
       WHERE key = 'context'
         AND json_type(value, '$.percentages') = 'object'
         AND ${legacyOver('value')};

      UPDATE threads
         SET settings = json_set(settings,
               '$.context.percentages.attachments', ${fitted(THREAD, 'attachments')},
               '$.context.percentages.tools', ${fitted(THREAD, 'tools')})
       WHERE json_type(settings, '$.context.percentages') = 'object'
         AND ${legacyOver(THREAD)};
    `
  },
  {
    version: 18,
    name: 'message vector counts kept by triggers',
    // The memory status shows how many messages have a vector. COUNT(*) over a vector table
    // reads every 1.5 KB row: 90 ms at 100,000 messages, on the main thread after every send
    // (issue #16). Each space's table now keeps its count here by triggers (store/vectors/vectorStore.ts);
    // a space made before this version gets its row on its first count.
    sql: `
      CREATE TABLE vector_counts (
        space_id INTEGER PRIMARY KEY REFERENCES vector_spaces (id) ON DELETE CASCADE,
        messages INTEGER NOT NULL
      );
    `
  }
]

export const LATEST_VERSION = MIGRATIONS[MIGRATIONS.length - 1]?.version ?? 0

export class SchemaTooNewError extends Error {
  constructor(readonly found: number) {
    super(
      `This database was written by a newer version of the app (schema ${found}, this app knows ${LATEST_VERSION}). Update the app to open it.`
    )
    this.name = 'SchemaTooNewError'
  }
}

export function schemaVersion(db: Database.Database): number {
  return db.pragma('user_version', { simple: true }) as number
}

/** Applies every migration above the file's version; `upTo` exists for migration tests. */
export function migrate(db: Database.Database, upTo: number = LATEST_VERSION): number {
  const current = schemaVersion(db)
  if (current > LATEST_VERSION) throw new SchemaTooNewError(current)
  for (const migration of MIGRATIONS) {
    if (migration.version <= current || migration.version > upTo) continue
    db.transaction(() => {
      db.exec(migration.sql)
      db.pragma(`user_version = ${migration.version}`)
    })()
  }
  return schemaVersion(db)
}

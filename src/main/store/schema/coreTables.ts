/**
 * Migrations 1-4, the first schema: threads, messages and settings; full-text search over
 * messages and titles; the context builds the inspector shows; memories, vector spaces and the
 * embedding queue. Never edited once released (see migrations.ts).
 */
import type { Migration } from '../migrations'

export const CORE_TABLES: readonly Migration[] = [
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
  }
]

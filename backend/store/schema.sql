-- The schema every migration in migrations/ makes, one after the other: a
-- new database is made from it in one step. Generated from the migrations
-- by `make schema`; never edit it.

CREATE TABLE conversations (
    id          TEXT PRIMARY KEY,
    title       TEXT    NOT NULL DEFAULT '',
    title_set   INTEGER NOT NULL DEFAULT 0,
    created_at  INTEGER NOT NULL,
    updated_at  INTEGER NOT NULL
, workspace TEXT NOT NULL DEFAULT '', model TEXT NOT NULL DEFAULT '', agent_id TEXT NOT NULL DEFAULT '', mode TEXT NOT NULL DEFAULT 'auto', runs INTEGER NOT NULL DEFAULT 0, state TEXT NOT NULL DEFAULT 'active', ended_by TEXT NOT NULL DEFAULT '', end_reason TEXT NOT NULL DEFAULT '', archived_at INTEGER NOT NULL DEFAULT 0);

CREATE TABLE tasks (
    id                 TEXT PRIMARY KEY,
    conversation_id    TEXT    NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
    mode               TEXT    NOT NULL,
    status             TEXT    NOT NULL,
    original_prompt    TEXT    NOT NULL,
    step_count         INTEGER NOT NULL DEFAULT 0,
    started_at         INTEGER NOT NULL,
    ended_at           INTEGER,
    pending_question   TEXT    NOT NULL DEFAULT '',
    pending_choices    TEXT    NOT NULL DEFAULT '[]',
    error_message      TEXT    NOT NULL DEFAULT '',
    current_tool       TEXT    NOT NULL DEFAULT '',
    prompt_tokens      INTEGER NOT NULL DEFAULT 0,
    completion_tokens  INTEGER NOT NULL DEFAULT 0,
    total_tokens       INTEGER NOT NULL DEFAULT 0,
    model              TEXT    NOT NULL DEFAULT '',
    summary            TEXT    NOT NULL DEFAULT ''
, pending_approval TEXT NOT NULL DEFAULT '', pause_reason     TEXT NOT NULL DEFAULT '', limits           TEXT NOT NULL DEFAULT '{}', cost_usd         REAL NOT NULL DEFAULT 0, active_ms        INTEGER NOT NULL DEFAULT 0, current_call_id TEXT NOT NULL DEFAULT '', rev INTEGER NOT NULL DEFAULT 1, context_tokens INTEGER NOT NULL DEFAULT 0, context_limit INTEGER NOT NULL DEFAULT 0, agent_id TEXT NOT NULL DEFAULT '', ui       TEXT NOT NULL DEFAULT '', cache_read_tokens  INTEGER NOT NULL DEFAULT 0, cache_write_tokens INTEGER NOT NULL DEFAULT 0);

CREATE TABLE messages (
    seq              INTEGER PRIMARY KEY AUTOINCREMENT,
    id               TEXT    NOT NULL UNIQUE,
    conversation_id  TEXT    NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
    task_id          TEXT    REFERENCES tasks (id) ON DELETE SET NULL,
    role             TEXT    NOT NULL,
    content          TEXT    NOT NULL DEFAULT '',
    tool_calls       TEXT    NOT NULL DEFAULT '',
    tool_call_id     TEXT    NOT NULL DEFAULT '',
    tool_name        TEXT    NOT NULL DEFAULT '',
    is_error         INTEGER NOT NULL DEFAULT 0,
    step             INTEGER NOT NULL DEFAULT 0,
    streaming        INTEGER NOT NULL DEFAULT 0,
    rev              INTEGER NOT NULL DEFAULT 1,
    created_at       INTEGER NOT NULL
, prompt_tokens     INTEGER NOT NULL DEFAULT 0, completion_tokens INTEGER NOT NULL DEFAULT 0, cost_usd          REAL    NOT NULL DEFAULT 0, chunked INTEGER NOT NULL DEFAULT 0, summary_id TEXT NOT NULL DEFAULT '', outcome TEXT NOT NULL DEFAULT '', delivery TEXT NOT NULL DEFAULT '', parent_id TEXT, run INTEGER NOT NULL DEFAULT 0, reasoning TEXT NOT NULL DEFAULT '', reasoning_ms INTEGER NOT NULL DEFAULT 0, reasoning_data TEXT NOT NULL DEFAULT '', cache_read_tokens  INTEGER NOT NULL DEFAULT 0, cache_write_tokens INTEGER NOT NULL DEFAULT 0);

CREATE TABLE settings (
    key    TEXT PRIMARY KEY,
    value  TEXT NOT NULL
);

CREATE TABLE message_chunks (
    message_id  TEXT    NOT NULL REFERENCES messages (id) ON DELETE CASCADE,
    seq         INTEGER NOT NULL,
    -- The byte length of the message's text up to the end of this chunk.
    end_offset  INTEGER NOT NULL,
    text        TEXT    NOT NULL, reasoning INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (message_id, seq)
);

CREATE TABLE summaries (
    id               TEXT    PRIMARY KEY,
    conversation_id  TEXT    NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
    through_seq      INTEGER NOT NULL,
    text             TEXT    NOT NULL,
    tool_log         TEXT    NOT NULL DEFAULT '',
    created_at       INTEGER NOT NULL
);

CREATE TABLE facts (
    id               TEXT PRIMARY KEY,
    conversation_id  TEXT REFERENCES conversations (id) ON DELETE CASCADE,
    key              TEXT    NOT NULL,
    value            TEXT    NOT NULL,
    created_at       INTEGER NOT NULL,
    updated_at       INTEGER NOT NULL
);

CREATE TABLE mcp_servers (
    id          TEXT PRIMARY KEY,
    name        TEXT    NOT NULL,
    config      TEXT    NOT NULL,
    created_at  INTEGER NOT NULL,
    updated_at  INTEGER NOT NULL
);

CREATE TABLE tool_images (
    id          TEXT PRIMARY KEY,
    mime        TEXT    NOT NULL,
    data        BLOB    NOT NULL,
    created_at  INTEGER NOT NULL
);

CREATE TABLE search_pending (seq INTEGER PRIMARY KEY);

CREATE TABLE agents (
    id          TEXT PRIMARY KEY,
    definition  TEXT    NOT NULL,
    created_at  INTEGER NOT NULL,
    updated_at  INTEGER NOT NULL
);

CREATE TABLE plans (
    task_id          TEXT    NOT NULL REFERENCES tasks (id) ON DELETE CASCADE,
    revision         INTEGER NOT NULL,
    conversation_id  TEXT    NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
    steps            TEXT    NOT NULL,
    note             TEXT    NOT NULL DEFAULT '',
    created_at       INTEGER NOT NULL,
    PRIMARY KEY (task_id, revision)
);

CREATE TABLE checkpoints (
    task_id     TEXT PRIMARY KEY REFERENCES tasks (id) ON DELETE CASCADE,
    undone      INTEGER NOT NULL DEFAULT 0,
    pruned      INTEGER NOT NULL DEFAULT 0,
    created_at  INTEGER NOT NULL
, dismissed INTEGER NOT NULL DEFAULT 0);

CREATE TABLE checkpoint_files (
    task_id     TEXT NOT NULL REFERENCES checkpoints (task_id) ON DELETE CASCADE,
    path        TEXT NOT NULL,
    workspace   TEXT NOT NULL,
    before_hash TEXT,
    after_hash  TEXT,
    pending     INTEGER NOT NULL DEFAULT 1,
    PRIMARY KEY (task_id, workspace, path)
);

CREATE TABLE app_info (
    key    TEXT PRIMARY KEY,
    value  TEXT NOT NULL
);

CREATE TABLE attachments (
    id         TEXT PRIMARY KEY,
    kind       TEXT NOT NULL,
    mime       TEXT NOT NULL,
    size       INTEGER NOT NULL,
    width      INTEGER NOT NULL DEFAULT 0,
    height     INTEGER NOT NULL DEFAULT 0,
    name       TEXT NOT NULL,
    staged_at  INTEGER NOT NULL
);

CREATE TABLE message_attachments (
    message_id     TEXT NOT NULL REFERENCES messages(id) ON DELETE CASCADE,
    ord            INTEGER NOT NULL,
    attachment_id  TEXT NOT NULL REFERENCES attachments(id),
    name           TEXT NOT NULL,
    PRIMARY KEY (message_id, ord)
);

CREATE TABLE branch_runs (
    conversation_id TEXT    NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
    run             INTEGER NOT NULL,
    first           INTEGER NOT NULL,
    upto            INTEGER NOT NULL,
    PRIMARY KEY (conversation_id, run)
) WITHOUT ROWID;

CREATE TABLE branch_choices (
    conversation_id TEXT    NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
    run             INTEGER NOT NULL,
    seq             INTEGER NOT NULL,
    child           INTEGER,
    PRIMARY KEY (conversation_id, run, seq)
) WITHOUT ROWID;

CREATE TABLE checkpoint_tools (
    task_id TEXT NOT NULL REFERENCES checkpoints (task_id) ON DELETE CASCADE,
    tool    TEXT NOT NULL,
    PRIMARY KEY (task_id, tool)
);

CREATE TABLE conversation_usage (
    conversation_id    TEXT    PRIMARY KEY REFERENCES conversations (id) ON DELETE CASCADE,
    prompt_tokens      INTEGER NOT NULL DEFAULT 0,
    completion_tokens  INTEGER NOT NULL DEFAULT 0,
    total_tokens       INTEGER NOT NULL DEFAULT 0,
    cache_read_tokens  INTEGER NOT NULL DEFAULT 0,
    cache_write_tokens INTEGER NOT NULL DEFAULT 0,
    cost_usd           REAL    NOT NULL DEFAULT 0
) WITHOUT ROWID;

CREATE TABLE saved_prompts (
    id          TEXT PRIMARY KEY,
    name        TEXT    NOT NULL,
    text        TEXT    NOT NULL,
    created_at  INTEGER NOT NULL,
    updated_at  INTEGER NOT NULL
);

CREATE TABLE tool_image_refs (
    message_id  TEXT NOT NULL REFERENCES messages(id) ON DELETE CASCADE,
    image_id    TEXT NOT NULL REFERENCES tool_images(id) ON DELETE CASCADE,
    PRIMARY KEY (message_id, image_id)
) WITHOUT ROWID;

CREATE TABLE tools_refused (
    key         TEXT PRIMARY KEY,
    refused_at  INTEGER NOT NULL
);

CREATE VIRTUAL TABLE message_search USING fts5(body, tokenize = 'unicode61 remove_diacritics 2', prefix = '1 2 3 4');

CREATE TABLE search_words (word TEXT PRIMARY KEY) WITHOUT ROWID;

CREATE TABLE search_words_pending (seq INTEGER PRIMARY KEY);

CREATE VIEW message_text AS
SELECT m.seq, m.id, m.role, m.streaming,
    m.content || CASE WHEN m.chunked THEN coalesce(
        (SELECT group_concat(c.text, '' ORDER BY c.seq) FROM message_chunks c
            WHERE c.message_id = m.id AND c.reasoning = 0), '')
    ELSE '' END
    || coalesce((SELECT char(10) || group_concat(a.name, char(10) ORDER BY a.ord)
        FROM message_attachments a WHERE a.message_id = m.id), '') AS body
FROM messages m;

CREATE INDEX tasks_conversation ON tasks (conversation_id, started_at);

CREATE UNIQUE INDEX tasks_one_active ON tasks (conversation_id)
    WHERE status NOT IN ('completed', 'cancelled', 'error');

CREATE INDEX messages_conversation ON messages (conversation_id, seq);

CREATE INDEX messages_task ON messages (task_id, seq);

CREATE INDEX summaries_conversation ON summaries (conversation_id, through_seq);

CREATE UNIQUE INDEX facts_owner_key ON facts (ifnull(conversation_id, ''), key);

CREATE INDEX conversations_activity ON conversations (updated_at, id);

CREATE UNIQUE INDEX mcp_servers_name ON mcp_servers (name COLLATE NOCASE);

CREATE INDEX conversations_agent ON conversations (agent_id, updated_at, id);

CREATE INDEX plans_conversation ON plans (conversation_id);

CREATE INDEX checkpoint_files_before ON checkpoint_files (before_hash);

CREATE INDEX checkpoint_files_after ON checkpoint_files (after_hash);

CREATE INDEX messages_parent ON messages (conversation_id, parent_id, seq);

CREATE INDEX message_attachments_by_attachment ON message_attachments(attachment_id);

CREATE INDEX messages_run ON messages (conversation_id, run, seq);

CREATE INDEX messages_run_task ON messages (conversation_id, run, seq) WHERE task_id IS NOT NULL;

CREATE INDEX messages_queued ON messages (conversation_id, seq) WHERE delivery = 'queued';

CREATE UNIQUE INDEX branch_runs_order ON branch_runs (conversation_id, first);

CREATE INDEX conversations_archived ON conversations (updated_at, id) WHERE archived_at > 0;

CREATE UNIQUE INDEX saved_prompts_name ON saved_prompts (name COLLATE NOCASE);

CREATE INDEX tool_image_refs_by_image ON tool_image_refs (image_id);

CREATE INDEX message_chunks_kind ON message_chunks (message_id, reasoning, seq, end_offset);

CREATE TRIGGER message_search_update AFTER UPDATE OF content, streaming ON messages
WHEN new.role IN ('user', 'assistant')
BEGIN
    DELETE FROM message_search WHERE rowid = old.seq;
    INSERT OR IGNORE INTO search_pending (seq) SELECT new.seq WHERE new.streaming = 0;
END;

CREATE TRIGGER message_search_delete AFTER DELETE ON messages
WHEN old.role IN ('user', 'assistant')
BEGIN
    DELETE FROM message_search WHERE rowid = old.seq;
    DELETE FROM search_pending WHERE seq = old.seq;
END;

CREATE TRIGGER message_attachments_last AFTER DELETE ON message_attachments
WHEN NOT EXISTS (SELECT 1 FROM message_attachments WHERE attachment_id = old.attachment_id)
BEGIN
    DELETE FROM attachments WHERE id = old.attachment_id;
END;

CREATE TRIGGER message_attachments_search AFTER INSERT ON message_attachments
BEGIN
    DELETE FROM message_search WHERE rowid = (SELECT seq FROM messages WHERE id = new.message_id);
    INSERT OR IGNORE INTO search_pending (seq)
        SELECT seq FROM messages WHERE id = new.message_id AND streaming = 0;
END;

CREATE TRIGGER tool_image_refs_insert AFTER INSERT ON messages
WHEN new.role = 'tool' AND instr(new.content, 'errand-image:') > 0
BEGIN
    INSERT OR IGNORE INTO tool_image_refs (message_id, image_id)
        SELECT new.id, t.id FROM tool_images t WHERE instr(new.content, 'errand-image:' || t.id) > 0;
END;

CREATE TRIGGER tool_image_refs_update AFTER UPDATE OF content ON messages
WHEN new.role = 'tool' AND instr(new.content, 'errand-image:') > 0
BEGIN
    INSERT OR IGNORE INTO tool_image_refs (message_id, image_id)
        SELECT new.id, t.id FROM tool_images t WHERE instr(new.content, 'errand-image:' || t.id) > 0;
END;

CREATE TRIGGER tool_image_refs_last AFTER DELETE ON tool_image_refs
WHEN NOT EXISTS (SELECT 1 FROM tool_image_refs WHERE image_id = old.image_id)
BEGIN
    DELETE FROM tool_images WHERE id = old.image_id;
END;

CREATE TRIGGER message_search_insert AFTER INSERT ON messages
WHEN new.role IN ('user', 'assistant') AND new.streaming = 0 AND new.content != ''
BEGIN
    INSERT INTO message_search (rowid, body) VALUES (new.seq, new.content);
    INSERT INTO search_words_pending (seq) VALUES (new.seq);
END;

PRAGMA user_version = 37;

-- Conversations, their messages, and the agent tasks that run in them.
-- Times are Unix milliseconds.

CREATE TABLE conversations (
    id          TEXT PRIMARY KEY,
    title       TEXT    NOT NULL DEFAULT '',
    title_set   INTEGER NOT NULL DEFAULT 0,
    agent_mode  INTEGER NOT NULL DEFAULT 1,
    created_at  INTEGER NOT NULL,
    updated_at  INTEGER NOT NULL
);
CREATE INDEX conversations_updated ON conversations (updated_at DESC);

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
);
CREATE INDEX tasks_conversation ON tasks (conversation_id, started_at);
-- At most one unfinished task per conversation, enforced by the database.
CREATE UNIQUE INDEX tasks_one_active ON tasks (conversation_id)
    WHERE status NOT IN ('completed', 'cancelled', 'error');

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
);
CREATE INDEX messages_conversation ON messages (conversation_id, seq);
CREATE INDEX messages_task ON messages (task_id, seq);

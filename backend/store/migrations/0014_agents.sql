-- Agent definitions the person made (the built-in ones live in the code),
-- each one JSON document; the agent of each conversation ('' is Errand)
-- and of each task; and what a waiting question shows besides its text
-- (several choices, "Other", a form, the composer's state), as JSON.
CREATE TABLE agents (
    id          TEXT PRIMARY KEY,
    definition  TEXT    NOT NULL,
    created_at  INTEGER NOT NULL,
    updated_at  INTEGER NOT NULL
);
ALTER TABLE conversations ADD COLUMN agent_id TEXT NOT NULL DEFAULT '';
CREATE INDEX conversations_agent ON conversations (agent_id, updated_at, id);
ALTER TABLE tasks ADD COLUMN agent_id TEXT NOT NULL DEFAULT '';
ALTER TABLE tasks ADD COLUMN ui       TEXT NOT NULL DEFAULT '';

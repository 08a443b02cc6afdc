-- Tools, approvals, limits and spend.

ALTER TABLE conversations ADD COLUMN workspace TEXT NOT NULL DEFAULT '';

ALTER TABLE tasks ADD COLUMN pending_approval TEXT NOT NULL DEFAULT '';
ALTER TABLE tasks ADD COLUMN pause_reason     TEXT NOT NULL DEFAULT '';
ALTER TABLE tasks ADD COLUMN limits           TEXT NOT NULL DEFAULT '{}';
ALTER TABLE tasks ADD COLUMN cost_usd         REAL NOT NULL DEFAULT 0;
ALTER TABLE tasks ADD COLUMN active_ms        INTEGER NOT NULL DEFAULT 0;

ALTER TABLE messages ADD COLUMN prompt_tokens     INTEGER NOT NULL DEFAULT 0;
ALTER TABLE messages ADD COLUMN completion_tokens INTEGER NOT NULL DEFAULT 0;
ALTER TABLE messages ADD COLUMN cost_usd          REAL    NOT NULL DEFAULT 0;

-- The person's settings, one JSON document per key.
CREATE TABLE settings (
    key    TEXT PRIMARY KEY,
    value  TEXT NOT NULL
);

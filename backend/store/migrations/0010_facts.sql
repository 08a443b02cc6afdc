-- Facts the person asked the agent to remember: global ones (no
-- conversation) and each conversation's. A key is unique per owner.
-- Times are Unix milliseconds.
CREATE TABLE facts (
    id               TEXT PRIMARY KEY,
    conversation_id  TEXT REFERENCES conversations (id) ON DELETE CASCADE,
    key              TEXT    NOT NULL,
    value            TEXT    NOT NULL,
    created_at       INTEGER NOT NULL,
    updated_at       INTEGER NOT NULL
);
CREATE UNIQUE INDEX facts_owner_key ON facts (ifnull(conversation_id, ''), key);

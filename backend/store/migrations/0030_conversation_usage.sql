-- What a conversation's model calls outside its tasks used and cost:
-- variations, and a summary asked for with "Compact now". A conversation's
-- totals are its tasks' plus this row's.
CREATE TABLE conversation_usage (
    conversation_id    TEXT    PRIMARY KEY REFERENCES conversations (id) ON DELETE CASCADE,
    prompt_tokens      INTEGER NOT NULL DEFAULT 0,
    completion_tokens  INTEGER NOT NULL DEFAULT 0,
    total_tokens       INTEGER NOT NULL DEFAULT 0,
    cache_read_tokens  INTEGER NOT NULL DEFAULT 0,
    cache_write_tokens INTEGER NOT NULL DEFAULT 0,
    cost_usd           REAL    NOT NULL DEFAULT 0
) WITHOUT ROWID;

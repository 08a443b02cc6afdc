-- Prompts the person saved under a name, to send again from the
-- composer's "/" menu. A name is unique, whatever its case. Times are
-- Unix milliseconds.
CREATE TABLE saved_prompts (
    id          TEXT PRIMARY KEY,
    name        TEXT    NOT NULL,
    text        TEXT    NOT NULL,
    created_at  INTEGER NOT NULL,
    updated_at  INTEGER NOT NULL
);
CREATE UNIQUE INDEX saved_prompts_name ON saved_prompts (name COLLATE NOCASE);

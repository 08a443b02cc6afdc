-- Compaction summaries: the model's view of a long conversation keeps a
-- summary of its older turns (the messages themselves stay). through_seq
-- is the seq of the last message a summary covers; tool_log is the short
-- execution log of the tools those messages ran.
CREATE TABLE summaries (
    id               TEXT    PRIMARY KEY,
    conversation_id  TEXT    NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
    through_seq      INTEGER NOT NULL,
    text             TEXT    NOT NULL,
    tool_log         TEXT    NOT NULL DEFAULT '',
    created_at       INTEGER NOT NULL
);
CREATE INDEX summaries_conversation ON summaries (conversation_id, through_seq);

-- The notice "Earlier messages summarised" names its summary.
ALTER TABLE messages ADD COLUMN summary_id TEXT NOT NULL DEFAULT '';

-- How full the context was at the task's last request, and its size.
ALTER TABLE tasks ADD COLUMN context_tokens INTEGER NOT NULL DEFAULT 0;
ALTER TABLE tasks ADD COLUMN context_limit INTEGER NOT NULL DEFAULT 0;

-- A message's reasoning (the model's thinking), kept apart from its
-- content: how long the model thought, and the provider's own record of it
-- (passed back only to the provider that wrote it). Search indexes the
-- content only.
ALTER TABLE messages ADD COLUMN reasoning TEXT NOT NULL DEFAULT '';
ALTER TABLE messages ADD COLUMN reasoning_ms INTEGER NOT NULL DEFAULT 0;
ALTER TABLE messages ADD COLUMN reasoning_data TEXT NOT NULL DEFAULT '';
-- Streamed reasoning goes into chunks of its own, like streamed text;
-- end_offset then counts in the reasoning.
ALTER TABLE message_chunks ADD COLUMN reasoning INTEGER NOT NULL DEFAULT 0;

-- A message's text for search: its content and its text chunks, never
-- its reasoning.
DROP VIEW message_text;
CREATE VIEW message_text AS
SELECT m.seq, m.id, m.role, m.streaming,
    m.content || CASE WHEN m.chunked THEN coalesce(
        (SELECT group_concat(c.text, '' ORDER BY c.seq) FROM message_chunks c
            WHERE c.message_id = m.id AND c.reasoning = 0), '')
    ELSE '' END AS body
FROM messages m;

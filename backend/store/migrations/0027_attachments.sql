-- Files people send with their messages. The content is kept once, by
-- its SHA-256 (id), in the data folder; this table describes it. A row
-- no message carries is staged (added in the composer, not yet sent):
-- staged_at says when it was last added, and the sweep at start forgets
-- those older than a day.
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

-- Which message carries which content, under which name, in which order.
CREATE TABLE message_attachments (
    message_id     TEXT NOT NULL REFERENCES messages(id) ON DELETE CASCADE,
    ord            INTEGER NOT NULL,
    attachment_id  TEXT NOT NULL REFERENCES attachments(id),
    name           TEXT NOT NULL,
    PRIMARY KEY (message_id, ord)
);
CREATE INDEX message_attachments_by_attachment ON message_attachments(attachment_id);

-- A content goes with the last message that carried it (a conversation's
-- delete cascades here); its file is removed by the next sweep.
CREATE TRIGGER message_attachments_last AFTER DELETE ON message_attachments
WHEN NOT EXISTS (SELECT 1 FROM message_attachments WHERE attachment_id = old.attachment_id)
BEGIN
    DELETE FROM attachments WHERE id = old.attachment_id;
END;

-- Search finds a message by the names of its files: they are part of its
-- text for the index, and a file added to a message indexes it again.
DROP VIEW message_text;
CREATE VIEW message_text AS
SELECT m.seq, m.id, m.role, m.streaming,
    m.content || CASE WHEN m.chunked THEN coalesce(
        (SELECT group_concat(c.text, '' ORDER BY c.seq) FROM message_chunks c
            WHERE c.message_id = m.id AND c.reasoning = 0), '')
    ELSE '' END
    || coalesce((SELECT char(10) || group_concat(a.name, char(10) ORDER BY a.ord)
        FROM message_attachments a WHERE a.message_id = m.id), '') AS body
FROM messages m;

CREATE TRIGGER message_attachments_search AFTER INSERT ON message_attachments
BEGIN
    DELETE FROM message_search WHERE rowid = (SELECT seq FROM messages WHERE id = new.message_id);
    INSERT OR IGNORE INTO search_pending (seq)
        SELECT seq FROM messages WHERE id = new.message_id AND streaming = 0;
END;

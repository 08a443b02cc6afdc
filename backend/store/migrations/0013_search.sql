-- Full-text search over what people and the agent wrote: one row per
-- finished user or assistant message, its rowid the message's seq. The
-- triggers keep it in step with every insert, edit and delete (a
-- conversation's delete cascades to its messages, and so here).
--
-- A message is indexed once its text is final. Streamed appends go to
-- message_chunks and never touch the index. A message inserted finished is
-- indexed at once; one whose stream ends, or that is edited, is queued in
-- search_pending, and the queue is indexed before the next search: ending
-- a stream (Stop included) never pays for tokenizing its text, which takes
-- about 0.15 s a megabyte.
CREATE VIRTUAL TABLE message_search USING fts5(body, tokenize = 'unicode61 remove_diacritics 2');

-- A message's whole text: its content, and its chunks when it has any.
CREATE VIEW message_text AS
SELECT m.seq, m.id, m.role, m.streaming,
    m.content || CASE WHEN m.chunked THEN coalesce(
        (SELECT group_concat(c.text, '' ORDER BY c.seq) FROM message_chunks c WHERE c.message_id = m.id), '')
    ELSE '' END AS body
FROM messages m;

CREATE TRIGGER message_search_insert AFTER INSERT ON messages
WHEN new.role IN ('user', 'assistant') AND new.streaming = 0 AND new.content != ''
BEGIN
    INSERT INTO message_search (rowid, body) VALUES (new.seq, new.content);
END;

-- Messages whose text changed since they were indexed (by seq).
CREATE TABLE search_pending (seq INTEGER PRIMARY KEY);

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

INSERT INTO message_search (rowid, body)
    SELECT seq, body FROM message_text
    WHERE role IN ('user', 'assistant') AND streaming = 0 AND body != '';

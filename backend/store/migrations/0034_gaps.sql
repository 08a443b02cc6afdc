-- Images a tool returned go with the last message that names them (see
-- mcp.ImageRef), as a person's files do (migration 0027): a
-- conversation's delete cascades to its messages, here, and to the image.
CREATE TABLE tool_image_refs (
    message_id  TEXT NOT NULL REFERENCES messages(id) ON DELETE CASCADE,
    image_id    TEXT NOT NULL REFERENCES tool_images(id) ON DELETE CASCADE,
    PRIMARY KEY (message_id, image_id)
) WITHOUT ROWID;
CREATE INDEX tool_image_refs_by_image ON tool_image_refs (image_id);

CREATE TRIGGER tool_image_refs_insert AFTER INSERT ON messages
WHEN new.role = 'tool' AND instr(new.content, 'errand-image:') > 0
BEGIN
    INSERT OR IGNORE INTO tool_image_refs (message_id, image_id)
        SELECT new.id, t.id FROM tool_images t WHERE instr(new.content, 'errand-image:' || t.id) > 0;
END;

CREATE TRIGGER tool_image_refs_update AFTER UPDATE OF content ON messages
WHEN new.role = 'tool' AND instr(new.content, 'errand-image:') > 0
BEGIN
    INSERT OR IGNORE INTO tool_image_refs (message_id, image_id)
        SELECT new.id, t.id FROM tool_images t WHERE instr(new.content, 'errand-image:' || t.id) > 0;
END;

CREATE TRIGGER tool_image_refs_last AFTER DELETE ON tool_image_refs
WHEN NOT EXISTS (SELECT 1 FROM tool_image_refs WHERE image_id = old.image_id)
BEGIN
    DELETE FROM tool_images WHERE id = old.image_id;
END;

INSERT OR IGNORE INTO tool_image_refs (message_id, image_id)
    SELECT m.id, t.id FROM messages m JOIN tool_images t
        ON instr(m.content, 'errand-image:' || t.id) > 0
    WHERE m.role = 'tool' AND instr(m.content, 'errand-image:') > 0;

-- The images of conversations deleted before were left behind.
DELETE FROM tool_images WHERE id NOT IN (SELECT image_id FROM tool_image_refs);

-- The models whose servers refused tools, by the provider settings they
-- were used with (preset, address, model; see agent.toolsKey): Auto mode
-- answers them directly, also after a restart, until the settings change.
CREATE TABLE tools_refused (
    key         TEXT PRIMARY KEY,
    refused_at  INTEGER NOT NULL
);

-- Search matches the starts of words: the index is built again with
-- FTS5's prefix indexes for starts of 1 to 4 characters (each a lookup
-- that walks newest first), and a vocabulary of its words, where a longer
-- start finds the few words it begins (see Store.Search).
DROP TABLE message_search;
CREATE VIRTUAL TABLE message_search USING fts5(body, tokenize = 'unicode61 remove_diacritics 2', prefix = '1 2 3 4');
INSERT INTO message_search (rowid, body)
    SELECT seq, body FROM message_text
    WHERE role IN ('user', 'assistant') AND streaming = 0 AND body != '';
DELETE FROM search_pending;
CREATE VIRTUAL TABLE message_search_terms USING fts5vocab(message_search, row);

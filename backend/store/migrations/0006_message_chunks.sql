-- Streamed text, one row per append: an append costs what arrived, not a
-- rewrite of the whole message. While a message streams, its text is its
-- content followed by its chunks in seq order, and its revision is its rev
-- plus its number of chunks. The final update folds the chunks into the
-- content and deletes them.
CREATE TABLE message_chunks (
    message_id  TEXT    NOT NULL REFERENCES messages (id) ON DELETE CASCADE,
    seq         INTEGER NOT NULL,
    -- The byte length of the message's text up to the end of this chunk.
    end_offset  INTEGER NOT NULL,
    text        TEXT    NOT NULL,
    PRIMARY KEY (message_id, seq)
);

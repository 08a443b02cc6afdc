-- Whether a message's text continues in message_chunks. It is set when a
-- message is created streaming and cleared by the final update, which
-- folds the chunks in. A stream that ends otherwise (Stop, an error, a
-- crash) keeps its chunks: ending it then costs the same at 5 MB as at
-- 5 bytes.
ALTER TABLE messages ADD COLUMN chunked INTEGER NOT NULL DEFAULT 0;
UPDATE messages SET chunked = 1 WHERE id IN (SELECT message_id FROM message_chunks);

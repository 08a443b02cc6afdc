-- A model call's cache reads and writes, on its assistant message as on
-- its task (0023): the message's usage showed the prompt with none of it
-- cached, where the task and the cost counted the cache.
ALTER TABLE messages ADD COLUMN cache_read_tokens  INTEGER NOT NULL DEFAULT 0;
ALTER TABLE messages ADD COLUMN cache_write_tokens INTEGER NOT NULL DEFAULT 0;

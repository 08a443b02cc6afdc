-- The parts of a task's prompt tokens that the model server read from and
-- wrote to its prompt cache (Anthropic's prompt caching), priced apart.
ALTER TABLE tasks ADD COLUMN cache_read_tokens  INTEGER NOT NULL DEFAULT 0;
ALTER TABLE tasks ADD COLUMN cache_write_tokens INTEGER NOT NULL DEFAULT 0;

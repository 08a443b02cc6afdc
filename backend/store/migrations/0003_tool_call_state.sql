-- The tool call a task is running, so that a crash never hides it.
ALTER TABLE tasks ADD COLUMN current_call_id TEXT NOT NULL DEFAULT '';

-- A task's "Files changed" card stays in its transcript until the person
-- dismisses it (or its checkpoint is pruned): dismissed records that.
ALTER TABLE checkpoints ADD COLUMN dismissed INTEGER NOT NULL DEFAULT 0;
-- The tools outside Errand's reach (MCP servers' tools that may write) a
-- task called: what they changed is not kept, so Undo cannot restore it,
-- and the card says so by name.
CREATE TABLE checkpoint_tools (
    task_id TEXT NOT NULL REFERENCES checkpoints (task_id) ON DELETE CASCADE,
    tool    TEXT NOT NULL,
    PRIMARY KEY (task_id, tool)
);

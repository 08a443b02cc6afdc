-- Checkpoints: what each task did to the files in its workspace, so that
-- it can be undone (and the undo undone). Contents live outside the
-- database, content-addressed by their hash; a NULL hash is a file that
-- did not exist. Times are Unix milliseconds.
CREATE TABLE checkpoints (
    task_id     TEXT PRIMARY KEY REFERENCES tasks (id) ON DELETE CASCADE,
    undone      INTEGER NOT NULL DEFAULT 0,
    pruned      INTEGER NOT NULL DEFAULT 0,
    created_at  INTEGER NOT NULL
);
CREATE TABLE checkpoint_files (
    task_id     TEXT NOT NULL REFERENCES checkpoints (task_id) ON DELETE CASCADE,
    path        TEXT NOT NULL,
    workspace   TEXT NOT NULL,
    before_hash TEXT,
    after_hash  TEXT,
    pending     INTEGER NOT NULL DEFAULT 1,
    PRIMARY KEY (task_id, workspace, path)
);
CREATE INDEX checkpoint_files_before ON checkpoint_files (before_hash);
CREATE INDEX checkpoint_files_after ON checkpoint_files (after_hash);

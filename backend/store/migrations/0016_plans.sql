-- Each task's plan, one row per revision the model wrote with
-- update_plan; the newest revision is the plan shown. Steps are a JSON
-- array of {title, status}. Times are Unix milliseconds.
CREATE TABLE plans (
    task_id          TEXT    NOT NULL REFERENCES tasks (id) ON DELETE CASCADE,
    revision         INTEGER NOT NULL,
    conversation_id  TEXT    NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
    steps            TEXT    NOT NULL,
    note             TEXT    NOT NULL DEFAULT '',
    created_at       INTEGER NOT NULL,
    PRIMARY KEY (task_id, revision)
);
CREATE INDEX plans_conversation ON plans (conversation_id);

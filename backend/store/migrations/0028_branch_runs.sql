-- The current branch moves out of the message rows, so a switch writes a
-- few narrow rows instead of every message it takes off or puts on.
--
-- A conversation's tree is cut into runs: paths of messages, each the
-- child of the one before it, seq growing down the path. A message's run
-- is a number of its own conversation's (messages.run); a new message
-- joins its parent's run when the parent is the last of it, and starts a
-- new one otherwise. The switch numbers of 0020 are such runs already:
-- the current branch (0) is one path, and each number the path a switch
-- took off. So the column is renamed, and no message row is rewritten.
DROP INDEX messages_branch;
ALTER TABLE messages RENAME COLUMN off_branch TO run;
-- The runs numbered so far in the conversation (a new run takes the next).
ALTER TABLE conversations RENAME COLUMN branch_switches TO runs;
-- A queued message is nobody's parent and moves when delivered: it is a
-- run of its own, numbered apart from the others (below zero).
UPDATE messages SET run = -seq WHERE delivery = 'queued';
-- A run's messages in order; pages of the branch walk it run by run.
CREATE INDEX messages_run ON messages (conversation_id, run, seq);
-- Those of them that belong to a task: the branch's latest task is found
-- without reading the messages that have none.
CREATE INDEX messages_run_task ON messages (conversation_id, run, seq) WHERE task_id IS NOT NULL;
-- A queued message is on the branch while it waits (nothing switches the
-- branch while its task runs); pages read them through this index.
CREATE INDEX messages_queued ON messages (conversation_id, seq) WHERE delivery = 'queued';

-- The current branch: the runs it goes through, from the first message of
-- each (first, its seq) to its last message on the branch (upto; the
-- largest integer when the branch holds the run to its end, so a message
-- that joins the run is on the branch without a write here).
CREATE TABLE branch_runs (
    conversation_id TEXT    NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
    run             INTEGER NOT NULL,
    first           INTEGER NOT NULL,
    upto            INTEGER NOT NULL,
    PRIMARY KEY (conversation_id, run)
) WITHOUT ROWID;
CREATE UNIQUE INDEX branch_runs_order ON branch_runs (conversation_id, first);
INSERT INTO branch_runs (conversation_id, run, first, upto)
    SELECT conversation_id, 0, min(seq), 9223372036854775807 FROM messages WHERE run = 0 GROUP BY conversation_id;

-- What a switch back shows below a message: a message off the branch
-- continues as it did when it was last on it. By default a message
-- continues in its own run; a row here says otherwise: at the message seq
-- (of the run run) the branch last went on into the run child, or ended
-- there (child NULL). Switching writes a row per run it goes through.
CREATE TABLE branch_choices (
    conversation_id TEXT    NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
    run             INTEGER NOT NULL,
    seq             INTEGER NOT NULL,
    child           INTEGER,
    PRIMARY KEY (conversation_id, run, seq)
) WITHOUT ROWID;

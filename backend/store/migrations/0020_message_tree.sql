-- A conversation is a tree of messages: each message keeps its parent
-- (NULL for a first message), so a message can have several
-- continuations (a regenerated reply, an edited message). The current
-- branch is the path the person sees and the model is given: its messages
-- have off_branch = 0. A message taken off the branch gets the
-- conversation's next switch number, so the most recently left
-- continuation of a message is the one with the highest number: switching
-- back to a version restores the branch below it as it was.
ALTER TABLE messages ADD COLUMN parent_id TEXT;
ALTER TABLE messages ADD COLUMN off_branch INTEGER NOT NULL DEFAULT 0;
-- Existing conversations are one branch: each message's parent is the
-- message before it (a queued message is nobody's parent: it moves).
UPDATE messages SET parent_id = (SELECT p.id FROM messages p
    WHERE p.conversation_id = messages.conversation_id AND p.seq < messages.seq AND p.delivery != 'queued'
    ORDER BY p.seq DESC LIMIT 1);
-- Pages of the current branch walk this index; a switch touches only the
-- rows of the part that diverges, and only the entries of those coming on
-- or going off the branch (an index holding every message would move each
-- one from one place to another).
CREATE INDEX messages_branch ON messages (conversation_id, seq) WHERE off_branch = 0;
-- The switch numbers given out so far in the conversation.
ALTER TABLE conversations ADD COLUMN branch_switches INTEGER NOT NULL DEFAULT 0;
-- A message's versions (its parent's children) and the walk down a branch.
CREATE INDEX messages_parent ON messages (conversation_id, parent_id, seq);

-- A conversation's state: active, completed (its agent finished) or ended
-- early (end_conversation, or the person's End conversation), with who
-- ended it and the reason given. archived_at (Unix ms; 0: not archived)
-- takes a conversation out of the list into the Archived view.
ALTER TABLE conversations ADD COLUMN state TEXT NOT NULL DEFAULT 'active';
ALTER TABLE conversations ADD COLUMN ended_by TEXT NOT NULL DEFAULT '';
ALTER TABLE conversations ADD COLUMN end_reason TEXT NOT NULL DEFAULT '';
ALTER TABLE conversations ADD COLUMN archived_at INTEGER NOT NULL DEFAULT 0;
-- The Archived view walks its few rows newest first, as the list does.
CREATE INDEX conversations_archived ON conversations (updated_at, id) WHERE archived_at > 0;

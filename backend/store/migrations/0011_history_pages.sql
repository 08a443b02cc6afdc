-- The conversation list is read a page at a time, newest activity first,
-- each page starting after the (updated_at, id) where the last one ended:
-- this index walks that order, ties included, from any point.
DROP INDEX IF EXISTS conversations_updated;
CREATE INDEX conversations_activity ON conversations (updated_at, id);

-- The words of the search index, kept by the store (Store.indexPending
-- adds the words of each message it indexes): a word's start longer than
-- the prefix index finds the words it begins with one range lookup here.
-- fts5vocab (migration 0034) counted each listed word's rows, as long as
-- reading its whole doclist: 200 ms and more for the start of a common
-- word. Words of deleted messages stay; a word the index no longer holds
-- finds nothing.
CREATE TABLE search_words (word TEXT PRIMARY KEY) WITHOUT ROWID;
INSERT INTO search_words (word) SELECT term FROM message_search_terms;
DROP TABLE message_search_terms;

-- A message inserted finished is indexed at once (migration 0013); its
-- words are listed with the next search's, like those of search_pending.
CREATE TABLE search_words_pending (seq INTEGER PRIMARY KEY);
DROP TRIGGER message_search_insert;
CREATE TRIGGER message_search_insert AFTER INSERT ON messages
WHEN new.role IN ('user', 'assistant') AND new.streaming = 0 AND new.content != ''
BEGIN
    INSERT INTO message_search (rowid, body) VALUES (new.seq, new.content);
    INSERT INTO search_words_pending (seq) VALUES (new.seq);
END;

-- Where a streamed message's text and reasoning end (the last chunk of each
-- kind), found in one lookup. The primary key (message_id, seq) found the
-- last chunk of a kind by reading the message's chunks backwards until one
-- was of that kind: a 5 MB reply without reasoning read every chunk, text
-- and all, to learn it had none, 8–34 ms of a Stop in such a reply (the
-- task's end reads both ends, streamEnd). This index covers the lookup.
CREATE INDEX message_chunks_kind ON message_chunks (message_id, reasoning, seq, end_offset);

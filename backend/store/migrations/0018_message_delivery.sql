-- A message the person added while their task worked: 'queued' until the
-- task's next step takes it, 'not_delivered' when the task ended first
-- ('' for every other message).
ALTER TABLE messages ADD COLUMN delivery TEXT NOT NULL DEFAULT '';

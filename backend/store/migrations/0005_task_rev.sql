-- A revision per task: it grows with every stored change, so a client
-- that receives task updates out of order keeps the newest.
ALTER TABLE tasks ADD COLUMN rev INTEGER NOT NULL DEFAULT 1;

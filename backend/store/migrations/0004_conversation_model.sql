-- A model chosen for one conversation, over the default.
ALTER TABLE conversations ADD COLUMN model TEXT NOT NULL DEFAULT '';

-- How a tool call ended when it did not simply run: denied by the person,
-- stopped with its task, or cut off when Errand closed ('' otherwise).
ALTER TABLE messages ADD COLUMN outcome TEXT NOT NULL DEFAULT '';

-- A conversation's mode replaces its "Agent mode" toggle: 'auto' (Errand
-- decides for each message), 'agent' or 'chat'. Conversations keep what
-- the toggle said.
ALTER TABLE conversations ADD COLUMN mode TEXT NOT NULL DEFAULT 'auto';
UPDATE conversations SET mode = CASE agent_mode WHEN 1 THEN 'agent' ELSE 'chat' END;
ALTER TABLE conversations DROP COLUMN agent_mode;
-- A person's message stored again to answer it another way ("Run as a
-- task instead") names the message it repeats; '' for every other.
ALTER TABLE messages ADD COLUMN rerun_of TEXT NOT NULL DEFAULT '';

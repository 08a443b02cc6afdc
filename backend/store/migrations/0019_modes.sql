-- A conversation's mode replaces its "Agent mode" toggle: 'auto' (Errand
-- decides for each message), 'agent' or 'chat'. Conversations keep what
-- the toggle said.
ALTER TABLE conversations ADD COLUMN mode TEXT NOT NULL DEFAULT 'auto';
UPDATE conversations SET mode = CASE agent_mode WHEN 1 THEN 'agent' ELSE 'chat' END;
ALTER TABLE conversations DROP COLUMN agent_mode;

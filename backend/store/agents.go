package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"time"

	"github.com/errand-app/errand/backend/chat"
	"github.com/google/uuid"
)

// The person's agent definitions. The built-in ones are not stored: they
// come from chat.BuiltinAgents, and their ids cannot be taken.

// Agent returns a definition by id: a built-in one, or a stored one; ""
// is Errand.
func (s *Store) Agent(ctx context.Context, id string) (chat.AgentDefinition, error) {
	return agentByID(ctx, s.db, id)
}

func agentByID(ctx context.Context, q queryer, id string) (chat.AgentDefinition, error) {
	if id == "" {
		id = chat.AgentErrand
	}
	if d, ok := chat.BuiltinAgent(id); ok {
		return d, nil
	}
	var def string
	err := q.QueryRowContext(ctx, `SELECT definition FROM agents WHERE id = ?`, id).Scan(&def)
	if isNoRows(err) {
		return chat.AgentDefinition{}, notFound("agent", id)
	}
	if err != nil {
		return chat.AgentDefinition{}, fmt.Errorf("get agent: %w", err)
	}
	return decodeAgent(def)
}

func decodeAgent(def string) (chat.AgentDefinition, error) {
	d := chat.AgentDefaults()
	if err := json.Unmarshal([]byte(def), &d); err != nil {
		return d, fmt.Errorf("agent definition: %w", err)
	}
	d.BuiltIn = false
	return d, nil
}

// ListAgents returns the built-in agents, then the person's, by name.
func (s *Store) ListAgents(ctx context.Context) ([]chat.AgentDefinition, error) {
	out := chat.BuiltinAgents()
	rows, err := s.db.QueryContext(ctx, `SELECT definition FROM agents ORDER BY json_extract(definition, '$.name') COLLATE NOCASE, id`)
	if err != nil {
		return nil, fmt.Errorf("list agents: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var def string
		if err := rows.Scan(&def); err != nil {
			return nil, fmt.Errorf("list agents: %w", err)
		}
		d, err := decodeAgent(def)
		if err != nil {
			return nil, err
		}
		out = append(out, d)
	}
	return out, rows.Err()
}

// CreateAgent stores a new definition, already checked (chat.CheckAgent).
// An id that is taken, by a built-in agent or a stored one, is a
// CodeConflict error.
func (s *Store) CreateAgent(ctx context.Context, d chat.AgentDefinition) (chat.AgentDefinition, error) {
	if chat.IsBuiltinAgent(d.ID) {
		return d, chat.Errorf(chat.CodeConflict, "the id %s belongs to a built-in agent; choose another", chat.Quote(d.ID))
	}
	now := time.Now().UTC().Truncate(time.Millisecond)
	d.BuiltIn, d.CreatedAt, d.UpdatedAt = false, now, now
	b, _ := json.Marshal(d)
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO agents (id, definition, created_at, updated_at) VALUES (?, ?, ?, ?)`,
			d.ID, string(b), ms(now), ms(now))
		if isUniqueViolation(err) {
			return chat.Errorf(chat.CodeConflict, "an agent with the id %s exists already; choose another", chat.Quote(d.ID))
		}
		return err
	})
	return d, err
}

// UpdateAgent replaces a stored definition (not a built-in one).
func (s *Store) UpdateAgent(ctx context.Context, d chat.AgentDefinition) (chat.AgentDefinition, error) {
	if chat.IsBuiltinAgent(d.ID) {
		return d, chat.Errorf(chat.CodeInvalid, "a built-in agent cannot be changed; duplicate it and change the copy")
	}
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		old, err := agentByID(ctx, tx, d.ID)
		if err != nil {
			return err
		}
		d.BuiltIn, d.CreatedAt, d.UpdatedAt = false, old.CreatedAt, time.Now().UTC().Truncate(time.Millisecond)
		b, _ := json.Marshal(d)
		_, err = tx.ExecContext(ctx, `UPDATE agents SET definition = ?, updated_at = ? WHERE id = ?`, string(b), ms(d.UpdatedAt), d.ID)
		return err
	})
	return d, err
}

// DeleteAgent deletes a stored definition. Its conversations fall back to
// Errand, each with a notice in its transcript; they are returned, with
// the notices.
func (s *Store) DeleteAgent(ctx context.Context, id string) ([]chat.Conversation, []chat.Message, error) {
	if chat.IsBuiltinAgent(id) {
		return nil, nil, chat.Errorf(chat.CodeInvalid, "a built-in agent cannot be deleted")
	}
	var convs []chat.Conversation
	var notices []chat.Message
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		convs, notices = nil, nil
		d, err := agentByID(ctx, tx, id)
		if err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM agents WHERE id = ?`, id); err != nil {
			return fmt.Errorf("delete agent: %w", err)
		}
		rows, err := tx.QueryContext(ctx, `SELECT id FROM conversations WHERE agent_id = ?`, id)
		if err != nil {
			return fmt.Errorf("delete agent: %w", err)
		}
		var ids []string
		for rows.Next() {
			var c string
			if err := rows.Scan(&c); err != nil {
				rows.Close()
				return err
			}
			ids = append(ids, c)
		}
		rows.Close()
		if _, err := tx.ExecContext(ctx, `UPDATE conversations SET agent_id = '' WHERE agent_id = ?`, id); err != nil {
			return fmt.Errorf("delete agent: %w", err)
		}
		for _, c := range ids {
			m, err := insertMessage(ctx, tx, chat.Message{
				ID: uuid.NewString(), ConversationID: c, Role: chat.RoleSystem, CreatedAt: time.Now().UTC(),
				Content: fmt.Sprintf("The agent %s was deleted; this conversation goes on with Errand.", d.Name),
			})
			if err != nil {
				return err
			}
			notices = append(notices, m)
			conv, err := getConversation(ctx, tx, c)
			if err != nil {
				return err
			}
			convs = append(convs, conv)
		}
		return nil
	})
	return convs, notices, err
}

// LastTaskAgent is the agent of the conversation's latest task; ok is
// false when it has none.
func (s *Store) LastTaskAgent(ctx context.Context, conversationID string) (string, bool, error) {
	var id string
	err := s.db.QueryRowContext(ctx, `SELECT agent_id FROM tasks WHERE conversation_id = ? ORDER BY started_at DESC, rowid DESC LIMIT 1`, conversationID).Scan(&id)
	if isNoRows(err) {
		return "", false, nil
	}
	if err != nil {
		return "", false, fmt.Errorf("last task's agent: %w", err)
	}
	return id, true, nil
}

// AgentStats returns, for each agent that has a conversation or a task,
// its conversations, completed tasks and latest task's start ("" is
// counted as Errand).
func (s *Store) AgentStats(ctx context.Context) ([]chat.AgentStats, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT agent, SUM(convs), SUM(done), MAX(last) FROM (
			SELECT CASE agent_id WHEN '' THEN 'errand' ELSE agent_id END AS agent, COUNT(*) AS convs, 0 AS done, NULL AS last
			FROM conversations GROUP BY agent_id
			UNION ALL
			SELECT CASE agent_id WHEN '' THEN 'errand' ELSE agent_id END, 0, SUM(status = 'completed'), MAX(started_at)
			FROM tasks GROUP BY agent_id)
		GROUP BY agent ORDER BY agent`)
	if err != nil {
		return nil, fmt.Errorf("agent stats: %w", err)
	}
	defer rows.Close()
	out := []chat.AgentStats{}
	for rows.Next() {
		var st chat.AgentStats
		var last sql.NullInt64
		if err := rows.Scan(&st.AgentID, &st.Conversations, &st.CompletedTasks, &last); err != nil {
			return nil, fmt.Errorf("agent stats: %w", err)
		}
		if last.Valid {
			at := fromMS(last.Int64)
			st.LastUsedAt = &at
		}
		out = append(out, st)
	}
	return out, rows.Err()
}

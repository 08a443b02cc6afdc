package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"

	"github.com/errand-app/errand/backend/chat"
)

const messageCols = `seq, id, conversation_id, task_id, role, content, tool_calls,
	tool_call_id, tool_name, is_error, step, streaming, rev, created_at,
	prompt_tokens, completion_tokens, cost_usd`

func scanMessage(row interface{ Scan(...any) error }) (chat.Message, error) {
	var m chat.Message
	var taskID sql.NullString
	var calls string
	var created int64
	var u chat.Usage
	err := row.Scan(&m.Seq, &m.ID, &m.ConversationID, &taskID, &m.Role, &m.Content, &calls,
		&m.ToolCallID, &m.ToolName, &m.IsError, &m.Step, &m.Streaming, &m.Rev, &created,
		&u.PromptTokens, &u.CompletionTokens, &m.CostUSD)
	if err != nil {
		return m, err
	}
	if u.PromptTokens != 0 || u.CompletionTokens != 0 {
		u.TotalTokens = u.PromptTokens + u.CompletionTokens
		m.Usage = &u
	}
	m.TaskID = taskID.String
	m.CreatedAt = fromMS(created)
	if calls != "" {
		if err := json.Unmarshal([]byte(calls), &m.ToolCalls); err != nil {
			return m, fmt.Errorf("message %s tool calls: %w", m.ID, err)
		}
	}
	return m, nil
}

func encodeCalls(calls []chat.ToolCall) string {
	if len(calls) == 0 {
		return ""
	}
	b, _ := json.Marshal(calls)
	return string(b)
}

func nullable(s string) any {
	if s == "" {
		return nil
	}
	return s
}

func insertMessage(ctx context.Context, q queryer, m chat.Message) (chat.Message, error) {
	m.Rev = 1
	var u chat.Usage
	if m.Usage != nil {
		u = *m.Usage
	}
	err := q.QueryRowContext(ctx, `INSERT INTO messages (id, conversation_id, task_id, role,
		content, tool_calls, tool_call_id, tool_name, is_error, step, streaming, rev, created_at,
		prompt_tokens, completion_tokens, cost_usd)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING seq`,
		m.ID, m.ConversationID, nullable(m.TaskID), string(m.Role), m.Content, encodeCalls(m.ToolCalls),
		m.ToolCallID, m.ToolName, m.IsError, m.Step, m.Streaming, m.Rev, ms(m.CreatedAt),
		u.PromptTokens, u.CompletionTokens, m.CostUSD).Scan(&m.Seq)
	if err != nil {
		return m, fmt.Errorf("insert message: %w", err)
	}
	if err := touch(ctx, q, m.ConversationID, m.CreatedAt); err != nil {
		return m, err
	}
	return m, nil
}

// AddMessage stores a new message and bumps its conversation's activity.
func (s *Store) AddMessage(ctx context.Context, m chat.Message) (chat.Message, error) {
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		var err error
		m, err = insertMessage(ctx, tx, m)
		return err
	})
	return m, err
}

// AppendContent appends streamed text to a message and returns the message
// as stored.
func (s *Store) AppendContent(ctx context.Context, id, text string) (chat.Message, error) {
	var m chat.Message
	err := s.writeRow(ctx, func(row *sql.Row) (err error) {
		m, err = scanMessage(row)
		return err
	}, `UPDATE messages SET content = content || ?, rev = rev + 1 WHERE id = ? RETURNING `+messageCols, text, id)
	if isNoRows(err) {
		return m, notFound("message", id)
	}
	if err != nil {
		return m, fmt.Errorf("append to message: %w", err)
	}
	return m, nil
}

// UpdateMessage replaces a message's content, tool calls, streaming flag
// and usage.
func (s *Store) UpdateMessage(ctx context.Context, m chat.Message) (chat.Message, error) {
	var u chat.Usage
	if m.Usage != nil {
		u = *m.Usage
	}
	var out chat.Message
	err := s.writeRow(ctx, func(row *sql.Row) (err error) {
		out, err = scanMessage(row)
		return err
	}, `UPDATE messages SET content = ?, tool_calls = ?, streaming = ?, rev = rev + 1,
		prompt_tokens = ?, completion_tokens = ?, cost_usd = ?
		WHERE id = ? RETURNING `+messageCols,
		m.Content, encodeCalls(m.ToolCalls), m.Streaming, u.PromptTokens, u.CompletionTokens, m.CostUSD, m.ID)
	if isNoRows(err) {
		return out, notFound("message", m.ID)
	}
	if err != nil {
		return out, fmt.Errorf("update message: %w", err)
	}
	return out, nil
}

// Messages returns a conversation's messages in order.
func (s *Store) Messages(ctx context.Context, conversationID string) ([]chat.Message, error) {
	return messages(ctx, s.db, conversationID)
}

// TaskMessages returns the messages a task wrote, in order.
func (s *Store) TaskMessages(ctx context.Context, taskID string) ([]chat.Message, error) {
	return messagesWhere(ctx, s.db, `WHERE task_id = ? ORDER BY seq`, taskID)
}

func messages(ctx context.Context, q queryer, conversationID string) ([]chat.Message, error) {
	return messagesWhere(ctx, q, `WHERE conversation_id = ? ORDER BY seq`, conversationID)
}

func messagesWhere(ctx context.Context, q queryer, where string, args ...any) ([]chat.Message, error) {
	rows, err := q.QueryContext(ctx, `SELECT `+messageCols+` FROM messages `+where, args...)
	if err != nil {
		return nil, fmt.Errorf("query messages: %w", err)
	}
	defer rows.Close()
	out := []chat.Message{}
	for rows.Next() {
		m, err := scanMessage(rows)
		if err != nil {
			return nil, fmt.Errorf("scan message: %w", err)
		}
		out = append(out, m)
	}
	return out, rows.Err()
}

package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"sort"

	"github.com/errand-app/errand/backend/chat"
)

// rowCols are a message's columns as its row holds them.
const rowCols = `seq, id, conversation_id, task_id, role, content, tool_calls,
	tool_call_id, tool_name, is_error, step, streaming, rev, created_at,
	prompt_tokens, completion_tokens, cost_usd`

// messageCols read a message as it is, its streamed chunks included: while
// it streams, its text is its content followed by its chunks in order, and
// its revision is its rev plus its number of chunks (one per append). Only
// a streaming message has chunks (see AppendContent).
const messageCols = `seq, id, conversation_id, task_id, role,
	CASE WHEN streaming THEN content || coalesce((SELECT group_concat(c.text, '' ORDER BY c.seq)
		FROM message_chunks c WHERE c.message_id = messages.id), '') ELSE content END,
	tool_calls, tool_call_id, tool_name, is_error, step, streaming,
	CASE WHEN streaming THEN rev + coalesce((SELECT max(c.seq)
		FROM message_chunks c WHERE c.message_id = messages.id), 0) ELSE rev END,
	created_at, prompt_tokens, completion_tokens, cost_usd`

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
	// A file written before costs were bounded may hold an infinite one.
	m.CostUSD = chat.ClampCost(m.CostUSD)
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
	if err := chat.CheckFinite("a message's cost", m.CostUSD); err != nil {
		return m, err
	}
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

// AppendContent appends streamed text to a streaming message. The text
// goes into a chunk of its own: the message's row is never rewritten, so
// an append costs in proportion to the text, however long the message is.
// It fails with CodeConflict when the message is not streaming.
func (s *Store) AppendContent(ctx context.Context, id, text string) (chat.Appended, error) {
	var a chat.Appended
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		var taskID sql.NullString
		var streaming bool
		var rev, seq, end int64
		err := tx.QueryRowContext(ctx, `SELECT conversation_id, task_id, streaming, rev,
			coalesce((SELECT max(seq) FROM message_chunks WHERE message_id = m.id), 0),
			coalesce((SELECT end_offset FROM message_chunks WHERE message_id = m.id ORDER BY seq DESC LIMIT 1),
				octet_length(content))
			FROM messages m WHERE id = ?`, id).Scan(&a.ConversationID, &taskID, &streaming, &rev, &seq, &end)
		if isNoRows(err) {
			return notFound("message", id)
		}
		if err != nil {
			return err
		}
		if !streaming {
			return chat.Errorf(chat.CodeConflict, "message %s is not streaming; nothing can be appended to it", chat.Quote(id))
		}
		seq++
		if _, err := tx.ExecContext(ctx,
			`INSERT INTO message_chunks (message_id, seq, end_offset, text) VALUES (?, ?, ?, ?)`,
			id, seq, end+int64(len(text)), text); err != nil {
			return err
		}
		a.TaskID = taskID.String
		a.Offset = int(end)
		a.Rev = int(rev + seq)
		return nil
	})
	if err != nil {
		return chat.Appended{}, fmt.Errorf("append to message: %w", err)
	}
	return a, nil
}

// UpdateMessage replaces a message's content, tool calls, streaming flag
// and usage. The content is the whole text: streamed chunks are dropped.
func (s *Store) UpdateMessage(ctx context.Context, m chat.Message) (chat.Message, error) {
	if err := chat.CheckFinite("a message's cost", m.CostUSD); err != nil {
		return m, err
	}
	var u chat.Usage
	if m.Usage != nil {
		u = *m.Usage
	}
	var out chat.Message
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		var err error
		out, err = scanMessage(tx.QueryRowContext(ctx, `UPDATE messages SET content = ?, tool_calls = ?,
			streaming = ?, prompt_tokens = ?, completion_tokens = ?, cost_usd = ?,
			rev = rev + 1 + coalesce((SELECT max(seq) FROM message_chunks WHERE message_id = messages.id), 0)
			WHERE id = ? RETURNING `+rowCols,
			m.Content, encodeCalls(m.ToolCalls), m.Streaming, u.PromptTokens, u.CompletionTokens, m.CostUSD, m.ID))
		if isNoRows(err) {
			return notFound("message", m.ID)
		}
		if err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, `DELETE FROM message_chunks WHERE message_id = ?`, m.ID)
		return err
	})
	if err != nil {
		return out, fmt.Errorf("update message: %w", err)
	}
	return out, nil
}

// finishStreams ends the streams of a task's messages still marked
// streaming, folding their chunks into their content, and returns them as
// stored, in order.
func finishStreams(ctx context.Context, q queryer, taskID string) ([]chat.Message, error) {
	rows, err := q.QueryContext(ctx, `UPDATE messages SET
		content = content || coalesce((SELECT group_concat(c.text, '' ORDER BY c.seq)
			FROM message_chunks c WHERE c.message_id = messages.id), ''),
		rev = rev + 1 + coalesce((SELECT max(c.seq) FROM message_chunks c WHERE c.message_id = messages.id), 0),
		streaming = 0
		WHERE task_id = ? AND streaming = 1 RETURNING `+rowCols, taskID)
	if err != nil {
		return nil, fmt.Errorf("finish streams: %w", err)
	}
	var out []chat.Message
	for rows.Next() {
		m, err := scanMessage(rows)
		if err != nil {
			rows.Close()
			return nil, fmt.Errorf("finish streams: %w", err)
		}
		out = append(out, m)
	}
	if err := rows.Close(); err != nil {
		return nil, fmt.Errorf("finish streams: %w", err)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("finish streams: %w", err)
	}
	for _, m := range out {
		if _, err := q.ExecContext(ctx, `DELETE FROM message_chunks WHERE message_id = ?`, m.ID); err != nil {
			return nil, fmt.Errorf("finish streams: %w", err)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Seq < out[j].Seq })
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

package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/errand-app/errand/backend/chat"
)

// messageCols are a message's columns as its row holds them. A message
// whose text continues in chunks (chunked) is completed by withChunks.
// OffBranch reads 1 for a message off the current branch (an export
// numbers them, see offBranchNumbers). The last two count the message's
// versions: it and its siblings, and those of them up to it (see
// versionCount).
var messageCols = `seq, id, conversation_id, task_id, role, content, tool_calls,
	tool_call_id, tool_name, is_error, step, streaming, rev, created_at,
	prompt_tokens, completion_tokens, cache_read_tokens, cache_write_tokens, cost_usd, chunked, summary_id, outcome, delivery,
	reasoning, reasoning_ms, reasoning_data, coalesce(parent_id, ''), NOT ` + onBranchOf("messages") + `, ` +
	versionCount + `), ` + versionCount + ` AND s.seq <= messages.seq)`

// scanMessage reads a row of messageCols; chunked tells whether the
// message's text continues in message_chunks.
func scanMessage(row interface{ Scan(...any) error }) (m chat.Message, chunked bool, err error) {
	var taskID sql.NullString
	var calls string
	var created int64
	var u chat.Usage
	err = row.Scan(&m.Seq, &m.ID, &m.ConversationID, &taskID, &m.Role, &m.Content, &calls,
		&m.ToolCallID, &m.ToolName, &m.IsError, &m.Step, &m.Streaming, &m.Rev, &created,
		&u.PromptTokens, &u.CompletionTokens, &u.CacheReadTokens, &u.CacheWriteTokens, &m.CostUSD, &chunked, &m.SummaryID, &m.Outcome, &m.Delivery,
		&m.Reasoning, &m.ReasoningMS, &m.ReasoningData, &m.ParentID, &m.OffBranch, &m.Versions, &m.Version)
	if err != nil {
		return m, chunked, err
	}
	if m.Versions < 2 || m.Delivery == chat.DeliveryQueued {
		m.Versions, m.Version = 0, 0
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
			return m, chunked, fmt.Errorf("message %s tool calls: %w", m.ID, err)
		}
	}
	return m, chunked, nil
}

// withChunks completes a chunked message: its text is its content followed
// by its text chunks in order, its reasoning likewise with its reasoning
// chunks, and its revision counts one per chunk (each append was one). The
// text is built in one allocation of its known size: that makes reading
// 5 MB about three times quicker.
func withChunks(ctx context.Context, q queryer, m *chat.Message) error {
	var last, size int
	err := q.QueryRowContext(ctx, `SELECT seq, end_offset FROM message_chunks
		WHERE message_id = ? AND reasoning = 0 ORDER BY seq DESC LIMIT 1`, m.ID).Scan(&last, &size)
	if err != nil && !isNoRows(err) {
		return fmt.Errorf("read streamed text: %w", err)
	}
	rows, err := q.QueryContext(ctx, `SELECT text, reasoning, seq FROM message_chunks WHERE message_id = ? ORDER BY seq`, m.ID)
	if err != nil {
		return fmt.Errorf("read streamed text: %w", err)
	}
	defer rows.Close()
	var b, r strings.Builder
	b.Grow(max(size, len(m.Content)))
	b.WriteString(m.Content)
	r.WriteString(m.Reasoning)
	last = 0
	for rows.Next() {
		var text string
		var reasoning bool
		if err := rows.Scan(&text, &reasoning, &last); err != nil {
			return fmt.Errorf("read streamed text: %w", err)
		}
		if reasoning {
			r.WriteString(text)
		} else {
			b.WriteString(text)
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("read streamed text: %w", err)
	}
	m.Content, m.Reasoning = b.String(), r.String()
	m.Rev += last
	return nil
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

// insertRow stores a new message where m.ParentID puts it in the
// conversation's tree, in the run run (a queued message is a run of its
// own, numbered -seq).
func insertRow(ctx context.Context, q queryer, m chat.Message, run int64) (chat.Message, error) {
	if err := chat.CheckFinite("a message's cost", m.CostUSD); err != nil {
		return m, err
	}
	m.Rev = 1
	var u chat.Usage
	if m.Usage != nil {
		u = *m.Usage
	}
	// A message created streaming may take chunks (see AppendContent).
	err := q.QueryRowContext(ctx, `INSERT INTO messages (id, conversation_id, task_id, role,
		content, tool_calls, tool_call_id, tool_name, is_error, step, streaming, rev, created_at,
		prompt_tokens, completion_tokens, cache_read_tokens, cache_write_tokens, cost_usd, chunked, summary_id, outcome, delivery, parent_id, run,
		reasoning, reasoning_ms, reasoning_data)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING seq, `+versionCount+`)`,
		m.ID, m.ConversationID, nullable(m.TaskID), string(m.Role), m.Content, encodeCalls(m.ToolCalls),
		m.ToolCallID, m.ToolName, m.IsError, m.Step, m.Streaming, m.Rev, ms(m.CreatedAt),
		u.PromptTokens, u.CompletionTokens, u.CacheReadTokens, u.CacheWriteTokens, m.CostUSD, m.Streaming, m.SummaryID, string(m.Outcome), string(m.Delivery),
		nullable(m.ParentID), run, m.Reasoning, m.ReasoningMS, m.ReasoningData).Scan(&m.Seq, &m.Versions)
	if err != nil {
		return m, fmt.Errorf("insert message: %w", err)
	}
	if m.Delivery == chat.DeliveryQueued {
		if _, err := q.ExecContext(ctx, `UPDATE messages SET run = -seq WHERE seq = ?`, m.Seq); err != nil {
			return m, fmt.Errorf("insert message: %w", err)
		}
	}
	if err := insertAttachments(ctx, q, m.ID, m.Attachments); err != nil {
		return m, err
	}
	m.Version = m.Versions // the newest of its versions
	if m.Versions < 2 || m.Delivery == chat.DeliveryQueued {
		m.Versions, m.Version = 0, 0
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
	return s.appendChunk(ctx, id, text, false)
}

// AppendReasoning appends streamed reasoning to a streaming message, as
// AppendContent appends text; Appended.Offset is the reasoning's length
// before it.
func (s *Store) AppendReasoning(ctx context.Context, id, text string) (chat.Appended, error) {
	return s.appendChunk(ctx, id, text, true)
}

// appendChunk stores a chunk of text, or of reasoning.
func (s *Store) appendChunk(ctx context.Context, id, text string, reasoning bool) (chat.Appended, error) {
	var a chat.Appended
	column := "content"
	if reasoning {
		column = "reasoning"
	}
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		var taskID sql.NullString
		var streaming, chunked bool
		var rev, seq, end int64
		err := tx.QueryRowContext(ctx, `SELECT conversation_id, task_id, streaming, chunked, rev,
			coalesce((SELECT max(seq) FROM message_chunks WHERE message_id = m.id), 0),
			coalesce((SELECT end_offset FROM message_chunks WHERE message_id = m.id AND reasoning = ? ORDER BY seq DESC LIMIT 1),
				octet_length(`+column+`))
			FROM messages m WHERE id = ?`, reasoning, id).Scan(&a.ConversationID, &taskID, &streaming, &chunked, &rev, &seq, &end)
		if isNoRows(err) {
			return notFound("message", id)
		}
		if err != nil {
			return err
		}
		if !streaming {
			return chat.Errorf(chat.CodeConflict, "message %s is not streaming; nothing can be appended to it", chat.Quote(id))
		}
		if !chunked { // made streaming again by an update: once
			if _, err := tx.ExecContext(ctx, `UPDATE messages SET chunked = 1 WHERE id = ?`, id); err != nil {
				return err
			}
		}
		seq++
		if _, err := tx.ExecContext(ctx,
			`INSERT INTO message_chunks (message_id, seq, end_offset, text, reasoning) VALUES (?, ?, ?, ?, ?)`,
			id, seq, end+int64(len(text)), text, reasoning); err != nil {
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

// UpdateMessage replaces a message's content, reasoning, tool calls,
// streaming flag, usage and outcome. The content and reasoning are whole:
// streamed chunks are folded in (dropped, since the message holds them).
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
		out, _, err = scanMessage(tx.QueryRowContext(ctx, `UPDATE messages SET content = ?, tool_calls = ?,
			streaming = ?, prompt_tokens = ?, completion_tokens = ?, cache_read_tokens = ?, cache_write_tokens = ?,
			cost_usd = ?, outcome = ?, chunked = 0,
			reasoning = ?, reasoning_ms = ?, reasoning_data = ?,
			rev = rev + 1 + coalesce((SELECT max(seq) FROM message_chunks WHERE message_id = messages.id), 0)
			WHERE id = ? RETURNING `+messageCols,
			m.Content, encodeCalls(m.ToolCalls), m.Streaming, u.PromptTokens, u.CompletionTokens, u.CacheReadTokens, u.CacheWriteTokens,
			m.CostUSD, string(m.Outcome),
			m.Reasoning, m.ReasoningMS, m.ReasoningData, m.ID))
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

// TakeQueued moves the task's queued messages to the end of the
// conversation as delivered: the model sees them after the step that was
// running when they were added.
func (s *Store) TakeQueued(ctx context.Context, taskID string) ([]chat.Message, error) {
	var out []chat.Message
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		var err error
		out, err = moveQueued(ctx, tx, taskID, "")
		return err
	})
	return out, err
}

// MarkDelivered clears a not-delivered message's mark (see chat.Store).
func (s *Store) MarkDelivered(ctx context.Context, conversationID, id string) (chat.Message, error) {
	m, _, err := scanMessage(s.db.QueryRowContext(ctx, `UPDATE messages SET delivery = '', rev = rev + 1
		WHERE id = ? AND conversation_id = ? AND delivery = '`+string(chat.DeliveryNotDelivered)+`' RETURNING `+messageCols,
		id, conversationID))
	if !isNoRows(err) {
		return m, s.classify("mark a message delivered", err)
	}
	if _, err := s.GetMessage(ctx, conversationID, id); err != nil {
		return m, err
	}
	return m, chat.Errorf(chat.CodeConflict, "the message is not waiting to be delivered")
}

// moveQueued gives the task's queued messages, in order, new places at the
// end of the conversation (the same id, a higher rev) marked to.
func moveQueued(ctx context.Context, q queryer, taskID string, to chat.Delivery) ([]chat.Message, error) {
	// The mark is written into the SQL, not bound: a bound value compared
	// where a partial index (messages_queued) has a constant makes SQLite
	// prepare the statement again on every run.
	queued, err := messagesWhere(ctx, q, `WHERE task_id = ? AND delivery = '`+string(chat.DeliveryQueued)+`' ORDER BY seq`, taskID)
	if err != nil {
		return nil, err
	}
	out := make([]chat.Message, 0, len(queued))
	for _, m := range queued {
		if _, err := q.ExecContext(ctx, `DELETE FROM messages WHERE id = ?`, m.ID); err != nil {
			return nil, fmt.Errorf("move queued message: %w", err)
		}
		// The delete took the message's files with it when it was their
		// last message: they are recorded again for the message moved.
		if err := restage(ctx, q, m.Attachments); err != nil {
			return nil, err
		}
		rev := m.Rev + 1
		m.Delivery = to
		stored, err := insertMessage(ctx, q, m)
		if err != nil {
			return nil, err
		}
		if _, err := q.ExecContext(ctx, `UPDATE messages SET rev = ? WHERE seq = ?`, rev, stored.Seq); err != nil {
			return nil, fmt.Errorf("move queued message: %w", err)
		}
		stored.Rev = rev
		out = append(out, stored)
	}
	return out, nil
}

// finishStreams ends the streams of a task's messages still marked
// streaming and returns them as stored, in order, without their text (see
// streamEnd). Their chunks stay: an end costs the same however long the
// text. cutOff marks them as cut off (Errand closed mid-reply): a resumed
// step starts again without them.
func finishStreams(ctx context.Context, q queryer, taskID string, cutOff bool) ([]chat.StreamEnd, error) {
	rows, err := q.QueryContext(ctx, `UPDATE messages SET streaming = 0, rev = rev + 1,
		outcome = CASE WHEN ? THEN ? ELSE outcome END
		WHERE task_id = ? AND streaming = 1 RETURNING id`, cutOff, string(chat.OutcomeCutOff), taskID)
	if err != nil {
		return nil, fmt.Errorf("finish streams: %w", err)
	}
	var ids []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			rows.Close()
			return nil, fmt.Errorf("finish streams: %w", err)
		}
		ids = append(ids, id)
	}
	if err := rows.Close(); err != nil {
		return nil, fmt.Errorf("finish streams: %w", err)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("finish streams: %w", err)
	}
	out := make([]chat.StreamEnd, 0, len(ids))
	for _, id := range ids {
		e, err := streamEnd(ctx, q, id)
		if err != nil {
			return nil, err
		}
		out = append(out, e)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Message.Seq < out[j].Message.Seq })
	return out, nil
}

// endCols are messageCols without the text and reasoning, which an ended
// stream's listeners were sent as they were appended.
var endCols = strings.NewReplacer("reasoning, reasoning_ms, reasoning_data,", "'', reasoning_ms, '',",
	"content,", "'' AS content,").Replace(messageCols)

// streamEndQuery reads where a message's text and reasoning end, and its
// chunks' count: each from the index message_chunks_kind alone, however
// long the message (a Stop reads it).
const streamEndQuery = `SELECT
	coalesce((SELECT end_offset FROM message_chunks WHERE message_id = m.id AND reasoning = 0 ORDER BY seq DESC LIMIT 1),
		octet_length(m.content)),
	coalesce((SELECT end_offset FROM message_chunks WHERE message_id = m.id AND reasoning = 1 ORDER BY seq DESC LIMIT 1),
		octet_length(m.reasoning)),
	coalesce((SELECT max(seq) FROM message_chunks WHERE message_id = m.id), 0)
	FROM messages m WHERE id = ?`

// streamEnd reads a message without its text: its row without content
// and reasoning (endCols), the byte lengths of both as a whole read would
// give them, and its revision counting its chunks (see withChunks).
// Streamed messages are the model's, which have no attachments.
func streamEnd(ctx context.Context, q queryer, id string) (chat.StreamEnd, error) {
	m, _, err := scanMessage(q.QueryRowContext(ctx, `SELECT `+endCols+` FROM messages WHERE id = ?`, id))
	if err != nil {
		return chat.StreamEnd{}, fmt.Errorf("read an ended stream: %w", err)
	}
	e := chat.StreamEnd{Message: m}
	var chunks int
	err = q.QueryRowContext(ctx, streamEndQuery, id).Scan(&e.ContentBytes, &e.ReasoningBytes, &chunks)
	if err != nil {
		return e, fmt.Errorf("read an ended stream: %w", err)
	}
	e.Message.Rev += chunks
	return e, nil
}

// Messages returns a conversation's current branch in order.
func (s *Store) Messages(ctx context.Context, conversationID string) ([]chat.Message, error) {
	return messages(ctx, s.db, conversationID)
}

// TaskMessages returns the messages a task wrote, in order.
func (s *Store) TaskMessages(ctx context.Context, taskID string) ([]chat.Message, error) {
	return messagesWhere(ctx, s.db, `WHERE task_id = ? ORDER BY seq`, taskID)
}

// callCols are messageCols without the text and reasoning, which pairing never needs:
// a task's calls are read without its replies' megabytes.
var callCols = strings.NewReplacer("reasoning, reasoning_ms, reasoning_data,", "'', 0, '',",
	"content,", "'' AS content,").Replace(messageCols)

// TaskCalls returns the task's messages that call tools and the tool
// results, in order, without their text.
func (s *Store) TaskCalls(ctx context.Context, taskID string) ([]chat.Message, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT `+callCols+` FROM messages
		WHERE task_id = ? AND (tool_calls != '' OR role = ?) ORDER BY seq`, taskID, chat.RoleTool)
	if err != nil {
		return nil, fmt.Errorf("query tool calls: %w", err)
	}
	defer rows.Close()
	out := []chat.Message{}
	for rows.Next() {
		m, _, err := scanMessage(rows)
		if err != nil {
			return nil, fmt.Errorf("scan message: %w", err)
		}
		out = append(out, m)
	}
	return out, rows.Err()
}

// messages are the conversation's current branch, in order.
func messages(ctx context.Context, q queryer, conversationID string) ([]chat.Message, error) {
	return branchPage(ctx, q, conversationID, 0, -1, false)
}

func messagesWhere(ctx context.Context, q queryer, where string, args ...any) ([]chat.Message, error) {
	rows, err := q.QueryContext(ctx, `SELECT `+messageCols+` FROM messages `+where, args...)
	if err != nil {
		return nil, fmt.Errorf("query messages: %w", err)
	}
	defer rows.Close()
	out := []chat.Message{}
	var chunked []int
	for rows.Next() {
		m, c, err := scanMessage(rows)
		if err != nil {
			return nil, fmt.Errorf("scan message: %w", err)
		}
		if c {
			chunked = append(chunked, len(out))
		}
		out = append(out, m)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	rows.Close()
	for _, i := range chunked {
		if err := withChunks(ctx, q, &out[i]); err != nil {
			return nil, err
		}
	}
	if err := withAttachments(ctx, q, out); err != nil {
		return nil, err
	}
	return out, nil
}

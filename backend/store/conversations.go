package store

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"github.com/errand-app/errand/backend/chat"
)

func ms(t time.Time) int64 { return t.UnixMilli() }

func fromMS(v int64) time.Time { return time.UnixMilli(v).UTC() }

const conversationCols = `id, title, title_set, mode, created_at, updated_at, workspace, model, agent_id, state, ended_by, end_reason, archived_at`

func scanConversation(row interface{ Scan(...any) error }) (chat.Conversation, error) {
	var c chat.Conversation
	var created, updated, archived int64
	err := row.Scan(&c.ID, &c.Title, &c.TitleSet, &c.Mode, &created, &updated, &c.Workspace, &c.Model, &c.AgentID,
		&c.State, &c.EndedBy, &c.EndReason, &archived)
	c.CreatedAt, c.UpdatedAt, c.Archived = fromMS(created), fromMS(updated), archived > 0
	return c, err
}

// CreateConversation stores a new conversation.
func (s *Store) CreateConversation(ctx context.Context, c chat.Conversation) error {
	return s.inTx(ctx, func(tx *sql.Tx) error { return insertConversation(ctx, tx, c) })
}

func insertConversation(ctx context.Context, q queryer, c chat.Conversation) error {
	if c.Mode == "" {
		c.Mode = chat.ModeAuto
	}
	if c.State == "" {
		c.State = chat.StateActive
	}
	_, err := q.ExecContext(ctx,
		`INSERT INTO conversations (`+conversationCols+`) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		c.ID, c.Title, c.TitleSet, string(c.Mode), ms(c.CreatedAt), ms(c.UpdatedAt), c.Workspace, c.Model, c.AgentID,
		string(c.State), c.EndedBy, c.EndReason, archivedAt(c.Archived, c.UpdatedAt))
	if err != nil {
		return fmt.Errorf("create conversation: %w", err)
	}
	return nil
}

// archivedAt is how archived_at keeps Archived: the time (Unix ms, at
// least 1), or 0.
func archivedAt(archived bool, at time.Time) int64 {
	if !archived {
		return 0
	}
	return max(ms(at), 1)
}

// GetConversation returns one conversation or a CodeNotFound error.
func (s *Store) GetConversation(ctx context.Context, id string) (chat.Conversation, error) {
	return getConversation(ctx, s.db, id)
}

type queryer interface {
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
}

func getConversation(ctx context.Context, q queryer, id string) (chat.Conversation, error) {
	c, err := scanConversation(q.QueryRowContext(ctx,
		`SELECT `+conversationCols+` FROM conversations WHERE id = ?`, id))
	if isNoRows(err) {
		return c, notFound("conversation", id)
	}
	if err != nil {
		return c, fmt.Errorf("get conversation: %w", err)
	}
	return c, nil
}

// ListConversations returns every conversation, newest activity first, each
// with its active task.
func (s *Store) ListConversations(ctx context.Context) ([]chat.ConversationSummary, error) {
	return s.listConversations(ctx, `SELECT `+conversationCols+` FROM conversations ORDER BY updated_at DESC, id`)
}

// RenameConversation sets a title chosen by the user.
func (s *Store) RenameConversation(ctx context.Context, id, title string) (chat.Conversation, error) {
	return s.updateConversation(ctx, id,
		`UPDATE conversations SET title = ?, title_set = 1 WHERE id = ?`, title, id)
}

// SetMode remembers the conversation's mode: auto, agent or chat.
func (s *Store) SetMode(ctx context.Context, id string, mode chat.TaskMode) (chat.Conversation, error) {
	m, err := chat.ParseMode(string(mode))
	if err != nil {
		return chat.Conversation{}, err
	}
	return s.updateConversation(ctx, id,
		`UPDATE conversations SET mode = ? WHERE id = ?`, string(m), id)
}

// SetWorkspace sets the conversation's workspace folder ("" for the default).
func (s *Store) SetWorkspace(ctx context.Context, id, dir string) (chat.Conversation, error) {
	return s.updateConversation(ctx, id,
		`UPDATE conversations SET workspace = ? WHERE id = ?`, dir, id)
}

// SetModel sets the conversation's model ("" for the default).
func (s *Store) SetModel(ctx context.Context, id, model string) (chat.Conversation, error) {
	return s.updateConversation(ctx, id,
		`UPDATE conversations SET model = ? WHERE id = ?`, model, id)
}

// SetAgent sets the conversation's agent ("" for Errand).
func (s *Store) SetAgent(ctx context.Context, id, agentID string) (chat.Conversation, error) {
	if agentID == chat.AgentErrand {
		agentID = ""
	}
	return s.updateConversation(ctx, id,
		`UPDATE conversations SET agent_id = ? WHERE id = ?`, agentID, id)
}

// EndConversation records how the conversation ended: completed, or ended
// early with who ended it and why (chat.CleanEndReason). Completed never
// replaces an early end.
func (s *Store) EndConversation(ctx context.Context, id string, end chat.ConversationEnd) (chat.Conversation, error) {
	if end.State == chat.StateCompleted {
		return s.updateConversation(ctx, id,
			`UPDATE conversations SET state = CASE state WHEN 'ended' THEN state ELSE 'completed' END WHERE id = ?`, id)
	}
	reason, err := chat.CleanEndReason(end.Reason)
	if err != nil {
		return chat.Conversation{}, err
	}
	if end.State != chat.StateEnded || (end.By != chat.EndedByAgent && end.By != chat.EndedByPerson) {
		return chat.Conversation{}, chat.Errorf(chat.CodeInvalid, "a conversation ends as completed, or as ended by the agent or the person")
	}
	return s.updateConversation(ctx, id,
		`UPDATE conversations SET state = 'ended', ended_by = ?, end_reason = ? WHERE id = ?`, end.By, reason, id)
}

// ArchiveConversation takes the conversation out of the list into the
// Archived view (archived true) or brings it back. Archiving is refused
// (CodeConflict) while a task is unfinished there.
func (s *Store) ArchiveConversation(ctx context.Context, id string, archived bool) (chat.Conversation, error) {
	if !archived {
		return s.updateConversation(ctx, id, `UPDATE conversations SET archived_at = 0 WHERE id = ?`, id)
	}
	var c chat.Conversation
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		busy, err := tasks(ctx, tx, `WHERE conversation_id = ? AND `+activeTask, id)
		if err != nil {
			return err
		}
		if len(busy) > 0 {
			return chat.Errorf(chat.CodeConflict, "this conversation's task is unfinished (%s); stop it before archiving the conversation", busy[0].Status)
		}
		if _, err := tx.ExecContext(ctx, `UPDATE conversations SET archived_at = ? WHERE id = ? AND archived_at = 0`,
			archivedAt(true, time.Now()), id); err != nil {
			return fmt.Errorf("archive conversation: %w", err)
		}
		c, err = getConversation(ctx, tx, id)
		return err
	})
	return c, err
}

func (s *Store) updateConversation(ctx context.Context, id, query string, args ...any) (chat.Conversation, error) {
	var c chat.Conversation
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, query, args...)
		if err != nil {
			return fmt.Errorf("update conversation: %w", err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return notFound("conversation", id)
		}
		c, err = getConversation(ctx, tx, id)
		return err
	})
	return c, err
}

// DeleteConversation removes a conversation with its messages and tasks.
func (s *Store) DeleteConversation(ctx context.Context, id string) error {
	defer s.facts.changed() // its facts go with it
	res, err := s.exec(ctx, `DELETE FROM conversations WHERE id = ?`, id)
	if err != nil {
		return fmt.Errorf("delete conversation: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return notFound("conversation", id)
	}
	return nil
}

// LoadConversation returns a conversation with all its messages and tasks,
// read in one transaction so they agree with each other.
func (s *Store) LoadConversation(ctx context.Context, id string) (chat.ConversationView, error) {
	var v chat.ConversationView
	tx, err := s.db.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return v, fmt.Errorf("load conversation: %w", err)
	}
	defer tx.Rollback()
	if v.Conversation, err = getConversation(ctx, tx, id); err != nil {
		return v, err
	}
	if v.Messages, err = messages(ctx, tx, id); err != nil {
		return v, err
	}
	if v.Tasks, err = tasks(ctx, tx, `WHERE conversation_id = ? ORDER BY started_at, rowid`, id); err != nil {
		return v, err
	}
	for i := range v.Tasks {
		if t := v.Tasks[i]; t.Active() {
			v.ActiveTask = &t
		}
	}
	v.Usage, v.CostUSD, err = conversationUsage(ctx, tx, id)
	return v, err
}

// touch bumps a conversation's activity time.
func touch(ctx context.Context, q queryer, id string, at time.Time) error {
	_, err := q.ExecContext(ctx,
		`UPDATE conversations SET updated_at = max(updated_at, ?) WHERE id = ?`, ms(at), id)
	if err != nil {
		return fmt.Errorf("touch conversation: %w", err)
	}
	return nil
}

// reopen readies a conversation for a new task: an archived one is
// refused (restore it first); a completed or ended one is active again.
func reopen(ctx context.Context, q queryer, c chat.Conversation) error {
	if c.Archived {
		return chat.Errorf(chat.CodeConflict, "this conversation is archived; restore it to continue")
	}
	if c.State == chat.StateActive {
		return nil
	}
	_, err := q.ExecContext(ctx, `UPDATE conversations SET state = 'active', ended_by = '', end_reason = '' WHERE id = ?`, c.ID)
	if err != nil {
		return fmt.Errorf("reopen conversation: %w", err)
	}
	return nil
}

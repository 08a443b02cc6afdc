package store

import (
	"context"
	"database/sql"
	"fmt"
	"sort"
	"strings"

	"github.com/errand-app/errand/backend/chat"
)

// ConversationRecord reads a conversation with its messages (every
// branch), tasks, summaries and facts, in one transaction so they agree.
func (s *Store) ConversationRecord(ctx context.Context, id string) (chat.ConversationRecord, error) {
	var r chat.ConversationRecord
	tx, err := s.db.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return r, fmt.Errorf("read conversation: %w", err)
	}
	defer tx.Rollback()
	if r.Conversation, err = getConversation(ctx, tx, id); err != nil {
		return r, err
	}
	// Every version: the whole tree, each message with its parent and its
	// place off the current branch, in seq order (a parent before its
	// children).
	if r.Messages, err = messagesWhere(ctx, tx, `WHERE conversation_id = ? ORDER BY seq`, id); err != nil {
		return r, err
	}
	if err := offBranchNumbers(ctx, tx, id, r.Messages); err != nil {
		return r, err
	}
	if r.Tasks, err = tasks(ctx, tx, `WHERE conversation_id = ? ORDER BY started_at, rowid`, id); err != nil {
		return r, err
	}
	if r.Summaries, err = summariesWhere(ctx, tx, `WHERE conversation_id = ? ORDER BY through_seq, rowid`, id); err != nil {
		return r, err
	}
	r.Facts, err = factsWhere(ctx, tx, `WHERE conversation_id = ? ORDER BY created_at, rowid`, id)
	return r, err
}

func summariesWhere(ctx context.Context, q queryer, where string, args ...any) ([]chat.Summary, error) {
	return collect(ctx, q, "read summaries", scanSummary, `SELECT `+summaryCols+` FROM summaries `+where, args...)
}

// ImportConversations stores whole conversations — their rows as given,
// ids included, which must be new — and what a backup restores besides,
// all in one transaction: either everything is stored or nothing. Each
// message gets a new seq in the record's order and keeps its place in the
// tree (ParentID, which must name an earlier message of the record, and
// OffBranch); a summary's ThroughSeq, which names a seq of the record,
// follows it. No task may be active.
func (s *Store) ImportConversations(ctx context.Context, recs []chat.ConversationRecord, extra chat.Restore) error {
	defer s.facts.changed()
	for _, r := range recs {
		for _, t := range r.Tasks {
			if t.Active() {
				return chat.Errorf(chat.CodeInvalid, "an imported task must have ended (task %s is %s)", chat.Quote(t.ID), t.Status)
			}
			if err := checkNumbers(t); err != nil {
				return err
			}
		}
	}
	if extra.Settings != nil {
		if err := settingsFinite(*extra.Settings); err != nil {
			return err
		}
	}
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		for _, r := range recs {
			if err := importRecord(ctx, tx, r); err != nil {
				return err
			}
		}
		for _, f := range extra.Facts {
			if err := insertFact(ctx, tx, f); err != nil {
				return err
			}
		}
		for _, p := range extra.Prompts {
			if err := insertPrompt(ctx, tx, p); err != nil {
				return err
			}
		}
		if extra.Settings != nil {
			return saveSettings(ctx, tx, *extra.Settings)
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("import: %w", err)
	}
	return nil
}

func importRecord(ctx context.Context, tx *sql.Tx, r chat.ConversationRecord) error {
	c := r.Conversation
	known, err := agentKnown(ctx, tx, c.AgentID)
	if err != nil {
		return err
	}
	if !known {
		c.AgentID = "" // an agent this Errand does not have: Errand's own answers
	}
	if err := insertConversation(ctx, tx, c); err != nil {
		return fmt.Errorf("insert conversation: %w", err)
	}
	for _, t := range r.Tasks {
		if _, err := tx.ExecContext(ctx,
			`INSERT INTO tasks (`+taskCols+`) VALUES (`+placeholders(strings.Count(taskCols, ",")+1)+`)`,
			taskArgs(t)...); err != nil {
			return fmt.Errorf("insert task: %w", err)
		}
	}
	old, now, err := importMessages(ctx, tx, c.ID, r)
	if err != nil {
		return err
	}
	for _, sum := range r.Summaries {
		// The last message the summary covers: the latest at or before
		// its seq in the record.
		i := sort.Search(len(old), func(i int) bool { return old[i] > sum.ThroughSeq }) - 1
		through := int64(0)
		if i >= 0 {
			through = now[i]
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO summaries (`+summaryCols+`) VALUES (?, ?, ?, ?, ?, ?)`,
			sum.ID, c.ID, through, sum.Text, sum.ToolLog, ms(sum.CreatedAt)); err != nil {
			return fmt.Errorf("insert summary: %w", err)
		}
	}
	for _, f := range r.Facts {
		f.ConversationID = c.ID
		if err := insertFact(ctx, tx, f); err != nil {
			return err
		}
	}
	// Inserting the messages moved its activity time; it keeps its own.
	_, err = tx.ExecContext(ctx, `UPDATE conversations SET updated_at = ? WHERE id = ?`, ms(c.UpdatedAt), c.ID)
	return err
}

func insertFact(ctx context.Context, q queryer, f chat.Fact) error {
	if _, err := q.ExecContext(ctx, `INSERT INTO facts (id, conversation_id, key, value, created_at, updated_at)
		VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`,
		f.ID, owner(f.ConversationID), f.Key, f.Value, ms(f.CreatedAt), ms(f.UpdatedAt)); err != nil {
		return fmt.Errorf("insert fact: %w", err)
	}
	return nil
}

// agentKnown reports whether id names a built-in agent or one stored here
// ("" is Errand's own).
func agentKnown(ctx context.Context, q queryer, id string) (bool, error) {
	if id == "" || chat.IsBuiltinAgent(id) {
		return true, nil
	}
	var n int
	if err := q.QueryRowContext(ctx, `SELECT count(*) FROM agents WHERE id = ?`, id).Scan(&n); err != nil {
		return false, fmt.Errorf("find agent: %w", err)
	}
	return n > 0, nil
}

package store

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/errand-app/errand/backend/chat"
)

const summaryCols = `id, conversation_id, through_seq, text, tool_log, created_at`

func scanSummary(row rowScanner) (chat.Summary, error) {
	var s chat.Summary
	var created int64
	err := row.Scan(&s.ID, &s.ConversationID, &s.ThroughSeq, &s.Text, &s.ToolLog, &created)
	s.CreatedAt = fromMS(created)
	return s, err
}

// AddSummary stores a summary and its notice in the transcript in one
// transaction; the notice's SummaryID is set to the summary's id. An empty
// summary is refused: it would stand in for messages and say nothing.
func (s *Store) AddSummary(ctx context.Context, sum chat.Summary, notice chat.Message) (chat.Message, error) {
	if sum.ID == "" || sum.ConversationID == "" {
		return notice, chat.Errorf(chat.CodeInvalid, "a summary needs an id and a conversation")
	}
	if sum.Text == "" {
		return notice, chat.Errorf(chat.CodeInvalid, "the summary is empty")
	}
	notice.SummaryID = sum.ID
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `INSERT INTO summaries (`+summaryCols+`) VALUES (?, ?, ?, ?, ?, ?)`,
			sum.ID, sum.ConversationID, sum.ThroughSeq, sum.Text, sum.ToolLog, ms(sum.CreatedAt)); err != nil {
			return fmt.Errorf("insert summary: %w", err)
		}
		var err error
		notice, err = insertMessage(ctx, tx, notice)
		return err
	})
	return notice, err
}

// LatestSummary returns the summary on the conversation's current branch
// (its notice is there) that covers the most: a summary made on another
// branch summarises messages this one may not hold.
func (s *Store) LatestSummary(ctx context.Context, conversationID string) (chat.Summary, bool, error) {
	sum, err := scanSummary(s.db.QueryRowContext(ctx, `SELECT `+summaryCols+` FROM summaries
		WHERE conversation_id = ? AND id IN (SELECT summary_id FROM messages
			WHERE conversation_id = ? AND summary_id != '' AND `+onBranchOf("messages")+`)
		ORDER BY through_seq DESC, created_at DESC LIMIT 1`, conversationID, conversationID))
	if isNoRows(err) {
		return chat.Summary{}, false, nil
	}
	if err != nil {
		return chat.Summary{}, false, fmt.Errorf("read summary: %w", err)
	}
	return sum, true, nil
}

// GetSummary returns one summary or a CodeNotFound error.
func (s *Store) GetSummary(ctx context.Context, id string) (chat.Summary, error) {
	sum, err := scanSummary(s.db.QueryRowContext(ctx, `SELECT `+summaryCols+` FROM summaries WHERE id = ?`, id))
	if isNoRows(err) {
		return sum, notFound("summary", id)
	}
	if err != nil {
		return sum, fmt.Errorf("read summary: %w", err)
	}
	return sum, nil
}

// MessagesSince returns the conversation's messages after afterSeq, in
// order: what a summary does not cover.
func (s *Store) MessagesSince(ctx context.Context, conversationID string, afterSeq int64) ([]chat.Message, error) {
	return branchPage(ctx, s.db, conversationID, afterSeq, -1, false)
}

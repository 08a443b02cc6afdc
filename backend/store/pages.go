package store

import (
	"context"
	"database/sql"
	"encoding/base64"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/errand-app/errand/backend/chat"
)

// Pages are keyset pages: a page starts where the last one ended, by
// value (a conversation's activity time and id, a message's seq), never
// by offset, so the thousandth page costs what the first does. Both
// orders have an index that walks them (see migration 0011 and
// messages_conversation).

// listCursor is where a page of the conversation list ended: the last
// conversation's activity time and id.
type listCursor struct {
	updated int64
	id      string
}

const cursorPrefix = "c1:"

func (c listCursor) String() string {
	return base64.RawURLEncoding.EncodeToString([]byte(cursorPrefix + strconv.FormatInt(c.updated, 10) + ":" + c.id))
}

func badCursor() error {
	return chat.Errorf(chat.CodeInvalid, "the list cursor is not one Errand made; load the list from the top")
}

// parseCursor reads a cursor made by listCursor.String.
func parseCursor(s string) (listCursor, error) {
	b, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil || !strings.HasPrefix(string(b), cursorPrefix) {
		return listCursor{}, badCursor()
	}
	at, id, ok := strings.Cut(strings.TrimPrefix(string(b), cursorPrefix), ":")
	updated, err := strconv.ParseInt(at, 10, 64)
	if !ok || err != nil || chat.CheckID("conversation", id) != nil {
		return listCursor{}, badCursor()
	}
	return listCursor{updated: updated, id: id}, nil
}

// likePattern matches text that contains s, with LIKE's wildcards in s
// taken literally (escaped with a backslash).
func likePattern(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`)
	return "%" + r.Replace(s) + "%"
}

// ConversationsPage returns one page of the conversation list, most
// recently active first (ties by id, descending), each with its active
// task. The title filter runs in SQLite: LIKE, which ignores the case of
// ASCII letters.
func (s *Store) ConversationsPage(ctx context.Context, q chat.ConversationQuery) (chat.ConversationPage, error) {
	page := chat.ConversationPage{Items: []chat.ConversationSummary{}}
	if err := chat.CheckPageSize(q.Limit); err != nil {
		return page, err
	}
	if err := chat.CheckTitleFilter(q.Title); err != nil {
		return page, err
	}
	where := []string{`archived_at = 0`}
	if q.Archived {
		where[0] = `archived_at > 0`
	}
	var args []any
	if q.Cursor != "" {
		c, err := parseCursor(q.Cursor)
		if err != nil {
			return page, err
		}
		where = append(where, `(updated_at, id) < (?, ?)`)
		args = append(args, c.updated, c.id)
	}
	if q.Agent != "" {
		agent := q.Agent
		if agent == chat.AgentErrand {
			agent = ""
		}
		where = append(where, `agent_id = ?`)
		args = append(args, agent)
	}
	if q.Title != "" {
		where = append(where, `title LIKE ? ESCAPE '\'`)
		args = append(args, likePattern(q.Title))
	}
	query := `SELECT ` + conversationCols + ` FROM conversations WHERE ` + strings.Join(where, ` AND `)
	query += ` ORDER BY updated_at DESC, id DESC LIMIT ?`
	args = append(args, q.Limit+1)
	items, err := s.listConversations(ctx, query, args...)
	if err != nil {
		return page, err
	}
	if len(items) > q.Limit {
		items = items[:q.Limit]
		last := items[len(items)-1].Conversation
		page.NextCursor = listCursor{updated: ms(last.UpdatedAt), id: last.ID}.String()
	}
	page.Items = items
	return page, nil
}

// listConversations runs a query of conversationCols and adds each
// conversation's active task.
func (s *Store) listConversations(ctx context.Context, query string, args ...any) ([]chat.ConversationSummary, error) {
	rows, err := s.db.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, fmt.Errorf("list conversations: %w", err)
	}
	defer rows.Close()
	out := []chat.ConversationSummary{}
	index := map[string]int{}
	for rows.Next() {
		c, err := scanConversation(rows)
		if err != nil {
			return nil, fmt.Errorf("list conversations: %w", err)
		}
		index[c.ID] = len(out)
		out = append(out, chat.ConversationSummary{Conversation: c})
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("list conversations: %w", err)
	}
	rows.Close()
	active, err := s.activeTasks(ctx)
	if err != nil {
		return nil, err
	}
	for _, t := range active {
		if i, ok := index[t.ConversationID]; ok {
			t := t
			out[i].ActiveTask = &t
		}
	}
	return out, nil
}

// OpenConversation returns a conversation with its latest limit messages,
// its active and latest tasks and the tasks those messages belong to, and
// its usage over all its tasks, read in one transaction.
func (s *Store) OpenConversation(ctx context.Context, id string, limit int) (chat.ConversationView, error) {
	var v chat.ConversationView
	if err := chat.CheckPageSize(limit); err != nil {
		return v, err
	}
	err := s.readTx(ctx, "open conversation", func(tx *sql.Tx) error {
		var err error
		if v.Conversation, err = getConversation(ctx, tx, id); err != nil {
			return err
		}
		page, err := messagesBefore(ctx, tx, id, math.MaxInt64, limit)
		if err != nil {
			return err
		}
		v.Messages, v.HasOlder = page.Messages, page.HasOlder
		if v.Tasks, err = openTasks(ctx, tx, id, v.Messages); err != nil {
			return err
		}
		for i := range v.Tasks {
			if t := v.Tasks[i]; t.Active() {
				v.ActiveTask = &t
			}
		}
		v.Usage, v.CostUSD, err = conversationUsage(ctx, tx, id)
		return err
	})
	return v, err
}

// openTasks reads the tasks a conversation's view needs: those of the
// messages shown, the active one and the latest of the branch (that of its
// last message with a task), oldest first.
func openTasks(ctx context.Context, q queryer, conversationID string, msgs []chat.Message) ([]chat.Task, error) {
	latest, err := lastBranchTask(ctx, q, conversationID)
	if err != nil {
		return nil, err
	}
	ids := map[string]bool{}
	args := []any{conversationID, latest}
	for _, m := range msgs {
		if m.TaskID != "" && !ids[m.TaskID] {
			ids[m.TaskID] = true
			args = append(args, m.TaskID)
		}
	}
	where := `WHERE conversation_id = ? AND (` + activeTask + ` OR id = ?`
	if len(ids) > 0 {
		where += ` OR id IN (` + placeholders(len(ids)) + `)`
	}
	return tasks(ctx, q, where+`) ORDER BY started_at, rowid`, args...)
}

// MessagesBefore returns up to limit messages that come just before the
// message beforeID, or the latest ones when beforeID is "".
func (s *Store) MessagesBefore(ctx context.Context, conversationID, beforeID string, limit int) (chat.MessagePage, error) {
	return s.messagePage(ctx, conversationID, beforeID, limit, func(tx *sql.Tx, seq int64) (chat.MessagePage, error) {
		if beforeID == "" {
			seq = math.MaxInt64
		}
		return messagesBefore(ctx, tx, conversationID, seq, limit)
	})
}

// MessagesAfter returns up to limit messages that come just after the
// message afterID, or the first ones when afterID is "".
func (s *Store) MessagesAfter(ctx context.Context, conversationID, afterID string, limit int) (chat.MessagePage, error) {
	return s.messagePage(ctx, conversationID, afterID, limit, func(tx *sql.Tx, seq int64) (chat.MessagePage, error) {
		return messagesAfter(ctx, tx, conversationID, seq, limit)
	})
}

// MessagesAround returns limit messages (fewer if the conversation has
// fewer) around the message id, that message included: about as many
// before it as after, more on one side when the other runs out.
func (s *Store) MessagesAround(ctx context.Context, conversationID, id string, limit int) (chat.MessagePage, error) {
	if err := chat.CheckID("message", id); err != nil {
		return chat.MessagePage{Messages: []chat.Message{}}, err
	}
	return s.messagePage(ctx, conversationID, id, limit, func(tx *sql.Tx, seq int64) (chat.MessagePage, error) {
		older, err := messagesBefore(ctx, tx, conversationID, seq+1, limit)
		if err != nil {
			return older, err
		}
		newer, err := messagesAfter(ctx, tx, conversationID, seq, limit-1)
		if err != nil {
			return newer, err
		}
		// older ends with the message itself; newer starts after it.
		wantNewer := min(len(newer.Messages), (limit-1)-(limit-1)/2)
		wantOlder := min(len(older.Messages), limit-wantNewer)
		wantNewer = min(len(newer.Messages), limit-wantOlder)
		return chat.MessagePage{
			Messages: append(older.Messages[len(older.Messages)-wantOlder:], newer.Messages[:wantNewer]...),
			HasOlder: older.HasOlder || wantOlder < len(older.Messages),
			HasNewer: newer.HasNewer || wantNewer < len(newer.Messages),
		}, nil
	})
}

// messagePage checks a page request and runs read in one read
// transaction with the seq of the message at (0 when at is "").
func (s *Store) messagePage(ctx context.Context, conversationID, at string, limit int,
	read func(tx *sql.Tx, seq int64) (chat.MessagePage, error)) (chat.MessagePage, error) {
	page := chat.MessagePage{Messages: []chat.Message{}}
	if err := chat.CheckPageSize(limit); err != nil {
		return page, err
	}
	if err := chat.CheckID("conversation", conversationID); err != nil {
		return page, err
	}
	err := s.readTx(ctx, "read messages", func(tx *sql.Tx) error {
		if _, err := getConversation(ctx, tx, conversationID); err != nil {
			return err
		}
		var seq int64
		if at != "" {
			err := tx.QueryRowContext(ctx, `SELECT seq FROM messages WHERE id = ? AND conversation_id = ?`,
				at, conversationID).Scan(&seq)
			if isNoRows(err) {
				return chat.Errorf(chat.CodeNotFound, "no message with id %s in this conversation", chat.Quote(at))
			}
			if err != nil {
				return err
			}
		}
		var err error
		page, err = read(tx, seq)
		return err
	})
	return page, err
}

// messagesBefore reads up to limit messages with a seq below seq, in order.
func messagesBefore(ctx context.Context, q queryer, conversationID string, seq int64, limit int) (chat.MessagePage, error) {
	msgs, err := branchPage(ctx, q, conversationID, seq, limit+1, true)
	if err != nil {
		return chat.MessagePage{}, err
	}
	page := chat.MessagePage{HasOlder: len(msgs) > limit, HasNewer: seq != math.MaxInt64}
	if page.HasOlder {
		msgs = msgs[:limit]
	}
	for i, j := 0, len(msgs)-1; i < j; i, j = i+1, j-1 {
		msgs[i], msgs[j] = msgs[j], msgs[i]
	}
	page.Messages = msgs
	return page, nil
}

// messagesAfter reads up to limit messages with a seq above seq, in order.
func messagesAfter(ctx context.Context, q queryer, conversationID string, seq int64, limit int) (chat.MessagePage, error) {
	msgs, err := branchPage(ctx, q, conversationID, seq, limit+1, false)
	if err != nil {
		return chat.MessagePage{}, err
	}
	page := chat.MessagePage{HasOlder: seq != 0, HasNewer: len(msgs) > limit}
	if page.HasNewer {
		msgs = msgs[:limit]
	}
	page.Messages = msgs
	return page, nil
}

// readTx runs fn in a read-only transaction, so what it reads agrees.
func (s *Store) readTx(ctx context.Context, what string, fn func(*sql.Tx) error) error {
	tx, err := s.db.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return s.classify(what, err)
	}
	defer tx.Rollback()
	if err := fn(tx); err != nil {
		return s.classify(what, fmt.Errorf("%s: %w", what, err))
	}
	return nil
}

package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/errand-app/errand/backend/chat"
	"github.com/google/uuid"
)

// A conversation is a tree of messages (see migration 0020): each message
// keeps its parent, and the current branch, the path from a first message
// to a leaf, is the one whose messages have off_branch = 0. On a branch,
// seq grows from parent to child, so the branch read in seq order is the
// path: pages read it through an index, whatever else the tree holds.

// versionCount counts, in a query of messages, the message's versions: it
// and the other children of its parent (a queued message is nobody's
// version: it moves). Followed by "AND s.seq <= messages.seq)", it counts
// those up to it instead; otherwise close it with ")".
const versionCount = `(SELECT count(*) FROM messages s INDEXED BY messages_parent WHERE s.conversation_id = messages.conversation_id
	AND s.parent_id IS messages.parent_id AND s.delivery != 'queued'`

// onBranch is the SQL condition of a task with a message on its
// conversation's current branch.
const onBranch = `EXISTS (SELECT 1 FROM messages b WHERE b.task_id = tasks.id AND b.off_branch = 0)`

// branchTip is the message the conversation's next message continues: the
// last of the current branch ("" when the branch is empty).
func branchTip(ctx context.Context, q queryer, conversationID string) (string, error) {
	var id string
	err := q.QueryRowContext(ctx, `SELECT id FROM messages WHERE conversation_id = ? AND off_branch = 0
		AND delivery != 'queued' ORDER BY seq DESC LIMIT 1`, conversationID).Scan(&id)
	if isNoRows(err) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("read the branch: %w", err)
	}
	return id, nil
}

// branchNode is a message's place in the tree.
type branchNode struct {
	seq       int64
	parent    string
	offBranch int64
	taskID    string
	role      chat.Role
	content   string
}

// node reads a message of the conversation; one that is not there (never
// was, or was deleted) is CodeNotFound.
func node(ctx context.Context, q queryer, conversationID, id string) (branchNode, error) {
	var n branchNode
	var task sql.NullString
	err := q.QueryRowContext(ctx, `SELECT seq, coalesce(parent_id, ''), off_branch, task_id, role, content
		FROM messages WHERE id = ? AND conversation_id = ?`, id, conversationID).
		Scan(&n.seq, &n.parent, &n.offBranch, &task, &n.role, &n.content)
	if isNoRows(err) {
		return n, chat.Errorf(chat.CodeNotFound, "no message with id %s in this conversation: it may have been deleted", chat.Quote(id))
	}
	if err != nil {
		return n, fmt.Errorf("read message: %w", err)
	}
	n.taskID = task.String
	return n, nil
}

// refuseWhileRunning fails with CodeConflict when the conversation has a
// task that has not ended: its branch must not change under it.
func refuseWhileRunning(ctx context.Context, q queryer, conversationID, what string) error {
	active, err := tasks(ctx, q, `WHERE conversation_id = ? AND `+activeTask, conversationID)
	if err != nil {
		return err
	}
	if len(active) > 0 {
		return chat.Errorf(chat.CodeConflict,
			"%s while a task is in progress in this conversation; stop it or wait for it to finish", what)
	}
	return nil
}

// nextSwitch is the number the conversation's next switch gives the
// messages it takes off the branch.
func nextSwitch(ctx context.Context, q queryer, conversationID string) (int64, error) {
	var next int64
	if err := q.QueryRowContext(ctx, `UPDATE conversations SET branch_switches = branch_switches + 1
		WHERE id = ? RETURNING branch_switches`, conversationID).Scan(&next); err != nil {
		return 0, fmt.Errorf("switch branch: %w", err)
	}
	return next, nil
}

// cutAfter takes the current branch's messages after seq off the branch:
// they stay, as the most recently left continuation of the message at seq.
func cutAfter(ctx context.Context, q queryer, conversationID string, seq int64) error {
	next, err := nextSwitch(ctx, q, conversationID)
	if err != nil {
		return err
	}
	if _, err := q.ExecContext(ctx, `UPDATE messages SET off_branch = ?
		WHERE conversation_id = ? AND off_branch = 0 AND seq > ?`, next, conversationID, seq); err != nil {
		return fmt.Errorf("switch branch: %w", err)
	}
	return nil
}

// switchTo makes the branch through the message id current: the path from
// the first message to it, then below it the continuation last shown.
// Only the part that differs from the current branch is written.
//
// The continuation last shown below a message off the branch is what was
// taken off with it: a cut gives one number to the whole part of the
// branch it takes off, a path, and a message cannot come back on the
// branch without the messages above it, which then leave again under a
// new number. So below the message, the messages with its number are that
// continuation, found by the number rather than by a walk down the tree.
func switchTo(ctx context.Context, q queryer, conversationID, id string) error {
	n, err := node(ctx, q, conversationID, id)
	if err != nil || n.offBranch == 0 {
		return err
	}
	// Up from the message to where it joins the current branch.
	rows, err := q.QueryContext(ctx, `WITH RECURSIVE up(id, parent_id, off, seq) AS (
			SELECT id, parent_id, off_branch, seq FROM messages WHERE id = ?
			UNION ALL
			SELECT m.id, m.parent_id, m.off_branch, m.seq FROM messages m JOIN up ON m.id = up.parent_id WHERE up.off != 0)
		SELECT off, seq FROM up`, id)
	if err != nil {
		return fmt.Errorf("switch branch: %w", err)
	}
	var path []int64
	var fork int64
	for rows.Next() {
		var off, seq int64
		if err := rows.Scan(&off, &seq); err != nil {
			rows.Close()
			return fmt.Errorf("switch branch: %w", err)
		}
		if off == 0 {
			fork = seq
		} else {
			path = append(path, seq)
		}
	}
	if err := rows.Close(); err != nil {
		return fmt.Errorf("switch branch: %w", err)
	}
	if err := cutAfter(ctx, q, conversationID, fork); err != nil {
		return err
	}
	up, err := json.Marshal(path)
	if err != nil {
		return fmt.Errorf("switch branch: %w", err)
	}
	if _, err := q.ExecContext(ctx, `UPDATE messages SET off_branch = 0 WHERE seq IN (SELECT value FROM json_each(?))`, string(up)); err != nil {
		return fmt.Errorf("switch branch: %w", err)
	}
	if _, err := q.ExecContext(ctx, `UPDATE messages SET off_branch = 0 WHERE conversation_id = ? AND off_branch = ?
		AND seq > ? AND delivery != 'queued'`, conversationID, n.offBranch, n.seq); err != nil {
		return fmt.Errorf("switch branch: %w", err)
	}
	return nil
}

// SwitchBranch makes the branch through the message id the conversation's
// current one (the continuation below it last shown). It is refused while
// a task runs in the conversation; no message is lost either way.
func (s *Store) SwitchBranch(ctx context.Context, conversationID, id string) error {
	return s.inTx(ctx, func(tx *sql.Tx) error {
		if n, err := node(ctx, tx, conversationID, id); err != nil || n.offBranch == 0 {
			return err // on the branch already: nothing changes
		}
		if err := refuseWhileRunning(ctx, tx, conversationID, "the branch cannot be switched"); err != nil {
			return err
		}
		return switchTo(ctx, tx, conversationID, id)
	})
}

// ShowVersion makes the version step places from the message id (-1 the
// previous, +1 the next, among it and its siblings, oldest first) current
// and returns that version's id.
func (s *Store) ShowVersion(ctx context.Context, conversationID, id string, step int) (string, error) {
	var target string
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		if err := refuseWhileRunning(ctx, tx, conversationID, "another version cannot be shown"); err != nil {
			return err
		}
		n, err := node(ctx, tx, conversationID, id)
		if err != nil {
			return err
		}
		sibs, err := siblings(ctx, tx, conversationID, n.parent)
		if err != nil {
			return err
		}
		at := slices.Index(sibs, id) + step
		if at < 0 || at >= len(sibs) {
			return chat.Errorf(chat.CodeInvalid, "there is no version %d of this message: it has %d", at+1, len(sibs))
		}
		target = sibs[at]
		return switchTo(ctx, tx, conversationID, target)
	})
	return target, err
}

// siblings are the ids of the children of parent ("" for the first
// messages), oldest first.
func siblings(ctx context.Context, q queryer, conversationID, parent string) ([]string, error) {
	rows, err := q.QueryContext(ctx, `SELECT id FROM messages INDEXED BY messages_parent WHERE conversation_id = ? AND parent_id IS ?
		AND delivery != 'queued' ORDER BY seq`, conversationID, nullable(parent))
	if err != nil {
		return nil, fmt.Errorf("read versions: %w", err)
	}
	return collectStrings(rows)
}

func collectStrings(rows *sql.Rows) ([]string, error) {
	defer rows.Close()
	var out []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, rows.Err()
}

// StartTaskFrom is StartTask on a new branch: the current branch is cut
// after the message afterID ("" to start from nothing) and the task's
// messages continue it there, beside what followed before, which stays.
// It is how a reply is regenerated (afterID its prompt, and no prompt
// message: the task answers the one there) and how an edited message is
// sent (afterID the edited message's parent).
func (s *Store) StartTaskFrom(ctx context.Context, t chat.Task, prompt chat.Message, afterID string) (chat.Message, error) {
	if prompt.ID != "" {
		if err := chat.CheckMessage(prompt.Content); err != nil {
			return prompt, err
		}
	}
	return s.startTask(ctx, t, prompt, func(tx *sql.Tx) error {
		var seq int64
		if afterID != "" {
			n, err := node(ctx, tx, t.ConversationID, afterID)
			if err != nil {
				return err
			}
			if err := switchTo(ctx, tx, t.ConversationID, afterID); err != nil {
				return err
			}
			seq = n.seq
		}
		return cutAfter(ctx, tx, t.ConversationID, seq)
	})
}

// DeleteBranch deletes the message id and everything that continues it.
// A message of the current branch is refused: switch to another version
// first.
func (s *Store) DeleteBranch(ctx context.Context, conversationID, id string) error {
	return s.inTx(ctx, func(tx *sql.Tx) error {
		n, err := node(ctx, tx, conversationID, id)
		if err != nil {
			return err
		}
		if n.offBranch == 0 {
			return chat.Errorf(chat.CodeConflict, "this version is the one shown; switch to another version before deleting it")
		}
		_, err = tx.ExecContext(ctx, `WITH RECURSIVE sub(id) AS (
				SELECT ?
				UNION ALL
				SELECT m.id FROM messages m INDEXED BY messages_parent JOIN sub ON m.conversation_id = ? AND m.parent_id = sub.id)
			DELETE FROM messages WHERE id IN (SELECT id FROM sub)`, id, conversationID)
		if err != nil {
			return fmt.Errorf("delete branch: %w", err)
		}
		return nil
	})
}

// CopyBranch copies the branch that leads to the message id, that message
// included, into the new conversation c: the messages (with new ids) and
// the tasks they belong to (ended ones: a task still running is not
// copied, its messages are). It fails with CodeNotFound when the message
// is not in the conversation any more.
func (s *Store) CopyBranch(ctx context.Context, conversationID, id string, c chat.Conversation) ([]chat.Message, error) {
	var out []chat.Message
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		if _, err := node(ctx, tx, conversationID, id); err != nil {
			return err
		}
		if err := insertConversation(ctx, tx, c); err != nil {
			return err
		}
		msgs, err := messagesWhere(ctx, tx, `WHERE id IN (WITH RECURSIVE up(id, parent_id) AS (
				SELECT id, parent_id FROM messages WHERE id = ?
				UNION ALL
				SELECT m.id, m.parent_id FROM messages m JOIN up ON m.id = up.parent_id)
			SELECT id FROM up) ORDER BY seq`, id)
		if err != nil {
			return err
		}
		taskIDs, err := copyTasks(ctx, tx, msgs, c.ID)
		if err != nil {
			return err
		}
		for _, m := range msgs {
			m.ID, m.ConversationID, m.TaskID = uuid.NewString(), c.ID, taskIDs[m.TaskID]
			m.Streaming, m.Delivery = false, ""
			stored, err := insertMessage(ctx, tx, m)
			if err != nil {
				return err
			}
			out = append(out, stored)
		}
		return nil
	})
	return out, err
}

// copyTasks copies the ended tasks of msgs into the conversation and maps
// each old task id to its copy's ("" for a task not copied).
func copyTasks(ctx context.Context, q queryer, msgs []chat.Message, conversationID string) (map[string]string, error) {
	ids := map[string]string{}
	var args []any
	for _, m := range msgs {
		if _, ok := ids[m.TaskID]; m.TaskID != "" && !ok {
			ids[m.TaskID] = ""
			args = append(args, m.TaskID)
		}
	}
	if len(args) == 0 {
		return ids, nil
	}
	ts, err := tasks(ctx, q, `WHERE id IN (`+placeholders(len(args))+`) AND NOT (`+activeTask+`)`, args...)
	if err != nil {
		return nil, err
	}
	cols := strings.Count(taskCols, ",") + 1
	for _, t := range ts {
		old := t.ID
		t.ID, t.ConversationID = uuid.NewString(), conversationID
		if _, err := q.ExecContext(ctx, `INSERT INTO tasks (`+taskCols+`) VALUES (`+placeholders(cols)+`)`, taskArgs(t)...); err != nil {
			return nil, fmt.Errorf("copy task: %w", err)
		}
		ids[old] = t.ID
	}
	return ids, nil
}

// LastTurn is the last task on the conversation's current branch and the
// message it answers: its prompt, or for a task that has none of its own
// (a regenerated reply, a proactive agent's turn) the message before it.
func (s *Store) LastTurn(ctx context.Context, conversationID string) (chat.Turn, error) {
	var turn chat.Turn
	err := s.readTx(ctx, "read the last turn", func(tx *sql.Tx) error {
		var taskID string
		err := tx.QueryRowContext(ctx, `SELECT task_id FROM messages WHERE conversation_id = ? AND off_branch = 0
			AND task_id IS NOT NULL ORDER BY seq DESC LIMIT 1`, conversationID).Scan(&taskID)
		if isNoRows(err) {
			return chat.Errorf(chat.CodeInvalid, "there is no reply here to regenerate yet")
		}
		if err != nil {
			return err
		}
		ts, err := tasks(ctx, tx, `WHERE id = ?`, taskID)
		if err != nil || len(ts) == 0 {
			return err
		}
		turn.Task = ts[0]
		var first string
		var parent sql.NullString
		var role chat.Role
		if err := tx.QueryRowContext(ctx, `SELECT id, parent_id, role FROM messages WHERE task_id = ? AND off_branch = 0
			ORDER BY seq LIMIT 1`, taskID).Scan(&first, &parent, &role); err != nil {
			return err
		}
		turn.AfterID = parent.String
		if role == chat.RoleUser {
			turn.AfterID = first
		}
		return nil
	})
	return turn, err
}

// GetMessage returns one message of the conversation, or CodeNotFound.
func (s *Store) GetMessage(ctx context.Context, conversationID, id string) (chat.Message, error) {
	ms, err := messagesWhere(ctx, s.db, `WHERE id = ? AND conversation_id = ?`, id, conversationID)
	if err != nil {
		return chat.Message{}, err
	}
	if len(ms) == 0 {
		return chat.Message{}, chat.Errorf(chat.CodeNotFound, "no message with id %s in this conversation: it may have been deleted", chat.Quote(id))
	}
	return ms[0], nil
}

// AddVersion stores m as another version of the message id: a child of
// that message's parent beside it, off the current branch.
func (s *Store) AddVersion(ctx context.Context, m chat.Message, of string) (chat.Message, error) {
	var out chat.Message
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		n, err := node(ctx, tx, m.ConversationID, of)
		if err != nil {
			return err
		}
		stored, err := insertMessage(ctx, tx, m)
		if err != nil {
			return err
		}
		next, err := nextSwitch(ctx, tx, m.ConversationID)
		if err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `UPDATE messages SET parent_id = ?, off_branch = ? WHERE seq = ?`,
			nullable(n.parent), next, stored.Seq); err != nil {
			return fmt.Errorf("add version: %w", err)
		}
		ms, err := messagesWhere(ctx, tx, `WHERE seq = ?`, stored.Seq)
		if err != nil {
			return err
		}
		out = ms[0]
		return nil
	})
	return out, err
}

package store

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strings"

	"github.com/errand-app/errand/backend/chat"
	"github.com/google/uuid"
)

// A conversation is a tree of messages (see migration 0020): each message
// keeps its parent, and the current branch, the path from a first message
// to a leaf, is kept in branch_runs (see branch.go and migration 0028).

// versionCount counts, in a query of messages, the message's versions: it
// and the other children of its parent (a queued message is nobody's
// version: it moves). Followed by "AND s.seq <= messages.seq)", it counts
// those up to it instead; otherwise close it with ")".
const versionCount = `(SELECT count(*) FROM messages s INDEXED BY messages_parent WHERE s.conversation_id = messages.conversation_id
	AND s.parent_id IS messages.parent_id AND s.delivery != 'queued'`

// branchNode is a message's place in the tree.
type branchNode struct {
	seq, run int64
	parent   string
	onBranch bool
	taskID   string
	role     chat.Role
	content  string
}

// node reads a message of the conversation; one that is not there (never
// was, or was deleted) is CodeNotFound.
func node(ctx context.Context, q queryer, conversationID, id string) (branchNode, error) {
	var n branchNode
	var task sql.NullString
	err := q.QueryRowContext(ctx, `SELECT seq, run, coalesce(parent_id, ''), `+onBranchOf("messages")+`, task_id, role, content
		FROM messages WHERE id = ? AND conversation_id = ?`, id, conversationID).
		Scan(&n.seq, &n.run, &n.parent, &n.onBranch, &task, &n.role, &n.content)
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

// SwitchBranch makes the branch through the message id the conversation's
// current one (the continuation below it last shown). It is refused while
// a task runs in the conversation; no message is lost either way.
func (s *Store) SwitchBranch(ctx context.Context, conversationID, id string) error {
	return s.inTx(ctx, func(tx *sql.Tx) error {
		if n, err := node(ctx, tx, conversationID, id); err != nil || n.onBranch {
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
		if afterID == "" {
			return cutAfter(ctx, tx, t.ConversationID, nil)
		}
		n, err := node(ctx, tx, t.ConversationID, afterID)
		if err != nil {
			return err
		}
		if err := switchTo(ctx, tx, t.ConversationID, afterID); err != nil {
			return err
		}
		return cutAfter(ctx, tx, t.ConversationID, &n)
	})
}

// DeleteBranch deletes the message id and everything that continues it.
// When it is the version shown, the version before it (else the one after)
// is shown instead; the only version of a message is refused, as is any
// deletion while a task runs in the conversation.
func (s *Store) DeleteBranch(ctx context.Context, conversationID, id string) error {
	return s.inTx(ctx, func(tx *sql.Tx) error {
		n, err := node(ctx, tx, conversationID, id)
		if err != nil {
			return err
		}
		if err := refuseWhileRunning(ctx, tx, conversationID, "a branch cannot be deleted"); err != nil {
			return err
		}
		if n.onBranch {
			if err := showNeighbour(ctx, tx, conversationID, id, n.parent); err != nil {
				return err
			}
		}
		_, err = tx.ExecContext(ctx, `WITH RECURSIVE sub(id) AS (
				SELECT ?
				UNION ALL
				SELECT m.id FROM messages m INDEXED BY messages_parent JOIN sub ON m.conversation_id = ? AND m.parent_id = sub.id)
			DELETE FROM messages WHERE id IN (SELECT id FROM sub)`, id, conversationID)
		if err != nil {
			return fmt.Errorf("delete branch: %w", err)
		}
		// What a switch back would show below a message goes with it.
		if _, err := tx.ExecContext(ctx, `DELETE FROM branch_choices WHERE conversation_id = ?1 AND (
				NOT EXISTS (SELECT 1 FROM messages m WHERE m.seq = branch_choices.seq)
				OR (child IS NOT NULL AND NOT EXISTS (SELECT 1 FROM messages m WHERE m.conversation_id = ?1 AND m.run = child)))`,
			conversationID); err != nil {
			return fmt.Errorf("delete branch: %w", err)
		}
		return nil
	})
}

// showNeighbour shows, in place of the version id, the version before it
// (else the one after); CodeInvalid when it is the only one.
func showNeighbour(ctx context.Context, q queryer, conversationID, id, parent string) error {
	sibs, err := siblings(ctx, q, conversationID, parent)
	if err != nil {
		return err
	}
	if len(sibs) < 2 {
		return chat.Errorf(chat.CodeInvalid,
			"this is the only version of this message, so there is no other branch to show in its place; to remove it all, delete the conversation")
	}
	at := slices.Index(sibs, id)
	other := max(at-1, 0)
	if at == 0 {
		other = 1
	}
	return switchTo(ctx, q, conversationID, sibs[other])
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
	return s.TurnOf(ctx, conversationID, "")
}

// TurnOf is LastTurn of the reply replyID ("" for the branch's last): the
// task that wrote it and the message that task answers.
func (s *Store) TurnOf(ctx context.Context, conversationID, replyID string) (chat.Turn, error) {
	var turn chat.Turn
	err := s.readTx(ctx, "read the turn", func(tx *sql.Tx) error {
		taskID, err := replyTask(ctx, tx, conversationID, replyID)
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
		if err := tx.QueryRowContext(ctx, `SELECT id, parent_id, role FROM messages WHERE task_id = ? AND `+onBranchOf("messages")+`
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

// replyTask is the task of the reply replyID, shown on the branch ("" for
// the branch's last task).
func replyTask(ctx context.Context, q queryer, conversationID, replyID string) (string, error) {
	if replyID == "" {
		taskID, err := lastBranchTask(ctx, q, conversationID)
		if err == nil && taskID == "" {
			err = chat.Errorf(chat.CodeInvalid, "there is no reply here to regenerate yet")
		}
		return taskID, err
	}
	n, err := node(ctx, q, conversationID, replyID)
	switch {
	case err != nil:
		return "", err
	case n.role != chat.RoleAssistant:
		return "", chat.Errorf(chat.CodeInvalid, "only the agent's replies can be regenerated")
	case !n.onBranch:
		return "", chat.Errorf(chat.CodeInvalid, "this reply is not on the branch shown; show it first")
	case n.taskID == "":
		return "", chat.Errorf(chat.CodeInvalid, "this reply was not written by a task, so there is nothing to run again; use Variations instead")
	}
	return n.taskID, nil
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

// lastBranchTask is the task of the last message of the current branch
// that has one ("" when none has).
func lastBranchTask(ctx context.Context, q queryer, conversationID string) (string, error) {
	var taskID string
	err := eachBranchRun(ctx, q, conversationID, runEnd, true, func(br branchRun) (bool, error) {
		err := q.QueryRowContext(ctx, `SELECT task_id FROM messages INDEXED BY messages_run_task WHERE conversation_id = ? AND run = ? AND seq <= ?
			AND task_id IS NOT NULL ORDER BY seq DESC LIMIT 1`, conversationID, br.run, br.upto).Scan(&taskID)
		if isNoRows(err) {
			return true, nil
		}
		return false, err
	})
	return taskID, err
}

// AddVersion stores m as another version of the message id: a child of
// that message's parent beside it, off the current branch (a run of its
// own).
func (s *Store) AddVersion(ctx context.Context, m chat.Message, of string) (chat.Message, error) {
	var out chat.Message
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		n, err := node(ctx, tx, m.ConversationID, of)
		if err != nil {
			return err
		}
		run, err := nextRun(ctx, tx, m.ConversationID)
		if err != nil {
			return err
		}
		m.ParentID, m.OffBranch = n.parent, 1
		out, err = insertRow(ctx, tx, m, run)
		return err
	})
	return out, err
}

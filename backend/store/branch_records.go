package store

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/errand-app/errand/backend/chat"
)

// An export says where each message is in the tree as messages did before
// runs (migration 0020): ParentID, and OffBranch, 0 on the current branch
// and otherwise the number of the path a switch took off, so that below a
// message off the branch the messages of its number are the continuation
// a switch back shows. Import turns those paths back into runs.

// offBranchNumbers numbers the paths off the branch of a conversation's
// messages, all of them in seq order (OffBranch 0 on the branch, else 1
// as read): a message continues its parent's path when it is what a
// switch to the parent would show below it.
func offBranchNumbers(ctx context.Context, q queryer, conversationID string, msgs []chat.Message) error {
	next, err := continuations(ctx, q, conversationID)
	if err != nil {
		return err
	}
	number := map[string]int64{}
	seqOf := map[string]int64{}
	var paths int64
	for i, m := range msgs {
		seqOf[m.ID] = m.Seq
		if m.OffBranch == 0 {
			continue
		}
		p, ok := number[m.ParentID]
		if !ok || next[seqOf[m.ParentID]] != m.Seq {
			paths++
			p = paths
		}
		number[m.ID] = p
		msgs[i].OffBranch = p
	}
	return nil
}

// continuations maps the seq of each message that has one to the seq of
// the message a switch to it shows below it: the next of its run, unless
// a choice says otherwise.
func continuations(ctx context.Context, q queryer, conversationID string) (map[int64]int64, error) {
	next := map[int64]int64{}
	rows, err := q.QueryContext(ctx, `SELECT seq, lead(seq) OVER (PARTITION BY run ORDER BY seq) FROM messages
		WHERE conversation_id = ? AND delivery != 'queued'`, conversationID)
	if err != nil {
		return nil, fmt.Errorf("read the tree: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var seq int64
		var after sql.NullInt64
		if err := rows.Scan(&seq, &after); err != nil {
			return nil, fmt.Errorf("read the tree: %w", err)
		}
		if after.Valid {
			next[seq] = after.Int64
		}
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("read the tree: %w", err)
	}
	rows.Close()
	choices, err := q.QueryContext(ctx, `SELECT c.seq, (SELECT min(m.seq) FROM messages m WHERE m.conversation_id = c.conversation_id
		AND m.run = c.child) FROM branch_choices c WHERE c.conversation_id = ?`, conversationID)
	if err != nil {
		return nil, fmt.Errorf("read the tree: %w", err)
	}
	defer choices.Close()
	for choices.Next() {
		var seq int64
		var child sql.NullInt64
		if err := choices.Scan(&seq, &child); err != nil {
			return nil, fmt.Errorf("read the tree: %w", err)
		}
		next[seq] = child.Int64 // 0: nothing below it
	}
	return next, choices.Err()
}

// placedMessage is an imported message's place: its seq, run and number
// off the branch as the record gave it.
type placedMessage struct{ seq, run, off int64 }

// importMessages stores a record's messages in the conversation
// conversationID (new, empty) and returns their seqs in the record and as
// stored. A message continues its parent's run when it continues its
// path (the same number off the branch, the parent the last of its run);
// the runs that hold the record's branch (OffBranch 0) make the current
// branch. A record written before the tree is one branch, in order.
func importMessages(ctx context.Context, tx *sql.Tx, conversationID string, r chat.ConversationRecord) (old, now []int64, err error) {
	tree := r.InTree()
	placed := map[string]placedMessage{}
	last := map[int64]string{}    // run → its last message so far
	branch := map[int64]segment{} // runs of the branch
	var runs int64
	for i, m := range r.Messages {
		if err := chat.CheckFinite("a message's cost", m.CostUSD); err != nil {
			return nil, nil, err
		}
		p, ok := placed[m.ParentID]
		if m.ParentID != "" && !ok {
			return nil, nil, chat.Errorf(chat.CodeInvalid, "message %d continues a message that is not before it in the conversation", i+1)
		}
		prev := m.Seq
		m.Streaming = false
		var stored chat.Message
		if !tree {
			stored, err = insertMessage(ctx, tx, m)
		} else {
			run := int64(0)
			if m.Delivery != chat.DeliveryQueued {
				if ok && p.off == m.OffBranch && last[p.run] == m.ParentID {
					run = p.run
				} else {
					runs++
					run = runs
				}
			}
			stored, err = insertRow(ctx, tx, m, run)
			if err == nil && m.Delivery == chat.DeliveryQueued {
				placed[m.ID] = placedMessage{seq: stored.Seq, run: -stored.Seq, off: m.OffBranch}
			} else if err == nil {
				placed[m.ID], last[run] = placedMessage{seq: stored.Seq, run: run, off: m.OffBranch}, m.ID
				err = importChoice(ctx, tx, conversationID, p, ok, run, m.OffBranch)
				if m.OffBranch == 0 {
					s, had := branch[run]
					if !had {
						s = segment{run: run, first: stored.Seq}
					}
					s.to = stored.Seq
					branch[run] = s
				}
			}
		}
		if err != nil {
			return nil, nil, err
		}
		old, now = append(old, prev), append(now, stored.Seq)
	}
	if !tree {
		return old, now, nil
	}
	for run, s := range branch {
		if last[run] != "" && placed[last[run]].seq == s.to {
			s.to = runEnd
		}
		if err := putRun(ctx, tx, conversationID, s); err != nil {
			return nil, nil, err
		}
	}
	if _, err := tx.ExecContext(ctx, `UPDATE conversations SET runs = ? WHERE id = ?`, runs, conversationID); err != nil {
		return nil, nil, fmt.Errorf("count runs: %w", err)
	}
	return old, now, nil
}

// importChoice records, for a message of the record's path off (its number
// off the branch) that does not continue its parent's run, that the
// parent's continuation is its run: only a record whose numbers are not
// paths has one.
func importChoice(ctx context.Context, q queryer, conversationID string, p placedMessage, hasParent bool, run, off int64) error {
	if !hasParent || p.off != off || p.run == run {
		return nil
	}
	var have bool
	if err := q.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM branch_choices WHERE conversation_id = ? AND run = ? AND seq = ?)`,
		conversationID, p.run, p.seq).Scan(&have); err != nil || have {
		return err
	}
	return setChoice(ctx, q, conversationID, p.run, p.seq, &run)
}

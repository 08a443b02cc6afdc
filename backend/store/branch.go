package store

import (
	"context"
	"database/sql"
	"fmt"
	"math"

	"github.com/errand-app/errand/backend/chat"
)

// The current branch lives in branch_runs, not in the message rows (see
// migration 0028): the tree is cut into runs, paths of messages, and the
// branch is the runs it goes through, each from its first message to the
// last one on the branch. Going down the branch the runs follow one
// another in seq order and their stretches do not overlap, so a page of
// the branch is read run by run through messages_run. A switch writes a
// row per run it takes off or puts on, however many messages they hold;
// branch_choices remembers, where the branch left a run, where it went,
// so that a switch back shows below a message what was last shown there.

// runEnd is the upto of a run the branch holds to its end: a message that
// joins the run is on the branch without a write to branch_runs.
const runEnd = math.MaxInt64

// onBranchOf is the SQL condition of the message row a (a table name or
// alias) being on its conversation's current branch. A queued message is,
// while it waits: nothing switches the branch while its task runs.
func onBranchOf(a string) string {
	return `(` + a + `.delivery = 'queued' OR EXISTS (SELECT 1 FROM branch_runs r WHERE r.conversation_id = ` + a +
		`.conversation_id AND r.run = ` + a + `.run AND ` + a + `.seq <= r.upto))`
}

// branchRun is a run of the current branch: its messages from the one at
// first to the one at upto.
type branchRun struct{ run, first, upto int64 }

// segment is a stretch of a branch in one run: the run's messages from the
// one at from to the one at to (runEnd: to the run's end).
type segment struct{ run, first, from, to int64 }

// tip is the last message of the current branch (a queued one aside) and
// its run; ok is false when the branch is empty.
type tip struct {
	br  branchRun
	seq int64
	id  string
	ok  bool
}

func branchTip(ctx context.Context, q queryer, conversationID string) (tip, error) {
	var t tip
	err := q.QueryRowContext(ctx, `SELECT run, first, upto FROM branch_runs WHERE conversation_id = ?
		ORDER BY first DESC LIMIT 1`, conversationID).Scan(&t.br.run, &t.br.first, &t.br.upto)
	if err == nil {
		err = q.QueryRowContext(ctx, `SELECT seq, id FROM messages INDEXED BY messages_run WHERE conversation_id = ? AND run = ? AND seq <= ?
			ORDER BY seq DESC LIMIT 1`, conversationID, t.br.run, t.br.upto).Scan(&t.seq, &t.id)
	}
	if isNoRows(err) {
		return tip{}, nil
	}
	if err != nil {
		return t, fmt.Errorf("read the branch: %w", err)
	}
	t.ok = true
	return t, nil
}

// endsRun reports whether the tip is the last message of its run, so that
// the next message continues the run.
func (t tip) endsRun(ctx context.Context, q queryer, conversationID string) (bool, error) {
	if t.br.upto == runEnd {
		return true, nil
	}
	var later bool
	err := q.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM messages INDEXED BY messages_run WHERE conversation_id = ? AND run = ? AND seq > ?)`,
		conversationID, t.br.run, t.seq).Scan(&later)
	if err != nil {
		return false, fmt.Errorf("read the branch: %w", err)
	}
	return !later, nil
}

// nextRun numbers a new run of the conversation.
func nextRun(ctx context.Context, q queryer, conversationID string) (int64, error) {
	var next int64
	if err := q.QueryRowContext(ctx, `UPDATE conversations SET runs = runs + 1 WHERE id = ? RETURNING runs`,
		conversationID).Scan(&next); err != nil {
		return 0, fmt.Errorf("start a run: %w", err)
	}
	return next, nil
}

// setChoice records that below the message at seq (of run) the branch goes
// on into the run child (nil: it ends there).
func setChoice(ctx context.Context, q queryer, conversationID string, run, seq int64, child *int64) error {
	if _, err := q.ExecContext(ctx, `INSERT INTO branch_choices (conversation_id, run, seq, child) VALUES (?, ?, ?, ?)
		ON CONFLICT DO UPDATE SET child = excluded.child`, conversationID, run, seq, child); err != nil {
		return fmt.Errorf("switch branch: %w", err)
	}
	return nil
}

// putRun makes the segment's stretch of its run part of the branch.
func putRun(ctx context.Context, q queryer, conversationID string, s segment) error {
	if _, err := q.ExecContext(ctx, `INSERT INTO branch_runs (conversation_id, run, first, upto) VALUES (?, ?, ?, ?)
		ON CONFLICT DO UPDATE SET first = excluded.first, upto = excluded.upto`, conversationID, s.run, s.first, s.to); err != nil {
		return fmt.Errorf("switch branch: %w", err)
	}
	return nil
}

// branchRunOf reads the run's row of the branch; ok is false when the
// branch does not go through the run.
func branchRunOf(ctx context.Context, q queryer, conversationID string, run int64) (branchRun, bool, error) {
	br := branchRun{run: run}
	err := q.QueryRowContext(ctx, `SELECT first, upto FROM branch_runs WHERE conversation_id = ? AND run = ?`,
		conversationID, run).Scan(&br.first, &br.upto)
	if isNoRows(err) {
		return br, false, nil
	}
	if err != nil {
		return br, false, fmt.Errorf("read the branch: %w", err)
	}
	return br, true, nil
}

// runStart reads the seq of the run's first message and the message that
// message continues ("" for a first message); ok is false when the run has
// no message left.
func runStart(ctx context.Context, q queryer, conversationID string, run int64) (seq int64, parent string, ok bool, err error) {
	err = q.QueryRowContext(ctx, `SELECT seq, coalesce(parent_id, '') FROM messages INDEXED BY messages_run WHERE conversation_id = ? AND run = ?
		ORDER BY seq LIMIT 1`, conversationID, run).Scan(&seq, &parent)
	if isNoRows(err) {
		return 0, "", false, nil
	}
	if err != nil {
		return 0, "", false, fmt.Errorf("read the branch: %w", err)
	}
	return seq, parent, true, nil
}

// fork is where a new stretch of branch leaves the current one: after the
// message at seq of run (root: before any message). inRun says the new
// stretch goes on in that run.
type fork struct {
	run, seq    int64
	root, inRun bool
}

// pathUp walks from the message n, off the branch, up to the branch: the
// stretches of the path from the fork down to n, top first, the last
// ending at n.
func pathUp(ctx context.Context, q queryer, conversationID string, n branchNode) ([]segment, fork, error) {
	var up []segment // bottom first
	run, seq := n.run, n.seq
	for {
		br, on, err := branchRunOf(ctx, q, conversationID, run)
		if err != nil {
			return nil, fork{}, err
		}
		if on && seq <= br.upto { // on the branch: the path leaves the run here
			return reversed(up), fork{run: run, seq: seq}, nil
		}
		if on { // the branch holds the run up to br.upto: the path goes on in it
			up = append(up, segment{run: run, first: br.first, from: br.upto, to: seq})
			return reversed(up), fork{run: run, seq: br.upto, inRun: true}, nil
		}
		first, parent, ok, err := runStart(ctx, q, conversationID, run)
		if err != nil || !ok {
			return nil, fork{}, orFail(err, "switch branch: a run with no message")
		}
		up = append(up, segment{run: run, first: first, from: first, to: seq})
		if parent == "" {
			return reversed(up), fork{root: true}, nil
		}
		p, err := node(ctx, q, conversationID, parent)
		if err != nil {
			return nil, fork{}, err
		}
		run, seq = p.run, p.seq
	}
}

func orFail(err error, what string) error {
	if err != nil {
		return err
	}
	return fmt.Errorf("%s", what)
}

func reversed(s []segment) []segment {
	out := make([]segment, len(s))
	for i, v := range s {
		out[len(s)-1-i] = v
	}
	return out
}

// cutBelow takes off the branch everything after the fork: the runs below
// it go, and the fork's run ends at it.
func cutBelow(ctx context.Context, q queryer, conversationID string, f fork) error {
	if f.root {
		_, err := q.ExecContext(ctx, `DELETE FROM branch_runs WHERE conversation_id = ?`, conversationID)
		return wrapSwitch(err)
	}
	if _, err := q.ExecContext(ctx, `DELETE FROM branch_runs WHERE conversation_id = ? AND first > ?`, conversationID, f.seq); err != nil {
		return wrapSwitch(err)
	}
	_, err := q.ExecContext(ctx, `UPDATE branch_runs SET upto = ? WHERE conversation_id = ? AND run = ?`, f.seq, conversationID, f.run)
	return wrapSwitch(err)
}

func wrapSwitch(err error) error {
	if err != nil {
		return fmt.Errorf("switch branch: %w", err)
	}
	return nil
}

// cutAfter ends the current branch at the message n (nil: empties it):
// what followed stays, as the continuation last shown below n.
func cutAfter(ctx context.Context, q queryer, conversationID string, n *branchNode) error {
	if n == nil {
		return cutBelow(ctx, q, conversationID, fork{root: true})
	}
	if err := cutBelow(ctx, q, conversationID, fork{run: n.run, seq: n.seq}); err != nil {
		return err
	}
	return setChoice(ctx, q, conversationID, n.run, n.seq, nil)
}

// continuation is the branch below the end of s as it was last shown: s
// goes on in its run until a choice says where the branch went from there.
func continuation(ctx context.Context, q queryer, conversationID string, s segment) ([]segment, error) {
	var out []segment
	for {
		var at int64
		var child sql.NullInt64
		err := q.QueryRowContext(ctx, `SELECT seq, child FROM branch_choices WHERE conversation_id = ? AND run = ? AND seq >= ?
			ORDER BY seq LIMIT 1`, conversationID, s.run, s.to).Scan(&at, &child)
		if isNoRows(err) {
			s.to = runEnd
			return append(out, s), nil
		}
		if err != nil {
			return nil, fmt.Errorf("switch branch: %w", err)
		}
		s.to = at
		out = append(out, s)
		if !child.Valid {
			return out, nil
		}
		first, _, ok, err := runStart(ctx, q, conversationID, child.Int64)
		if err != nil || !ok {
			return out, err
		}
		s = segment{run: child.Int64, first: first, from: first, to: first}
	}
}

// switchTo makes the branch through the message id current: the path from
// the first message to it, then below it the continuation last shown.
// It writes a row or two per run it takes off or puts on, never the
// messages themselves.
func switchTo(ctx context.Context, q queryer, conversationID, id string) error {
	n, err := node(ctx, q, conversationID, id)
	if err != nil || n.onBranch {
		return err
	}
	up, f, err := pathUp(ctx, q, conversationID, n)
	if err != nil {
		return err
	}
	if err := cutBelow(ctx, q, conversationID, f); err != nil {
		return err
	}
	if !f.root && !f.inRun {
		if err := setChoice(ctx, q, conversationID, f.run, f.seq, &up[0].run); err != nil {
			return err
		}
	}
	// Down the path each run is followed to where the path leaves it.
	for i, s := range up {
		if _, err := q.ExecContext(ctx, `DELETE FROM branch_choices WHERE conversation_id = ? AND run = ? AND seq >= ? AND seq < ?`,
			conversationID, s.run, s.from, s.to); err != nil {
			return wrapSwitch(err)
		}
		if i+1 < len(up) {
			if err := setChoice(ctx, q, conversationID, s.run, s.to, &up[i+1].run); err != nil {
				return err
			}
		}
	}
	down, err := continuation(ctx, q, conversationID, up[len(up)-1])
	if err != nil {
		return err
	}
	for _, s := range append(up[:len(up)-1], down...) {
		if err := putRun(ctx, q, conversationID, s); err != nil {
			return err
		}
	}
	return nil
}

// insertMessage stores a new message continuing the current branch: in
// the tip's run when the tip ends it, else as the first of a new run.
func insertMessage(ctx context.Context, q queryer, m chat.Message) (chat.Message, error) {
	t, err := branchTip(ctx, q, m.ConversationID)
	if err != nil {
		return m, err
	}
	m.ParentID, m.OffBranch = t.id, 0
	if m.Delivery == chat.DeliveryQueued {
		return insertRow(ctx, q, m, 0)
	}
	if t.ok {
		ends, err := t.endsRun(ctx, q, m.ConversationID)
		if err != nil {
			return m, err
		}
		if ends {
			return continueRun(ctx, q, m, t)
		}
	}
	run, err := nextRun(ctx, q, m.ConversationID)
	if err != nil {
		return m, err
	}
	stored, err := insertRow(ctx, q, m, run)
	if err != nil {
		return stored, err
	}
	if err := putRun(ctx, q, m.ConversationID, segment{run: run, first: stored.Seq, to: runEnd}); err != nil {
		return stored, err
	}
	if t.ok {
		return stored, setChoice(ctx, q, m.ConversationID, t.br.run, t.seq, &run)
	}
	return stored, nil
}

// continueRun stores m as the next message of the tip's run, the last one.
func continueRun(ctx context.Context, q queryer, m chat.Message, t tip) (chat.Message, error) {
	stored, err := insertRow(ctx, q, m, t.br.run)
	if err != nil || t.br.upto == runEnd {
		return stored, err
	}
	// The branch ended at the tip (a cut): it holds the run to its end again.
	if _, err := q.ExecContext(ctx, `UPDATE branch_runs SET upto = ? WHERE conversation_id = ? AND run = ?`,
		runEnd, m.ConversationID, t.br.run); err != nil {
		return stored, fmt.Errorf("insert message: %w", err)
	}
	if _, err := q.ExecContext(ctx, `DELETE FROM branch_choices WHERE conversation_id = ? AND run = ? AND seq = ?`,
		m.ConversationID, t.br.run, t.seq); err != nil {
		return stored, fmt.Errorf("insert message: %w", err)
	}
	return stored, nil
}

// eachBranchRun calls fn with the runs of the current branch in order
// until it returns false: those that start before bound, newest first,
// when desc; else those with a message of the branch after bound, oldest
// first.
func eachBranchRun(ctx context.Context, q queryer, conversationID string, bound int64, desc bool, fn func(branchRun) (bool, error)) error {
	const batch = 16
	query := `SELECT run, first, upto FROM branch_runs WHERE conversation_id = ? AND upto > ? AND first > ? ORDER BY first LIMIT ?`
	after := int64(math.MinInt64)
	if desc {
		query = `SELECT run, first, upto FROM branch_runs WHERE conversation_id = ? AND first < ? ORDER BY first DESC LIMIT ?`
	}
	for {
		args := []any{conversationID, bound, after, batch}
		if desc {
			args = []any{conversationID, bound, batch}
		}
		rows, err := q.QueryContext(ctx, query, args...)
		if err != nil {
			return fmt.Errorf("read the branch: %w", err)
		}
		var runs []branchRun
		for rows.Next() {
			var br branchRun
			if err := rows.Scan(&br.run, &br.first, &br.upto); err != nil {
				rows.Close()
				return fmt.Errorf("read the branch: %w", err)
			}
			runs = append(runs, br)
		}
		if err := rows.Close(); err != nil {
			return fmt.Errorf("read the branch: %w", err)
		}
		for _, br := range runs {
			more, err := fn(br)
			if err != nil || !more {
				return err
			}
		}
		if len(runs) < batch {
			return nil
		}
		if desc {
			bound = runs[len(runs)-1].first
		} else {
			after = runs[len(runs)-1].first
		}
	}
}

// branchPage reads up to limit messages of the current branch (all of them
// when limit < 0) beyond seq: before it, newest first, when desc; after
// it, oldest first, otherwise.
func branchPage(ctx context.Context, q queryer, conversationID string, seq int64, limit int, desc bool) ([]chat.Message, error) {
	out := []chat.Message{}
	cmp, order := ">", "ASC"
	if desc {
		cmp, order = "<", "DESC"
	}
	err := eachBranchRun(ctx, q, conversationID, seq, desc, func(br branchRun) (bool, error) {
		msgs, err := messagesWhere(ctx, q, `INDEXED BY messages_run WHERE conversation_id = ? AND run = ? AND seq <= ? AND seq `+cmp+` ?
			ORDER BY seq `+order+` LIMIT ?`, conversationID, br.run, br.upto, seq, pageLeft(limit, len(out)))
		out = append(out, msgs...)
		return limit < 0 || len(out) < limit, err
	})
	if err != nil {
		return nil, err
	}
	queued, err := messagesWhere(ctx, q, `INDEXED BY messages_queued WHERE conversation_id = ? AND delivery = 'queued' AND seq `+cmp+` ?
		ORDER BY seq `+order+` LIMIT ?`, conversationID, seq, limit)
	if err != nil || len(queued) == 0 {
		return out, err
	}
	return mergeBySeq(out, queued, limit, desc), nil
}

func pageLeft(limit, have int) int {
	if limit < 0 {
		return -1
	}
	return limit - have
}

// mergeBySeq merges two lists in the same seq order into one of at most
// limit (all when limit < 0).
func mergeBySeq(a, b []chat.Message, limit int, desc bool) []chat.Message {
	out := make([]chat.Message, 0, len(a)+len(b))
	for len(a) > 0 || len(b) > 0 {
		takeA := len(b) == 0 || (len(a) > 0 && (a[0].Seq < b[0].Seq) != desc)
		if takeA {
			out, a = append(out, a[0]), a[1:]
		} else {
			out, b = append(out, b[0]), b[1:]
		}
	}
	if limit >= 0 && len(out) > limit {
		out = out[:limit]
	}
	return out
}

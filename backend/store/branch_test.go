package store

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/errand-app/errand/backend/chat"
	"github.com/google/uuid"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A switch between two long branches that part at the second message
// changes a few rows, not the messages of either branch.
func TestASwitchWritesAFewRowsHoweverLongTheBranches(t *testing.T) {
	t.Parallel()
	s, _ := openTemp(t)
	ctx := context.Background()
	c := newConversation(t, s)
	// Branches of 50 messages: a switch writing a row per message would
	// write over six times the 8 allowed.
	ids := seedMessages(t, s, c.ID, newConversation(t, s).ID, 50)
	other := addBranchT(t, s, c.ID, ids[0], 49)
	for _, to := range []string{other, ids[1], other} {
		changed := rowsChangedBy(t, s, func(tx *sql.Tx) error { return switchTo(ctx, tx, c.ID, to) })
		assert.LessOrEqual(t, changed, 8, "a switch writes a row or two per run, whatever the branches hold")
		msgs, err := s.Messages(ctx, c.ID)
		require.NoError(t, err)
		require.Len(t, msgs, 50)
		assert.Equal(t, to, msgs[1].ID, "the branch through the chosen version is shown")
	}
	assert.Equal(t, 99, countRows(t, s, "messages", c.ID), "every message is kept")
}

// rowsChangedBy runs fn in a transaction of its own and counts the rows it
// inserted, updated or deleted.
func rowsChangedBy(t *testing.T, s *Store, fn func(*sql.Tx) error) int {
	t.Helper()
	ctx := context.Background()
	tx, err := s.db.BeginTx(ctx, nil)
	require.NoError(t, err)
	defer tx.Rollback()
	var before, after int
	require.NoError(t, tx.QueryRowContext(ctx, `SELECT total_changes()`).Scan(&before))
	require.NoError(t, fn(tx))
	require.NoError(t, tx.QueryRowContext(ctx, `SELECT total_changes()`).Scan(&after))
	require.NoError(t, tx.Commit())
	return after - before
}

// addBranchT adds a chain of length messages continuing the message from,
// off the current branch (a run of its own), and returns its first id.
func addBranchT(t *testing.T, s *Store, convID, from string, length int) string {
	t.Helper()
	ctx := context.Background()
	parent, first := from, ""
	for i := 0; i < length; i++ {
		m := chat.Message{ID: uuid.NewString(), ConversationID: convID, Role: chat.RoleUser,
			Content: fmt.Sprintf("branch message %d", i), CreatedAt: time.Now().UTC()}
		err := s.inTx(ctx, func(tx *sql.Tx) error {
			run := int64(0)
			if first == "" {
				var err error
				if run, err = nextRun(ctx, tx, convID); err != nil {
					return err
				}
			} else {
				n, err := node(ctx, tx, convID, parent)
				if err != nil {
					return err
				}
				run = n.run
			}
			m.ParentID = parent
			_, err := insertRow(ctx, tx, m, run)
			return err
		})
		require.NoError(t, err)
		if first == "" {
			first = m.ID
		}
		parent = m.ID
	}
	return first
}

// After switches that leave a continuation other than the newest below a
// version, an export and its import show, below each version, what the
// conversation showed last.
func TestAnImportedTreeSwitchesBackAsItWasExported(t *testing.T) {
	t.Parallel()
	s, _ := openTemp(t)
	ctx := context.Background()
	c := newConversation(t, s)
	_, a1 := turnIn(t, s, c.ID, "A", "a1", nil)
	_, b1 := turnIn(t, s, c.ID, "B", "b1", nil)
	cc, _ := turnIn(t, s, c.ID, "C", "c1", nil)
	turnIn(t, s, c.ID, "C edited", "c2", &b1.ID)
	b2, _ := turnIn(t, s, c.ID, "B edited", "b2", &a1.ID)
	// Below B the older C is shown last, then B edited.
	_, err := s.ShowVersion(ctx, c.ID, b2.ID, -1)
	require.NoError(t, err)
	_, err = s.ShowVersion(ctx, c.ID, cc.ID, 1)
	require.NoError(t, err)
	_, err = s.ShowVersion(ctx, c.ID, cc.ID, 0)
	require.NoError(t, err)
	_, err = s.ShowVersion(ctx, c.ID, b2.ID, 0)
	require.NoError(t, err)
	r, err := s.ConversationRecord(ctx, c.ID)
	require.NoError(t, err)

	into, _ := openTemp(t)
	require.NoError(t, into.ImportConversations(ctx, []chat.ConversationRecord{r}, chat.Restore{}))
	for _, st := range []*Store{s, into} {
		assert.Equal(t, []string{"A", "a1", "B edited", "b2"}, branchTexts(t, st, c.ID))
		_, err = st.ShowVersion(ctx, c.ID, b2.ID, -1)
		require.NoError(t, err)
		assert.Equal(t, []string{"A", "a1", "B", "b1", "C", "c1"}, branchTexts(t, st, c.ID),
			"below B, the C last shown")
	}
}

// A queued message shows in its place among the task's messages, page by
// page, whichever way the pages go.
func TestPagesHoldAQueuedMessageInItsPlace(t *testing.T) {
	t.Parallel()
	s, _ := openTemp(t)
	ctx := context.Background()
	c := newConversation(t, s)
	task, p := newTask(c.ID, "Tidy the notes")
	_, err := s.StartTask(ctx, task, p)
	require.NoError(t, err)
	add := func(text string, d chat.Delivery) {
		_, err := s.AddMessage(ctx, chat.Message{ID: uuid.NewString(), ConversationID: c.ID, TaskID: task.ID,
			Role: chat.RoleAssistant, Content: text, Delivery: d, CreatedAt: time.Now().UTC()})
		require.NoError(t, err)
	}
	add("step 1", "")
	add("and the drafts", chat.DeliveryQueued)
	add("step 2", "")
	add("step 3", "")
	want := []string{"Tidy the notes", "step 1", "and the drafts", "step 2", "step 3"}
	assert.Equal(t, want, branchTexts(t, s, c.ID))
	var got []string
	for before := ""; ; {
		page, err := s.MessagesBefore(ctx, c.ID, before, 2)
		require.NoError(t, err)
		got = append(textsOf(page.Messages), got...)
		if !page.HasOlder {
			break
		}
		before = page.Messages[0].ID
	}
	assert.Equal(t, want, got, "backwards")
	page, err := s.MessagesAround(ctx, c.ID, p.ID, 1)
	require.NoError(t, err)
	got = textsOf(page.Messages)
	for page.HasNewer {
		page, err = s.MessagesAfter(ctx, c.ID, page.Messages[len(page.Messages)-1].ID, 2)
		require.NoError(t, err)
		got = append(got, textsOf(page.Messages)...)
	}
	assert.Equal(t, want, got, "forwards")
}

func textsOf(msgs []chat.Message) []string {
	out := make([]string, len(msgs))
	for i, m := range msgs {
		out[i] = m.Content
	}
	return out
}

// A file at the schema before runs, whose conversation has branches, opens
// with the same branch current, and switching back shows below each
// version the continuation it showed before the upgrade.
func TestAFileWithBranchesKeepsThemWhenUpgradedToRuns(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), FileName)
	buildAt(t, path, 26)
	db, err := sql.Open("sqlite", "file:"+path)
	require.NoError(t, err)
	// As three switches left it: C was edited (C, c1 off with 1), shown
	// again (C edited, c2 off with 2), then B was edited (B, b1, C, c1
	// off with 3); A, a1, B edited, b2 are the branch.
	type row struct {
		id, parent string
		off        int
	}
	rows := []row{
		{"A", "", 0}, {"a1", "A", 0}, {"B", "a1", 3}, {"b1", "B", 3}, {"C", "b1", 3}, {"c1", "C", 3},
		{"C edited", "b1", 2}, {"c2", "C edited", 2}, {"B edited", "a1", 0}, {"b2", "B edited", 0},
	}
	_, err = db.Exec(`INSERT INTO conversations (id, title, created_at, updated_at, branch_switches) VALUES ('conv-tree', 'Branches', 1, 1, 3)`)
	require.NoError(t, err)
	for i, r := range rows {
		_, err := db.Exec(`INSERT INTO messages (id, conversation_id, role, content, created_at, parent_id, off_branch)
			VALUES (?, 'conv-tree', 'user', ?, ?, nullif(?, ''), ?)`, r.id, r.id, i, r.parent, r.off)
		require.NoError(t, err)
	}
	require.NoError(t, db.Close())

	ctx := context.Background()
	s, err := Open(ctx, path)
	require.NoError(t, err)
	defer s.Close()
	assert.Equal(t, []string{"A", "a1", "B edited", "b2"}, branchTexts(t, s, "conv-tree"), "the current branch is kept")
	_, err = s.ShowVersion(ctx, "conv-tree", "B edited", -1)
	require.NoError(t, err)
	assert.Equal(t, []string{"A", "a1", "B", "b1", "C", "c1"}, branchTexts(t, s, "conv-tree"))
	_, err = s.ShowVersion(ctx, "conv-tree", "C", 1)
	require.NoError(t, err)
	assert.Equal(t, []string{"A", "a1", "B", "b1", "C edited", "c2"}, branchTexts(t, s, "conv-tree"))
	_, err = s.ShowVersion(ctx, "conv-tree", "B", 1)
	require.NoError(t, err)
	_, err = s.ShowVersion(ctx, "conv-tree", "B edited", -1)
	require.NoError(t, err)
	assert.Equal(t, []string{"A", "a1", "B", "b1", "C edited", "c2"}, branchTexts(t, s, "conv-tree"),
		"below B, the C last shown")
	// And it grows: a new turn continues the branch shown.
	_, r := turnIn(t, s, "conv-tree", "D", "d1", nil)
	assert.Equal(t, []string{"A", "a1", "B", "b1", "C edited", "c2", "D", "d1"}, branchTexts(t, s, "conv-tree"))
	assert.Equal(t, 12, countRows(t, s, "messages", "conv-tree"), "nothing is lost")
	assert.NotEmpty(t, r.ParentID)
}

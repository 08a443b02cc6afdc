package store

import (
	"context"
	"testing"
	"time"

	"github.com/errand-app/errand/backend/chat"
	"github.com/google/uuid"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// turnIn runs a whole task: its prompt (none when prompt is ""), one
// reply, then the task ends. after, when not nil, starts it on a new
// branch after that message. It returns the prompt and the reply.
func turnIn(t *testing.T, s *Store, convID, prompt, reply string, after *string) (chat.Message, chat.Message) {
	t.Helper()
	ctx := context.Background()
	task, p := newTask(convID, prompt)
	if prompt == "" {
		task.OriginalPrompt, p = "again", chat.Message{}
	}
	var err error
	if after == nil {
		p, err = s.StartTask(ctx, task, p)
	} else {
		p, err = s.StartTaskFrom(ctx, task, p, *after)
	}
	require.NoError(t, err)
	r, err := s.AddMessage(ctx, chat.Message{ID: uuid.NewString(), ConversationID: convID, TaskID: task.ID,
		Role: chat.RoleAssistant, Content: reply, CreatedAt: time.Now().UTC()})
	require.NoError(t, err)
	task.Status, task.Rev = chat.StatusCompleted, task.Rev+1
	_, err = s.FinishTask(ctx, task, nil)
	require.NoError(t, err)
	return p, r
}

func branchTexts(t *testing.T, s *Store, convID string) []string {
	t.Helper()
	msgs, err := s.Messages(context.Background(), convID)
	require.NoError(t, err)
	out := make([]string, len(msgs))
	for i, m := range msgs {
		out[i] = m.Content
	}
	return out
}

func countRows(t *testing.T, s *Store, table, convID string) int {
	t.Helper()
	var n int
	require.NoError(t, s.db.QueryRow(`SELECT count(*) FROM `+table+` WHERE conversation_id = ?`, convID).Scan(&n))
	return n
}

// Editing a message starts a branch beside it; the versions switch back
// and forth, the branch below each is the one last shown, and nothing is
// lost on the way.
func TestEditBranchesAndVersionsSwitchWithoutLosingAnything(t *testing.T) {
	t.Parallel()
	s, _ := openTemp(t)
	ctx := context.Background()
	c := newConversation(t, s)
	_, a1 := turnIn(t, s, c.ID, "A", "a1", nil)
	b, _ := turnIn(t, s, c.ID, "B", "b1", nil)
	turnIn(t, s, c.ID, "C", "c1", nil)
	b2, _ := turnIn(t, s, c.ID, "B edited", "b2", &a1.ID)
	assert.Equal(t, []string{"A", "a1", "B edited", "b2"}, branchTexts(t, s, c.ID))
	assert.Equal(t, a1.ID, b2.ParentID)
	assert.Equal(t, 2, b2.Versions)
	assert.Equal(t, 2, b2.Version)

	prev, err := s.ShowVersion(ctx, c.ID, b2.ID, -1)
	require.NoError(t, err)
	assert.Equal(t, b.ID, prev)
	assert.Equal(t, []string{"A", "a1", "B", "b1", "C", "c1"}, branchTexts(t, s, c.ID),
		"the old branch comes back whole, its later turns too")
	page, err := s.MessagesBefore(ctx, c.ID, "", 10)
	require.NoError(t, err)
	assert.Equal(t, 2, page.Messages[2].Versions)
	assert.Equal(t, 1, page.Messages[2].Version)
	assert.Zero(t, page.Messages[3].Versions, "a message with no siblings has no arrows")

	next, err := s.ShowVersion(ctx, c.ID, b.ID, 1)
	require.NoError(t, err)
	assert.Equal(t, b2.ID, next)
	assert.Equal(t, []string{"A", "a1", "B edited", "b2"}, branchTexts(t, s, c.ID))

	_, err = s.ShowVersion(ctx, c.ID, b2.ID, 1)
	assert.Equal(t, chat.CodeInvalid, chat.ErrorCode(err), "there is no third version")
	assert.Equal(t, 8, countRows(t, s, "messages", c.ID), "every message is kept")
	assert.Equal(t, 4, countRows(t, s, "tasks", c.ID), "every task is kept")

	view, err := s.OpenConversation(ctx, c.ID, 50)
	require.NoError(t, err)
	assert.Len(t, view.Messages, 4)
	for _, task := range view.Tasks {
		assert.Contains(t, []string{"A", "B edited"}, task.OriginalPrompt, "the view holds the tasks of its branch")
	}
}

// Branches within branches: leaving a version and coming back to it
// shows, below it, the versions last shown there, however often the
// branch was switched above and below meanwhile.
func TestSwitchingBackShowsTheBranchLastShownBelow(t *testing.T) {
	t.Parallel()
	s, _ := openTemp(t)
	ctx := context.Background()
	c := newConversation(t, s)
	_, a1 := turnIn(t, s, c.ID, "A", "a1", nil)
	b, b1 := turnIn(t, s, c.ID, "B", "b1", nil)
	cc, _ := turnIn(t, s, c.ID, "C", "c1", nil)
	c2, _ := turnIn(t, s, c.ID, "C edited", "c2", &b1.ID)
	b2, _ := turnIn(t, s, c.ID, "B edited", "b2", &a1.ID)
	show := func(id string, step int, want ...string) {
		t.Helper()
		_, err := s.ShowVersion(ctx, c.ID, id, step)
		require.NoError(t, err)
		assert.Equal(t, want, branchTexts(t, s, c.ID))
	}
	show(b2.ID, -1, "A", "a1", "B", "b1", "C edited", "c2")
	show(c2.ID, -1, "A", "a1", "B", "b1", "C", "c1")
	show(b.ID, 1, "A", "a1", "B edited", "b2")
	show(b2.ID, -1, "A", "a1", "B", "b1", "C", "c1")
	show(cc.ID, 1, "A", "a1", "B", "b1", "C edited", "c2")
	assert.Equal(t, 10, countRows(t, s, "messages", c.ID), "every message is kept")
}

// Editing the first message branches from nothing.
func TestEditingTheFirstMessageBranchesFromTheStart(t *testing.T) {
	t.Parallel()
	s, _ := openTemp(t)
	ctx := context.Background()
	c := newConversation(t, s)
	a, _ := turnIn(t, s, c.ID, "A", "a1", nil)
	root := ""
	a2, _ := turnIn(t, s, c.ID, "A2", "a2", &root)
	assert.Equal(t, []string{"A2", "a2"}, branchTexts(t, s, c.ID))
	assert.Empty(t, a2.ParentID)
	_, err := s.ShowVersion(ctx, c.ID, a2.ID, -1)
	require.NoError(t, err)
	assert.Equal(t, []string{"A", "a1"}, branchTexts(t, s, c.ID))
	require.NoError(t, s.SwitchBranch(ctx, c.ID, a2.ID))
	assert.Equal(t, []string{"A2", "a2"}, branchTexts(t, s, c.ID))
	_ = a
}

// A regenerated reply answers the same prompt: the old reply is its
// sibling, and LastTurn finds the prompt of either.
func TestRegenerateAddsASiblingReplyAndTheContextFollowsTheBranch(t *testing.T) {
	t.Parallel()
	s, _ := openTemp(t)
	ctx := context.Background()
	c := newConversation(t, s)
	turnIn(t, s, c.ID, "A", "a1", nil)
	b, b1 := turnIn(t, s, c.ID, "B", "b1", nil)
	turn, err := s.LastTurn(ctx, c.ID)
	require.NoError(t, err)
	assert.Equal(t, b.ID, turn.AfterID)

	_, b2 := turnIn(t, s, c.ID, "", "b2", &turn.AfterID)
	assert.Equal(t, []string{"A", "a1", "B", "b2"}, branchTexts(t, s, c.ID))
	assert.Equal(t, b.ID, b2.ParentID)
	assert.Equal(t, 2, b2.Versions)
	since, err := s.MessagesSince(ctx, c.ID, 0)
	require.NoError(t, err)
	assert.NotContains(t, idsOf(since), b1.ID, "the model's context is the current branch only")

	turn, err = s.LastTurn(ctx, c.ID)
	require.NoError(t, err)
	assert.Equal(t, b.ID, turn.AfterID, "a regenerated task answers the prompt before it")
	assert.Equal(t, b2.TaskID, turn.Task.ID)

	_, err = s.ShowVersion(ctx, c.ID, b2.ID, -1)
	require.NoError(t, err)
	assert.Equal(t, []string{"A", "a1", "B", "b1"}, branchTexts(t, s, c.ID))
}

// While a task runs, the branch cannot change: switching, editing and
// regenerating are refused clearly and change nothing.
func TestTheBranchCannotChangeWhileATaskRuns(t *testing.T) {
	t.Parallel()
	s, _ := openTemp(t)
	ctx := context.Background()
	c := newConversation(t, s)
	_, a1 := turnIn(t, s, c.ID, "A", "a1", nil)
	b, _ := turnIn(t, s, c.ID, "B", "b1", nil)
	turnIn(t, s, c.ID, "B2", "b2", &a1.ID)
	running, prompt := newTask(c.ID, "C")
	_, err := s.StartTask(ctx, running, prompt)
	require.NoError(t, err)
	before := branchTexts(t, s, c.ID)

	err = s.SwitchBranch(ctx, c.ID, b.ID)
	assert.Equal(t, chat.CodeConflict, chat.ErrorCode(err))
	assert.Contains(t, err.Error(), "task is in progress")
	_, err = s.ShowVersion(ctx, c.ID, b.ID, 1)
	assert.Equal(t, chat.CodeConflict, chat.ErrorCode(err))
	other, p := newTask(c.ID, "edit")
	_, err = s.StartTaskFrom(ctx, other, p, a1.ID)
	assert.Equal(t, chat.CodeConflict, chat.ErrorCode(err))
	assert.Equal(t, before, branchTexts(t, s, c.ID))
	require.NoError(t, s.SwitchBranch(ctx, c.ID, a1.ID), "a message already shown needs no switch")
}

// Deleting a version removes it and what continues it; deleting the
// version shown shows its neighbour; the only version cannot be deleted;
// deleting the conversation removes the whole tree.
func TestDeletingABranch(t *testing.T) {
	t.Parallel()
	s, _ := openTemp(t)
	ctx := context.Background()
	c := newConversation(t, s)
	_, a1 := turnIn(t, s, c.ID, "A", "a1", nil)
	b, _ := turnIn(t, s, c.ID, "B", "b1", nil)
	turnIn(t, s, c.ID, "C", "c1", nil)
	b2, _ := turnIn(t, s, c.ID, "B2", "b2", &a1.ID)
	b3, _ := turnIn(t, s, c.ID, "B3", "b3", &a1.ID)

	require.NoError(t, s.DeleteBranch(ctx, c.ID, b.ID))
	assert.Equal(t, 6, countRows(t, s, "messages", c.ID), "B and all after it are gone")
	assert.Equal(t, []string{"A", "a1", "B3", "b3"}, branchTexts(t, s, c.ID))
	require.NoError(t, s.DeleteBranch(ctx, c.ID, b3.ID), "the version shown")
	assert.Equal(t, []string{"A", "a1", "B2", "b2"}, branchTexts(t, s, c.ID), "the version before it is shown")
	got, err := s.GetMessage(ctx, c.ID, b2.ID)
	require.NoError(t, err)
	assert.Zero(t, got.Versions, "one version left: no arrows")

	err = s.DeleteBranch(ctx, c.ID, b2.ID)
	assert.Equal(t, chat.CodeInvalid, chat.ErrorCode(err), "the only version")
	assert.Contains(t, chat.ErrorMessage(err), "only version")
	assert.Equal(t, []string{"A", "a1", "B2", "b2"}, branchTexts(t, s, c.ID), "nothing changed")
	err = s.SwitchBranch(ctx, c.ID, b.ID)
	assert.Equal(t, chat.CodeNotFound, chat.ErrorCode(err))

	require.NoError(t, s.DeleteConversation(ctx, c.ID))
	assert.Equal(t, 0, countRows(t, s, "messages", c.ID))
}

// Branching into a new conversation copies the branch up to a message
// (with its tasks) and leaves the original as it was.
func TestCopyBranchIntoANewConversation(t *testing.T) {
	t.Parallel()
	s, _ := openTemp(t)
	ctx := context.Background()
	c := newConversation(t, s)
	_, a1 := turnIn(t, s, c.ID, "A", "a1", nil)
	turnIn(t, s, c.ID, "B", "b1", nil)
	now := time.Now().UTC()
	n := chat.Conversation{ID: uuid.NewString(), Title: "Branch", Mode: chat.ModeAgent, CreatedAt: now, UpdatedAt: now}
	copied, err := s.CopyBranch(ctx, c.ID, a1.ID, n)
	require.NoError(t, err)
	require.Len(t, copied, 2)
	assert.NotEqual(t, a1.ID, copied[1].ID)
	assert.Equal(t, copied[0].ID, copied[1].ParentID)
	assert.Equal(t, []string{"A", "a1"}, branchTexts(t, s, n.ID))
	assert.Equal(t, []string{"A", "a1", "B", "b1"}, branchTexts(t, s, c.ID))
	view, err := s.OpenConversation(ctx, n.ID, 10)
	require.NoError(t, err)
	require.Len(t, view.Tasks, 1)
	assert.Equal(t, copied[0].TaskID, view.Tasks[0].ID)

	gone := chat.Conversation{ID: uuid.NewString(), CreatedAt: now, UpdatedAt: now}
	_, err = s.CopyBranch(ctx, c.ID, uuid.NewString(), gone)
	assert.Equal(t, chat.CodeNotFound, chat.ErrorCode(err))
	assert.Contains(t, err.Error(), "no message")
	_, err = s.GetConversation(ctx, gone.ID)
	assert.Equal(t, chat.CodeNotFound, chat.ErrorCode(err), "nothing was created")
}

// A variation is a version kept off the branch until it is shown.
func TestAddVersionKeepsItOffTheBranchUntilShown(t *testing.T) {
	t.Parallel()
	s, _ := openTemp(t)
	ctx := context.Background()
	c := newConversation(t, s)
	_, r := turnIn(t, s, c.ID, "A", "a1", nil)
	v, err := s.AddVersion(ctx, chat.Message{ID: uuid.NewString(), ConversationID: c.ID, Role: chat.RoleAssistant,
		Content: "a2", CreatedAt: time.Now().UTC()}, r.ID)
	require.NoError(t, err)
	assert.Equal(t, r.ParentID, v.ParentID)
	assert.Equal(t, []string{"A", "a1"}, branchTexts(t, s, c.ID))
	require.NoError(t, s.SwitchBranch(ctx, c.ID, v.ID))
	assert.Equal(t, []string{"A", "a2"}, branchTexts(t, s, c.ID))
	got, err := s.GetMessage(ctx, c.ID, v.ID)
	require.NoError(t, err)
	assert.Equal(t, 2, got.Versions)
	assert.Equal(t, 2, got.Version)
}

// A model call outside any task (variations, "Compact now") is added to
// the conversation's totals, beside its tasks'.
func TestConversationUsageOutsideTasks(t *testing.T) {
	t.Parallel()
	s, _ := openTemp(t)
	ctx := context.Background()
	c := newConversation(t, s)
	turnIn(t, s, c.ID, "A", "a1", nil)
	require.NoError(t, s.AddConversationUsage(ctx, c.ID, chat.Usage{PromptTokens: 100, CompletionTokens: 20, TotalTokens: 120}, 0.25))
	require.NoError(t, s.AddConversationUsage(ctx, c.ID, chat.Usage{PromptTokens: 10, CompletionTokens: 2, TotalTokens: 12}, 0.5))
	for _, open := range []func() (chat.ConversationView, error){
		func() (chat.ConversationView, error) { return s.LoadConversation(ctx, c.ID) },
		func() (chat.ConversationView, error) { return s.OpenConversation(ctx, c.ID, 50) },
	} {
		v, err := open()
		require.NoError(t, err)
		assert.EqualValues(t, 110, v.Usage.PromptTokens)
		assert.EqualValues(t, 132, v.Usage.TotalTokens)
		assert.InDelta(t, 0.75, v.CostUSD, 1e-9)
	}
	err := s.AddConversationUsage(ctx, "no-such", chat.Usage{TotalTokens: 1}, 0)
	assert.Equal(t, chat.CodeNotFound, chat.ErrorCode(err))
}

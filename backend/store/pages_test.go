package store

import (
	"context"
	"encoding/base64"
	"fmt"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/errand-app/errand/backend/chat"
	"github.com/google/uuid"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// seedConversations stores n conversations titled "Conversation <i>",
// with activity times that repeat (ties the order must break by id).
func seedConversations(t testing.TB, s *Store, n int) []chat.Conversation {
	t.Helper()
	base := time.Now().UTC().Truncate(time.Millisecond)
	out := make([]chat.Conversation, n)
	for i := range out {
		at := base.Add(time.Duration(i/3) * time.Second)
		out[i] = chat.Conversation{ID: uuid.NewString(), Title: fmt.Sprintf("Conversation %d", i),
			Mode: chat.ModeAgent, CreatedAt: at, UpdatedAt: at}
		require.NoError(t, s.CreateConversation(context.Background(), out[i]))
	}
	sort.Slice(out, func(i, j int) bool {
		if !out[i].UpdatedAt.Equal(out[j].UpdatedAt) {
			return out[i].UpdatedAt.After(out[j].UpdatedAt)
		}
		return out[i].ID > out[j].ID
	})
	return out
}

// allPages reads the whole list a page at a time.
func allPages(t *testing.T, s *Store, title string, limit int) []string {
	t.Helper()
	var ids []string
	cursor := ""
	for pages := 0; ; pages++ {
		require.Less(t, pages, 10000, "the list never ends")
		page, err := s.ConversationsPage(context.Background(), chat.ConversationQuery{Title: title, Cursor: cursor, Limit: limit})
		require.NoError(t, err)
		require.LessOrEqual(t, len(page.Items), limit)
		for _, c := range page.Items {
			ids = append(ids, c.ID)
		}
		if page.NextCursor == "" {
			return ids
		}
		cursor = page.NextCursor
	}
}

func TestConversationPagesWalkTheWholeListNewestFirst(t *testing.T) {
	t.Parallel()
	s, _ := openTemp(t)
	want := seedConversations(t, s, 123)
	var wantIDs []string
	for _, c := range want {
		wantIDs = append(wantIDs, c.ID)
	}
	assert.Equal(t, wantIDs, allPages(t, s, "", 50))
	assert.Equal(t, wantIDs, allPages(t, s, "", 1), "a page of one, through every tie")
	assert.Equal(t, wantIDs, allPages(t, s, "", chat.MaxPageSize))

	page, err := s.ConversationsPage(context.Background(), chat.ConversationQuery{Limit: 123})
	require.NoError(t, err)
	assert.Len(t, page.Items, 123)
	assert.Empty(t, page.NextCursor, "an exact fit has no next page")
}

func TestConversationPagesCarryTheActiveTask(t *testing.T) {
	t.Parallel()
	s, _ := openTemp(t)
	ctx := context.Background()
	c := newConversation(t, s)
	newConversation(t, s)
	task, prompt := newTask(c.ID, "work")
	_, err := s.StartTask(ctx, task, prompt)
	require.NoError(t, err)
	page, err := s.ConversationsPage(ctx, chat.ConversationQuery{Limit: 10})
	require.NoError(t, err)
	require.Len(t, page.Items, 2)
	for _, item := range page.Items {
		if item.ID == c.ID {
			require.NotNil(t, item.ActiveTask)
			assert.Equal(t, task.ID, item.ActiveTask.ID)
		} else {
			assert.Nil(t, item.ActiveTask)
		}
	}
}

func TestConversationTitleFilterRunsInSQLiteWithWildcardsTakenLiterally(t *testing.T) {
	t.Parallel()
	s, _ := openTemp(t)
	ctx := context.Background()
	titles := []string{"Invoices 50% off", "Invoices 50 percent", "snake_case names", "snakeXcase names",
		"ABC report", "the abc of it", `back\slash`, "Ünïcödé"}
	for _, title := range titles {
		c := newConversation(t, s)
		_, err := s.RenameConversation(ctx, c.ID, title)
		require.NoError(t, err)
	}
	match := func(filter string) []string {
		var got []string
		for _, id := range allPages(t, s, filter, 2) {
			c, err := s.GetConversation(ctx, id)
			require.NoError(t, err)
			got = append(got, c.Title)
		}
		sort.Strings(got)
		return got
	}
	assert.Equal(t, []string{"Invoices 50% off"}, match("50%"))
	assert.Equal(t, []string{"snake_case names"}, match("e_c"))
	assert.Equal(t, []string{"ABC report", "the abc of it"}, match("aBc"), "ASCII case is ignored")
	assert.Equal(t, []string{`back\slash`}, match(`k\s`))
	assert.Equal(t, []string{"Ünïcödé"}, match("cödé"))
	assert.Empty(t, match("nothing like it"))
	assert.Len(t, match(""), len(titles))
}

func TestBadListRequestsAreRefusedClearly(t *testing.T) {
	t.Parallel()
	s, _ := openTemp(t)
	ctx := context.Background()
	seedConversations(t, s, 3)
	enc := func(s string) string { return base64.RawURLEncoding.EncodeToString([]byte(s)) }
	for name, q := range map[string]chat.ConversationQuery{
		"not base64":       {Cursor: "%%%", Limit: 10},
		"not a cursor":     {Cursor: enc("hello"), Limit: 10},
		"no time":          {Cursor: enc("c1:x:abc"), Limit: 10},
		"no id":            {Cursor: enc("c1:12:"), Limit: 10},
		"control chars":    {Cursor: enc("c1:12:a\x00b"), Limit: 10},
		"limit zero":       {Limit: 0},
		"limit negative":   {Limit: -5},
		"limit too big":    {Limit: chat.MaxPageSize + 1},
		"filter too long":  {Title: strings.Repeat("a", chat.MaxFilterLen+1), Limit: 10},
		"filter not UTF-8": {Title: "\xff", Limit: 10},
	} {
		page, err := s.ConversationsPage(ctx, q)
		assert.Equal(t, chat.CodeInvalid, chat.ErrorCode(err), name)
		assert.Empty(t, page.Items, name)
	}
	_, err := s.ConversationsPage(ctx, chat.ConversationQuery{Cursor: "%%%", Limit: 10})
	assert.Contains(t, chat.ErrorMessage(err), "cursor")
	all, err := s.ListConversations(ctx)
	require.NoError(t, err)
	assert.Len(t, all, 3, "nothing changed")
}

func TestListPagesWalkTheActivityIndex(t *testing.T) {
	t.Parallel()
	s, _ := openTemp(t)
	c := listCursor{updated: 5, id: "x"}
	rows, err := s.db.Query(`EXPLAIN QUERY PLAN SELECT id FROM conversations
		WHERE (updated_at, id) < (?, ?) ORDER BY updated_at DESC, id DESC LIMIT 51`, c.updated, c.id)
	require.NoError(t, err)
	defer rows.Close()
	var plan []string
	for rows.Next() {
		var a, b, d int
		var detail string
		require.NoError(t, rows.Scan(&a, &b, &d, &detail))
		plan = append(plan, detail)
	}
	joined := strings.Join(plan, "; ")
	assert.Contains(t, joined, "conversations_activity")
	assert.NotContains(t, joined, "TEMP B-TREE", "no sort of the whole table")
}

// seedMessages stores n plain messages in a conversation in one
// transaction, interleaved with messages of another conversation, and
// returns the ids in order.
func seedMessages(t testing.TB, s *Store, convID, otherID string, n int) []string {
	t.Helper()
	ctx := context.Background()
	tx, err := s.db.BeginTx(ctx, nil)
	require.NoError(t, err)
	// Each message continues the one before it, as on a real branch.
	stmt, err := tx.PrepareContext(ctx, `INSERT INTO messages (id, conversation_id, role, content, created_at, parent_id)
		VALUES (?, ?, 'user', ?, ?, (SELECT id FROM messages WHERE conversation_id = ?2 ORDER BY seq DESC LIMIT 1))`)
	require.NoError(t, err)
	ids := make([]string, n)
	now := time.Now().UnixMilli()
	for i := range ids {
		ids[i] = fmt.Sprintf("m%05d-%s", i, uuid.NewString()[:8])
		_, err := stmt.ExecContext(ctx, ids[i], convID, fmt.Sprintf("message %d", i), now)
		require.NoError(t, err)
		if i%10 == 0 {
			_, err := stmt.ExecContext(ctx, uuid.NewString(), otherID, "elsewhere", now)
			require.NoError(t, err)
		}
	}
	require.NoError(t, stmt.Close())
	// Each conversation's messages are one run (0, as a file upgraded to
	// runs has), its current branch.
	_, err = tx.ExecContext(ctx, `INSERT OR REPLACE INTO branch_runs (conversation_id, run, first, upto)
		SELECT conversation_id, 0, min(seq), ? FROM messages WHERE conversation_id IN (?, ?) AND run = 0 GROUP BY conversation_id`,
		int64(runEnd), convID, otherID)
	require.NoError(t, err)
	require.NoError(t, tx.Commit())
	return ids
}

func idsOf(msgs []chat.Message) []string {
	out := make([]string, len(msgs))
	for i, m := range msgs {
		out[i] = m.ID
	}
	return out
}

func TestMessagePagesWalkTenThousandMessagesBackwards(t *testing.T) {
	t.Parallel()
	s, conv, ids := openTenThousand(t)
	ctx := context.Background()

	page, err := s.MessagesBefore(ctx, conv, "", 50)
	require.NoError(t, err)
	assert.Equal(t, ids[len(ids)-50:], idsOf(page.Messages), "the latest, oldest first")
	assert.True(t, page.HasOlder)
	assert.False(t, page.HasNewer)

	var got []string
	before := ""
	for pages := 0; ; pages++ {
		require.Less(t, pages, 100)
		page, err := s.MessagesBefore(ctx, conv, before, 333)
		require.NoError(t, err)
		got = append(idsOf(page.Messages), got...)
		if before != "" {
			assert.True(t, page.HasNewer)
		}
		if !page.HasOlder {
			break
		}
		before = page.Messages[0].ID
	}
	assert.Equal(t, ids, got, "every message once, in order")

	after, err := s.MessagesAfter(ctx, conv, ids[100], 10)
	require.NoError(t, err)
	assert.Equal(t, ids[101:111], idsOf(after.Messages))
	assert.True(t, after.HasOlder)
	assert.True(t, after.HasNewer)
	first, err := s.MessagesAfter(ctx, conv, "", 10)
	require.NoError(t, err)
	assert.Equal(t, ids[:10], idsOf(first.Messages), "after nothing: the first messages")
	assert.False(t, first.HasOlder)
	assert.True(t, first.HasNewer)
	last, err := s.MessagesAfter(ctx, conv, ids[len(ids)-3], 10)
	require.NoError(t, err)
	assert.Equal(t, ids[len(ids)-2:], idsOf(last.Messages))
	assert.False(t, last.HasNewer)
}

func TestMessagesAroundAMessageFarBack(t *testing.T) {
	t.Parallel()
	s, conv, ids := openTenThousand(t)
	ctx := context.Background()
	cases := []struct {
		at, limit  int
		from, to   int // the ids expected: ids[from:to]
		old, newer bool
	}{
		{at: 1234, limit: 11, from: 1229, to: 1240, old: true, newer: true},
		{at: 1234, limit: 10, from: 1230, to: 1240, old: true, newer: true},
		{at: 2, limit: 11, from: 0, to: 11, old: false, newer: true},
		{at: 9998, limit: 11, from: 9989, to: 10000, old: true, newer: false},
		{at: 5000, limit: 1, from: 5000, to: 5001, old: true, newer: true},
		{at: 0, limit: 500, from: 0, to: 500, old: false, newer: true},
	}
	for _, tc := range cases {
		page, err := s.MessagesAround(ctx, conv, ids[tc.at], tc.limit)
		require.NoError(t, err)
		assert.Equal(t, ids[tc.from:tc.to], idsOf(page.Messages), "around %d by %d", tc.at, tc.limit)
		assert.Equal(t, tc.old, page.HasOlder, "around %d by %d", tc.at, tc.limit)
		assert.Equal(t, tc.newer, page.HasNewer, "around %d by %d", tc.at, tc.limit)
	}
}

func TestBadMessagePageRequestsAreRefusedClearly(t *testing.T) {
	t.Parallel()
	s, _ := openTemp(t)
	ctx := context.Background()
	c, other := newConversation(t, s), newConversation(t, s)
	ids := seedMessages(t, s, c.ID, other.ID, 20)
	elsewhere, err := s.Messages(ctx, other.ID)
	require.NoError(t, err)
	type call func() (chat.MessagePage, error)
	for name, tc := range map[string]struct {
		call call
		code string
	}{
		"limit zero":          {func() (chat.MessagePage, error) { return s.MessagesBefore(ctx, c.ID, "", 0) }, chat.CodeInvalid},
		"limit too big":       {func() (chat.MessagePage, error) { return s.MessagesAround(ctx, c.ID, ids[3], 501) }, chat.CodeInvalid},
		"no conversation id":  {func() (chat.MessagePage, error) { return s.MessagesBefore(ctx, "", "", 10) }, chat.CodeInvalid},
		"unknown":             {func() (chat.MessagePage, error) { return s.MessagesBefore(ctx, "nope", "", 10) }, chat.CodeNotFound},
		"unknown message":     {func() (chat.MessagePage, error) { return s.MessagesBefore(ctx, c.ID, "nope", 10) }, chat.CodeNotFound},
		"another's message":   {func() (chat.MessagePage, error) { return s.MessagesAround(ctx, c.ID, elsewhere[0].ID, 10) }, chat.CodeNotFound},
		"around nothing":      {func() (chat.MessagePage, error) { return s.MessagesAround(ctx, c.ID, "", 10) }, chat.CodeInvalid},
		"after another's one": {func() (chat.MessagePage, error) { return s.MessagesAfter(ctx, c.ID, elsewhere[1].ID, 10) }, chat.CodeNotFound},
	} {
		page, err := tc.call()
		assert.Equal(t, tc.code, chat.ErrorCode(err), name)
		assert.Empty(t, page.Messages, name)
	}
	_, err = s.OpenConversation(ctx, c.ID, 0)
	assert.Equal(t, chat.CodeInvalid, chat.ErrorCode(err))
	_, err = s.OpenConversation(ctx, "nope", 10)
	assert.Equal(t, chat.CodeNotFound, chat.ErrorCode(err))
	all, err := s.Messages(ctx, c.ID)
	require.NoError(t, err)
	assert.Equal(t, ids, idsOf(all), "nothing changed")
}

func TestPagesReturnStreamedTextWhole(t *testing.T) {
	t.Parallel()
	s, _ := openTemp(t)
	ctx := context.Background()
	task, m := streaming(t, s, "Hello")
	for _, part := range []string{", wor", "ld", "!"} {
		_, err := s.AppendContent(ctx, m.ID, part)
		require.NoError(t, err)
	}
	want := readBack(t, s, m)
	require.Equal(t, "Hello, world!", want.Content)
	page, err := s.MessagesBefore(ctx, m.ConversationID, "", 1)
	require.NoError(t, err)
	require.Len(t, page.Messages, 1)
	assert.Equal(t, want, page.Messages[0], "text and revision as a whole load gives them")
	around, err := s.MessagesAround(ctx, m.ConversationID, m.ID, 5)
	require.NoError(t, err)
	assert.Equal(t, want, around.Messages[len(around.Messages)-1])
	view, err := s.OpenConversation(ctx, m.ConversationID, 10)
	require.NoError(t, err)
	assert.Equal(t, want, view.Messages[len(view.Messages)-1])
	require.NotNil(t, view.ActiveTask)
	assert.Equal(t, task.ID, view.ActiveTask.ID)
}

func TestOpenConversationHasTheLatestMessagesAndTheWholeUsage(t *testing.T) {
	t.Parallel()
	s, _ := openTemp(t)
	ctx := context.Background()
	c := newConversation(t, s)
	var taskIDs []string
	for i := 0; i < 30; i++ {
		task, prompt := newTask(c.ID, fmt.Sprintf("task %d", i))
		task.StartedAt = task.StartedAt.Add(time.Duration(i) * time.Millisecond)
		_, err := s.StartTask(ctx, task, prompt)
		require.NoError(t, err)
		task.Usage = chat.Usage{PromptTokens: 10, CompletionTokens: 5, TotalTokens: 15, CacheReadTokens: 6, CacheWriteTokens: 2}
		task.CostUSD = 0.5
		task.Rev++
		reply := chat.Message{ID: uuid.NewString(), ConversationID: c.ID, TaskID: task.ID,
			Role: chat.RoleAssistant, Content: fmt.Sprintf("done %d", i), CreatedAt: time.Now()}
		if i < 29 {
			task.Status = chat.StatusCompleted
			end := time.Now()
			task.EndedAt = &end
			_, err = s.FinishTask(ctx, task, []chat.Message{reply})
		} else {
			_, err = s.Record(ctx, task, []chat.Message{reply})
		}
		require.NoError(t, err)
		taskIDs = append(taskIDs, task.ID)
	}
	full, err := s.LoadConversation(ctx, c.ID)
	require.NoError(t, err)
	view, err := s.OpenConversation(ctx, c.ID, 6)
	require.NoError(t, err)
	assert.Equal(t, full.Conversation, view.Conversation)
	assert.Equal(t, full.Messages[len(full.Messages)-6:], view.Messages)
	assert.True(t, view.HasOlder)
	assert.Equal(t, full.Usage, view.Usage)
	assert.InDelta(t, full.CostUSD, view.CostUSD, 1e-9)
	assert.Equal(t, int64(450), view.Usage.TotalTokens)
	assert.Equal(t, int64(180), view.Usage.CacheReadTokens, "the cached tokens add up too")
	assert.Equal(t, int64(60), view.Usage.CacheWriteTokens)
	var got []string
	for _, tk := range view.Tasks {
		got = append(got, tk.ID)
	}
	assert.Equal(t, taskIDs[27:], got, "the tasks of the messages shown, oldest first")
	require.NotNil(t, view.ActiveTask)
	assert.Equal(t, taskIDs[29], view.ActiveTask.ID)

	small, err := s.OpenConversation(ctx, c.ID, chat.MaxPageSize)
	require.NoError(t, err)
	assert.False(t, small.HasOlder)
	assert.Equal(t, full.Messages, small.Messages)
	assert.Equal(t, full.Tasks, small.Tasks)
}

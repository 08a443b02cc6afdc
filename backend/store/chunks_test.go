package store

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/errand-app/errand/backend/chat"
	"github.com/google/uuid"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// streaming starts a task in a new conversation and adds a streaming
// assistant message to it with text as its first content.
func streaming(t testing.TB, s *Store, text string) (chat.Task, chat.Message) {
	t.Helper()
	ctx := context.Background()
	c := newConversation(t, s)
	task, prompt := newTask(c.ID, "Write a long answer")
	_, err := s.StartTask(ctx, task, prompt)
	require.NoError(t, err)
	m, err := s.AddMessage(ctx, chat.Message{ID: uuid.NewString(), ConversationID: c.ID, TaskID: task.ID,
		Role: chat.RoleAssistant, Content: text, Streaming: true, CreatedAt: time.Now()})
	require.NoError(t, err)
	return task, m
}

func chunkCount(t *testing.T, s *Store, messageID string) int {
	t.Helper()
	var n int
	require.NoError(t, s.db.QueryRow(`SELECT count(*) FROM message_chunks WHERE message_id = ?`, messageID).Scan(&n))
	return n
}

// readBack returns the message as each way of reading it sees it, and
// checks that they agree.
func readBack(t *testing.T, s *Store, m chat.Message) chat.Message {
	t.Helper()
	ctx := context.Background()
	msgs, err := s.Messages(ctx, m.ConversationID)
	require.NoError(t, err)
	view, err := s.LoadConversation(ctx, m.ConversationID)
	require.NoError(t, err)
	byTask, err := s.TaskMessages(ctx, m.TaskID)
	require.NoError(t, err)
	var got []chat.Message
	for _, list := range [][]chat.Message{msgs, view.Messages, byTask} {
		for _, x := range list {
			if x.ID == m.ID {
				got = append(got, x)
			}
		}
	}
	require.Len(t, got, 3)
	assert.Equal(t, got[0], got[1])
	assert.Equal(t, got[0], got[2])
	return got[0]
}

func TestAppendsAreChunksReadBackInOrder(t *testing.T) {
	t.Parallel()
	s, _ := openTemp(t)
	ctx := context.Background()
	task, m := streaming(t, s, "Olá")
	want := "Olá"
	parts := []string{", wörld", "", " — ", "日本語", strings.Repeat("x", 10000), "\n\nend"}
	for i, p := range parts {
		a, err := s.AppendContent(ctx, m.ID, p)
		require.NoError(t, err)
		assert.Equal(t, chat.Appended{ConversationID: m.ConversationID, TaskID: task.ID, Offset: len(want), Rev: i + 2}, a,
			"append %d: the offset is the byte length before the text; each append is a revision", i)
		want += p
		got := readBack(t, s, m)
		assert.Equal(t, want, got.Content)
		assert.Equal(t, a.Rev, got.Rev, "a reader sees the revision of the last append")
		assert.True(t, got.Streaming)
	}
	assert.Equal(t, len(parts), chunkCount(t, s, m.ID))
	var content string
	require.NoError(t, s.db.QueryRow(`SELECT content FROM messages WHERE id = ?`, m.ID).Scan(&content))
	assert.Equal(t, "Olá", content, "an append never rewrites the message's row")
}

func TestFinalUpdateFoldsTheChunks(t *testing.T) {
	t.Parallel()
	s, _ := openTemp(t)
	ctx := context.Background()
	_, m := streaming(t, s, "Hel")
	var last chat.Appended
	for _, p := range []string{"lo", ", ", "world"} {
		var err error
		last, err = s.AppendContent(ctx, m.ID, p)
		require.NoError(t, err)
	}
	m.Content = "Hello, world!" // the whole reply, as the model ended it
	m.Streaming = false
	m.Usage = &chat.Usage{PromptTokens: 10, CompletionTokens: 4}
	stored, err := s.UpdateMessage(ctx, m)
	require.NoError(t, err)
	assert.Equal(t, "Hello, world!", stored.Content)
	assert.False(t, stored.Streaming)
	assert.Greater(t, stored.Rev, last.Rev, "the final version outranks every delta")
	assert.Equal(t, 0, chunkCount(t, s, m.ID), "the chunks are gone with the final update")
	assert.Equal(t, stored, readBack(t, s, m))

	_, err = s.AppendContent(ctx, m.ID, "more")
	assert.Equal(t, chat.CodeConflict, chat.ErrorCode(err), "a finished message takes no more text")
	_, err = s.AppendContent(ctx, "missing", "x")
	assert.Equal(t, chat.CodeNotFound, chat.ErrorCode(err))
}

// A model call's usage is kept on its message whole: the cache reads and
// writes too, as the task keeps them, whether the message is stored with
// its usage or given it when its stream ends.
func TestAMessageKeepsItsCallsCacheCounts(t *testing.T) {
	t.Parallel()
	s, _ := openTemp(t)
	ctx := context.Background()
	task, m := streaming(t, s, "Hel")
	m.Content, m.Streaming = "Hello", false
	m.Usage = &chat.Usage{PromptTokens: 1000, CompletionTokens: 10, TotalTokens: 1010, CacheReadTokens: 800, CacheWriteTokens: 150}
	stored, err := s.UpdateMessage(ctx, m)
	require.NoError(t, err)
	assert.Equal(t, *m.Usage, *stored.Usage)
	assert.Equal(t, *m.Usage, *readBack(t, s, m).Usage)

	added, err := s.AddMessage(ctx, chat.Message{ID: uuid.NewString(), ConversationID: m.ConversationID, TaskID: task.ID,
		Role: chat.RoleAssistant, Content: "Again", CreatedAt: time.Now(),
		Usage: &chat.Usage{PromptTokens: 20, CompletionTokens: 2, TotalTokens: 22, CacheReadTokens: 16}})
	require.NoError(t, err)
	assert.Equal(t, chat.Usage{PromptTokens: 20, CompletionTokens: 2, TotalTokens: 22, CacheReadTokens: 16}, *readBack(t, s, added).Usage)
}

// A crash mid-stream leaves chunks behind: they read back as part of the
// message, before and after recovery ends the task. Ending it does not
// rewrite the text, so that it costs the same however long the text is.
func TestCrashMidStreamKeepsTheChunks(t *testing.T) {
	t.Parallel()
	s, path := openTemp(t)
	ctx := context.Background()
	task, m := streaming(t, s, "The first part")
	var last chat.Appended
	for _, p := range []string{", the second", ", the third"} {
		var err error
		last, err = s.AppendContent(ctx, m.ID, p)
		require.NoError(t, err)
	}
	require.NoError(t, s.Close()) // the process dies here

	s2, err := Open(ctx, path)
	require.NoError(t, err)
	defer s2.Close()
	got := readBack(t, s2, m)
	assert.Equal(t, "The first part, the second, the third", got.Content)
	assert.Equal(t, last.Rev, got.Rev)
	assert.True(t, got.Streaming)

	task.Status = chat.StatusInterrupted
	task.Rev++
	changed, err := s2.FinishTask(ctx, task, nil)
	require.NoError(t, err)
	require.Len(t, changed.Ended, 1)
	assert.Empty(t, changed.Messages)
	ended := changed.Ended[0]
	assert.Equal(t, len("The first part, the second, the third"), ended.ContentBytes)
	assert.False(t, ended.Message.Streaming)
	assert.Equal(t, last.Rev+1, ended.Message.Rev)
	assert.Equal(t, 2, chunkCount(t, s2, m.ID), "the chunks stay")
	back := readBack(t, s2, m)
	assert.Equal(t, "The first part, the second, the third", back.Content, "the text streamed stays")
	back.Content = ""
	assert.Equal(t, back, ended.Message, "the event copy is the stored copy without its text")
	_, err = s2.AppendContent(ctx, m.ID, "more")
	assert.Equal(t, chat.CodeConflict, chat.ErrorCode(err), "an ended stream takes no more text")

	// A final update still folds them in.
	final := readBack(t, s2, m)
	final.Content += "."
	stored, err := s2.UpdateMessage(ctx, final)
	require.NoError(t, err)
	assert.Equal(t, "The first part, the second, the third.", stored.Content)
	assert.Equal(t, last.Rev+2, stored.Rev)
	assert.Equal(t, 0, chunkCount(t, s2, m.ID))
	assert.Equal(t, stored, readBack(t, s2, m))
}

// An update that makes a message streaming again lets it take chunks.
func TestAStreamResumedByAnUpdateTakesChunks(t *testing.T) {
	t.Parallel()
	s, _ := openTemp(t)
	ctx := context.Background()
	_, m := streaming(t, s, "a")
	m.Content, m.Streaming = "ab", false
	m, err := s.UpdateMessage(ctx, m)
	require.NoError(t, err)
	m.Streaming = true
	m, err = s.UpdateMessage(ctx, m)
	require.NoError(t, err)
	a, err := s.AppendContent(ctx, m.ID, "c")
	require.NoError(t, err)
	assert.Equal(t, chat.Appended{ConversationID: m.ConversationID, TaskID: m.TaskID, Offset: 2, Rev: m.Rev + 1}, a)
	got := readBack(t, s, m)
	assert.Equal(t, "abc", got.Content)
	assert.Equal(t, a.Rev, got.Rev)
}

func TestDeletingAConversationDeletesItsChunks(t *testing.T) {
	t.Parallel()
	s, _ := openTemp(t)
	ctx := context.Background()
	_, m := streaming(t, s, "a")
	_, err := s.AppendContent(ctx, m.ID, "b")
	require.NoError(t, err)
	require.NoError(t, s.DeleteConversation(ctx, m.ConversationID))
	assert.Equal(t, 0, chunkCount(t, s, m.ID))
}

// A task's calls are read without the text of its messages: settling a
// task that streamed megabytes does not read them to pair its calls.
func TestTaskCallsPairWithoutText(t *testing.T) {
	t.Parallel()
	s, _ := openTemp(t)
	ctx := context.Background()
	task, m := streaming(t, s, strings.Repeat("long text ", 1000))
	_, err := s.AppendContent(ctx, m.ID, " and more")
	require.NoError(t, err)
	call := chat.ToolCall{ID: "call_1", Name: "read_file", Arguments: `{"path":"a"}`}
	asked, err := s.AddMessage(ctx, chat.Message{ID: uuid.NewString(), ConversationID: m.ConversationID, TaskID: task.ID,
		Role: chat.RoleAssistant, Content: "Reading it.", ToolCalls: []chat.ToolCall{call}, CreatedAt: time.Now()})
	require.NoError(t, err)
	answered, err := s.AddMessage(ctx, chat.Message{ID: uuid.NewString(), ConversationID: m.ConversationID, TaskID: task.ID,
		Role: chat.RoleTool, ToolCallID: "call_1", ToolName: "read_file", Content: "file text", CreatedAt: time.Now()})
	require.NoError(t, err)

	calls, err := s.TaskCalls(ctx, task.ID)
	require.NoError(t, err)
	require.Len(t, calls, 2, "the prompt and the streamed text call nothing")
	assert.Equal(t, asked.ID, calls[0].ID)
	assert.Equal(t, []chat.ToolCall{call}, calls[0].ToolCalls)
	assert.Equal(t, answered.ID, calls[1].ID)
	assert.Equal(t, "call_1", calls[1].ToolCallID)
	for _, c := range calls {
		assert.Empty(t, c.Content)
	}
}

// A Stop reads where the stopped reply's text and reasoning end. Found
// through the primary key, the end of a kind the reply has none of was
// looked for in every chunk, text and all: a 5 MB reply without reasoning
// read 5 MB to stop. Each end is one lookup in an index that holds it.
func TestAStreamsEndsAreReadWithoutItsChunks(t *testing.T) {
	s, _ := openTemp(t)
	_, m := streaming(t, s, "")
	for range 50 {
		_, err := s.AppendContent(context.Background(), m.ID, strings.Repeat("words ", 20))
		require.NoError(t, err)
	}
	rows, err := s.db.Query(`EXPLAIN QUERY PLAN `+streamEndQuery, m.ID)
	require.NoError(t, err)
	defer rows.Close()
	var lookups []string
	for rows.Next() {
		var id, parent, unused int
		var detail string
		require.NoError(t, rows.Scan(&id, &parent, &unused, &detail))
		if strings.Contains(detail, "message_chunks") {
			lookups = append(lookups, detail)
		}
	}
	require.NoError(t, rows.Err())
	// The two ends, then the chunks' count (the primary key's last entry).
	require.Len(t, lookups, 3)
	assert.Contains(t, lookups[0], "USING COVERING INDEX message_chunks_kind (message_id=? AND reasoning=?)")
	assert.Contains(t, lookups[1], "USING COVERING INDEX message_chunks_kind (message_id=? AND reasoning=?)")
	assert.Contains(t, lookups[2], "USING COVERING INDEX")
}

package store

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/errand-app/errand/backend/chat"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A database left at any earlier schema version — built by that version's
// migrations, holding a conversation with a task and its messages — opens
// with this code: it is upgraded to the current schema, what it held is
// read back whole, and the new columns (a message's reasoning and its
// call's cache counts among them) work on it.
func TestEveryEarlierSchemaIsUpgraded(t *testing.T) {
	ms, err := migrations()
	require.NoError(t, err)
	require.NotEmpty(t, ms)
	for _, m := range ms[:len(ms)-1] {
		t.Run(m.name, func(t *testing.T) {
			t.Parallel()
			path := filepath.Join(t.TempDir(), FileName)
			buildAt(t, path, m.version)

			ctx := context.Background()
			s, err := Open(ctx, path)
			require.NoError(t, err)
			defer s.Close()
			var version int
			require.NoError(t, s.db.QueryRow("PRAGMA user_version").Scan(&version))
			assert.Equal(t, SchemaVersion(), version)

			view, err := s.LoadConversation(ctx, "conv-old")
			require.NoError(t, err)
			assert.Equal(t, "Written long ago", view.Conversation.Title)
			require.Len(t, view.Messages, 2)
			assert.Equal(t, "What is 2+2?", view.Messages[0].Content)
			assert.Equal(t, "4", view.Messages[1].Content)
			assert.Empty(t, view.Messages[1].Reasoning, "an old reply has no reasoning")
			require.Len(t, view.Tasks, 1)
			assert.Equal(t, chat.StatusCompleted, view.Tasks[0].Status)

			// And it keeps working: a new reply keeps its reasoning, and
			// its call's usage whole, the cache reads and writes too (0037).
			usage := chat.Usage{PromptTokens: 900, CompletionTokens: 12, TotalTokens: 912, CacheReadTokens: 700, CacheWriteTokens: 150}
			msg := chat.Message{ID: "msg-new", ConversationID: "conv-old", Role: chat.RoleAssistant,
				Content: "Still here", Reasoning: "Checking the old file", ReasoningMS: 1200, Usage: &usage}
			_, err = s.AddMessage(ctx, msg)
			require.NoError(t, err)
			got, err := s.GetMessage(ctx, "conv-old", "msg-new")
			require.NoError(t, err)
			assert.Equal(t, "Checking the old file", got.Reasoning)
			assert.Equal(t, int64(1200), got.ReasoningMS)
			require.NotNil(t, got.Usage)
			assert.Equal(t, usage, *got.Usage)

			assertFilledIntact(t, s, m.version)
		})
	}
}

// buildAt writes a database at schema version v (the migrations up to it)
// holding one conversation, its completed task and two messages, written
// with the columns the first schema already had, and the rows of filledAt,
// in WAL mode.
func buildAt(t *testing.T, path string, v int) {
	t.Helper()
	ms, err := migrations()
	require.NoError(t, err)
	db, err := sql.Open("sqlite", "file:"+path)
	require.NoError(t, err)
	defer db.Close()
	// Errand's files are in WAL mode from their first open.
	_, err = db.Exec("PRAGMA journal_mode = WAL")
	require.NoError(t, err)
	for _, m := range ms {
		if m.version > v {
			break
		}
		_, err := db.Exec(m.sql)
		require.NoError(t, err, m.name)
	}
	stmts := []string{
		fmt.Sprintf("PRAGMA user_version = %d", v),
		`INSERT INTO conversations (id, title, created_at, updated_at) VALUES ('conv-old', 'Written long ago', 1700000000000, 1700000000000)`,
		`INSERT INTO tasks (id, conversation_id, mode, status, original_prompt, started_at) VALUES ('task-old', 'conv-old', 'agent', 'completed', 'What is 2+2?', 1700000000000)`,
		`INSERT INTO messages (id, conversation_id, task_id, role, content, created_at) VALUES ('msg-1', 'conv-old', 'task-old', 'user', 'What is 2+2?', 1700000000000)`,
		`INSERT INTO messages (id, conversation_id, task_id, role, content, created_at) VALUES ('msg-2', 'conv-old', 'task-old', 'assistant', '4', 1700000000001)`,
	}
	stmts = append(stmts, filledAt(v)...)
	if v >= 28 {
		// From 0028 on a conversation's first message also writes its
		// branch's run, as the store does.
		stmts = append(stmts, `INSERT INTO branch_runs (conversation_id, run, first, upto)
			SELECT conversation_id, 0, min(seq), 9223372036854775807 FROM messages WHERE run = 0 GROUP BY conversation_id`)
	}
	for _, q := range stmts {
		_, err := db.Exec(q)
		require.NoError(t, err, q)
	}
}

// everyStatus is a task in each status a task can be left in, each in its
// own conversation (one unfinished task per conversation).
var everyStatus = []chat.TaskStatus{chat.StatusRunning, chat.StatusThinking, chat.StatusToolExecuting,
	chat.StatusWaitingUser, chat.StatusWaitingApproval, chat.StatusPaused, chat.StatusInterrupted,
	chat.StatusCompleted, chat.StatusCancelled, chat.StatusError}

// filledAt is realistic rows for the tables that exist at schema v,
// written with the columns of the migration that made each table: a task
// in every status, and from their versions on a reply cut off mid-stream
// (0007), a global and a conversation fact (0010), an MCP server (0012),
// an agent (0014), a plan (0016), a checkpoint (0017) and a saved prompt
// (0033).
func filledAt(v int) []string {
	var q []string
	for _, st := range everyStatus {
		q = append(q,
			fmt.Sprintf(`INSERT INTO conversations (id, title, created_at, updated_at) VALUES ('conv-%s', 'A task left %s', 1700000000000, 1700000000000)`, st, st),
			fmt.Sprintf(`INSERT INTO tasks (id, conversation_id, mode, status, original_prompt, started_at) VALUES ('task-%s', 'conv-%s', 'agent', '%s', 'Tidy the notes', 1700000000000)`, st, st, st),
			fmt.Sprintf(`INSERT INTO messages (id, conversation_id, task_id, role, content, created_at) VALUES ('msg-%s', 'conv-%s', 'task-%s', 'user', 'Tidy the notes', 1700000000000)`, st, st, st))
	}
	if v >= 7 {
		// A reply cut off mid-stream by a crash: its text is its content
		// and its chunks (0006, 0007), which 0036 indexes.
		q = append(q,
			`INSERT INTO conversations (id, title, created_at, updated_at) VALUES ('conv-streamed', 'A reply cut off', 1700000000000, 1700000000000)`,
			`INSERT INTO tasks (id, conversation_id, mode, status, original_prompt, started_at) VALUES ('task-streamed', 'conv-streamed', 'agent', 'interrupted', 'Sum up the diary', 1700000000000)`,
			`INSERT INTO messages (id, conversation_id, task_id, role, content, created_at) VALUES ('msg-streamed-q', 'conv-streamed', 'task-streamed', 'user', 'Sum up the diary', 1700000000000)`,
			`INSERT INTO messages (id, conversation_id, task_id, role, content, streaming, chunked, created_at) VALUES ('msg-streamed', 'conv-streamed', 'task-streamed', 'assistant', 'Half ', 1, 1, 1700000000001)`,
			`INSERT INTO message_chunks (message_id, seq, end_offset, text) VALUES ('msg-streamed', 1, 11, 'of the'), ('msg-streamed', 2, 17, ' diary')`)
	}
	if v >= 10 {
		q = append(q,
			`INSERT INTO facts (id, conversation_id, key, value, created_at, updated_at) VALUES ('fact-global', NULL, 'name', 'Ada', 1700000000000, 1700000000000)`,
			`INSERT INTO facts (id, conversation_id, key, value, created_at, updated_at) VALUES ('fact-conv', 'conv-old', 'city', 'Lisbon', 1700000000000, 1700000000000)`)
	}
	if v >= 12 {
		q = append(q, `INSERT INTO mcp_servers (id, name, config, created_at, updated_at) VALUES ('mcp-1', 'files', '{"id":"mcp-1","name":"files","transport":"stdio","command":"npx","args":["-y","server-files"],"enabled":true}', 1700000000000, 1700000000000)`)
	}
	if v >= 14 {
		q = append(q, `INSERT INTO agents (id, definition, created_at, updated_at) VALUES ('reviewer', '{"id":"reviewer","name":"Reviewer","description":"Reads and comments","color":"#336699","instructions":"Review the text.","allTools":true}', 1700000000000, 1700000000000)`)
	}
	if v >= 16 {
		q = append(q, `INSERT INTO plans (task_id, revision, conversation_id, steps, note, created_at) VALUES ('task-paused', 1, 'conv-paused', '[{"title":"Read the notes","status":"done"},{"title":"Tidy them","status":"pending"}]', '', 1700000000000)`)
	}
	if v >= 17 {
		q = append(q, `INSERT INTO checkpoints (task_id, created_at) VALUES ('task-completed', 1700000000000)`)
	}
	if v >= 33 {
		q = append(q, `INSERT INTO saved_prompts (id, name, text, created_at, updated_at) VALUES ('prompt-1', 'Weekly notes', 'Tidy the notes', 1700000000000, 1700000000000)`)
	}
	return q
}

// assertFilledIntact checks what filledAt wrote, read through today's code.
func assertFilledIntact(t *testing.T, s *Store, v int) {
	t.Helper()
	ctx := context.Background()
	for _, st := range everyStatus {
		task, err := s.GetTask(ctx, "task-"+string(st))
		require.NoError(t, err)
		assert.Equal(t, st, task.Status)
		view, err := s.LoadConversation(ctx, "conv-"+string(st))
		require.NoError(t, err)
		assert.Equal(t, "A task left "+string(st), view.Conversation.Title)
		require.Len(t, view.Messages, 1)
	}
	if v >= 7 {
		view, err := s.LoadConversation(ctx, "conv-streamed")
		require.NoError(t, err)
		require.Len(t, view.Messages, 2)
		assert.Equal(t, "Half of the diary", view.Messages[1].Content)
		end, err := streamEnd(ctx, s.db, "msg-streamed")
		require.NoError(t, err)
		assert.Equal(t, 17, end.ContentBytes, "where the cut-off reply ends, read through the index")
		assert.Equal(t, 0, end.ReasoningBytes)
	}
	// The paused task can go on: it is among the unfinished ones, and its
	// conversation takes a new message.
	active, err := s.ActiveTasks(ctx)
	require.NoError(t, err)
	var ids []string
	for _, a := range active {
		ids = append(ids, a.ID)
	}
	assert.Contains(t, ids, "task-paused")
	_, err = s.AddMessage(ctx, chat.Message{ID: "msg-go-on", ConversationID: "conv-paused", TaskID: "task-paused", Role: chat.RoleUser, Content: "Go on"})
	require.NoError(t, err)
	if v >= 10 {
		facts, err := s.Facts(ctx, "conv-old")
		require.NoError(t, err)
		var kv []string
		for _, f := range facts {
			kv = append(kv, f.Key+"="+f.Value)
		}
		assert.ElementsMatch(t, []string{"name=Ada", "city=Lisbon"}, kv)
	}
	if v >= 12 {
		servers, err := s.MCPServers(ctx)
		require.NoError(t, err)
		require.Len(t, servers, 1)
		assert.Equal(t, "files", servers[0].Name)
		assert.Equal(t, []string{"-y", "server-files"}, servers[0].Args)
	}
	if v >= 14 {
		agents, err := s.ListAgents(ctx)
		require.NoError(t, err)
		var names []string
		for _, a := range agents {
			names = append(names, a.Name)
		}
		assert.Contains(t, names, "Reviewer")
	}
	if v >= 16 {
		plan, ok, err := s.Plan(ctx, "task-paused")
		require.NoError(t, err)
		require.True(t, ok)
		require.Len(t, plan.Steps, 2)
		assert.Equal(t, "Tidy them", plan.Steps[1].Title)
	}
	if v >= 17 {
		_, err := s.Checkpoint(ctx, "task-completed")
		require.NoError(t, err)
	}
	if v >= 33 {
		prompts, err := s.Prompts(ctx)
		require.NoError(t, err)
		require.Len(t, prompts, 1)
		assert.Equal(t, "Weekly notes", prompts[0].Name)
	}
	// Every schema's messages are found by search after the upgrade (0034
	// built the index again, with word starts).
	hits, err := s.Search(ctx, "wha", 10)
	require.NoError(t, err)
	require.Len(t, hits, 1)
	assert.Equal(t, "msg-1", hits[0].MessageID)
	// 0035 listed the index's words, where a longer start is looked up.
	var listed int
	require.NoError(t, s.db.QueryRow(`SELECT count(*) FROM search_words WHERE word IN ('tidy', 'notes', 'what')`).Scan(&listed))
	assert.Equal(t, 3, listed)
	hits, err = s.Search(ctx, "notes", 20)
	require.NoError(t, err)
	assert.Len(t, hits, len(everyStatus))
}

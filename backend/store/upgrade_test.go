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
// read back whole, and the new columns (a message's reasoning among them)
// work on it.
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

			// And it keeps working: a new reply keeps its reasoning.
			msg := chat.Message{ID: "msg-new", ConversationID: "conv-old", Role: chat.RoleAssistant,
				Content: "Still here", Reasoning: "Checking the old file", ReasoningMS: 1200}
			_, err = s.AddMessage(ctx, msg)
			require.NoError(t, err)
			got, err := s.GetMessage(ctx, "conv-old", "msg-new")
			require.NoError(t, err)
			assert.Equal(t, "Checking the old file", got.Reasoning)
			assert.Equal(t, int64(1200), got.ReasoningMS)
		})
	}
}

// buildAt writes a database at schema version v (the migrations up to it)
// holding one conversation, its completed task and two messages, written
// with the columns the first schema already had, in WAL mode.
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
	for _, q := range stmts {
		_, err := db.Exec(q)
		require.NoError(t, err, q)
	}
}

package archive

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/errand-app/errand/backend/chat"
	"github.com/errand-app/errand/backend/store"
	"github.com/google/uuid"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// turn runs a whole task in the conversation: its prompt (none when
// prompt is "": a regenerated reply), one reply, then the task ends;
// after, when not nil, starts it on a new branch after that message. It
// returns the prompt and the reply.
func turn(t *testing.T, s *store.Store, convID, prompt, reply string, after *string) (chat.Message, chat.Message) {
	t.Helper()
	ctx := context.Background()
	task := chat.Task{ID: uuid.NewString(), ConversationID: convID, Mode: chat.ModeChat, Status: chat.StatusRunning,
		OriginalPrompt: prompt, StartedAt: at(1), Rev: 1, Model: "gpt-4o"}
	p := chat.Message{ID: uuid.NewString(), ConversationID: convID, TaskID: task.ID, Role: chat.RoleUser, Content: prompt, CreatedAt: at(1)}
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
		Role: chat.RoleAssistant, Content: reply, CreatedAt: at(2)})
	require.NoError(t, err)
	task.Status, task.Rev = chat.StatusCompleted, task.Rev+1
	_, err = s.FinishTask(ctx, task, nil)
	require.NoError(t, err)
	return p, r
}

// branched stores a conversation whose second message was edited (two
// versions) and whose reply to the edit was regenerated (two versions):
// the current branch is A, a1, B edited, b3.
func branched(t *testing.T, s *store.Store) string {
	t.Helper()
	c := chat.Conversation{ID: uuid.NewString(), Mode: chat.ModeChat, Model: "gpt-4o", CreatedAt: at(0), UpdatedAt: at(0)}
	require.NoError(t, s.CreateConversation(context.Background(), c))
	_, a1 := turn(t, s, c.ID, "A", "a1", nil)
	turn(t, s, c.ID, "B", "b1", nil)
	edited, _ := turn(t, s, c.ID, "B edited", "b2", &a1.ID)
	turn(t, s, c.ID, "", "b3", &edited.ID)
	return c.ID
}

// transcript is the current branch as text, each message with its
// version arrows ("2/2") when it has siblings, and the prompt of the task
// it belongs to.
func transcript(t *testing.T, s *store.Store, convID string) []string {
	t.Helper()
	ctx := context.Background()
	view, err := s.OpenConversation(ctx, convID, 50)
	require.NoError(t, err)
	prompts := map[string]string{}
	for _, task := range view.Tasks {
		prompts[task.ID] = task.OriginalPrompt
	}
	out := make([]string, 0, len(view.Messages))
	for _, m := range view.Messages {
		line := m.Content
		if m.Versions > 0 {
			line += fmt.Sprintf(" %d/%d", m.Version, m.Versions)
		}
		require.Contains(t, prompts, m.TaskID, "the message %q has its task", m.Content)
		out = append(out, line+" ("+prompts[m.TaskID]+")")
	}
	return out
}

// showVersion moves the arrows of the message with the text content by
// step and returns the transcript then shown.
func showVersion(t *testing.T, s *store.Store, convID, content string, step int) []string {
	t.Helper()
	ctx := context.Background()
	msgs, err := s.Messages(ctx, convID)
	require.NoError(t, err)
	for _, m := range msgs {
		if m.Content == content {
			_, err := s.ShowVersion(ctx, convID, m.ID, step)
			require.NoError(t, err)
			return transcript(t, s, convID)
		}
	}
	t.Fatalf("no message %q on the branch", content)
	return nil
}

// Every version survives a backup restored into an empty store and a JSON
// export imported again: the same branch is shown, with the same arrows,
// and the arrows bring back the other versions with their tasks.
func TestBackupAndExportKeepEveryVersion(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	src := openStore(t)
	id := branched(t, src)
	want := []string{"A (A)", "a1 (A)", "B edited 2/2 (B edited)", "b3 2/2 (again)"}
	require.Equal(t, want, transcript(t, src, id))

	backup, err := Backup(ctx, src)
	require.NoError(t, err)
	export, err := Conversation(ctx, src, id)
	require.NoError(t, err)
	for name, f := range map[string]File{"backup": backup, "export": export} {
		t.Run(name, func(t *testing.T) {
			var buf bytes.Buffer
			require.NoError(t, WriteJSON(&buf, f))
			read, err := Read(&buf)
			require.NoError(t, err)
			dst := openStore(t)
			if f.Format == FormatBackup {
				require.NoError(t, Restore(ctx, dst, read))
			} else {
				_, err := Import(ctx, dst, read)
				require.NoError(t, err)
			}
			list, err := dst.ListConversations(ctx)
			require.NoError(t, err)
			require.Len(t, list, 1)
			got := list[0].ID
			assert.Equal(t, want, transcript(t, dst, got), "the same current branch")
			a, err := src.ConversationRecord(ctx, id)
			require.NoError(t, err)
			b, err := dst.ConversationRecord(ctx, got)
			require.NoError(t, err)
			require.Len(t, b.Messages, 7, "every message")
			require.Len(t, b.Tasks, 4, "every task")
			assert.Equal(t, normal(t, a), normal(t, b), "every version in its place")

			assert.Equal(t, "b2 1/2 (B edited)", showVersion(t, dst, got, "b3", -1)[3], "the first reply to the edit")
			assert.Equal(t, []string{"A (A)", "a1 (A)", "B 1/2 (B)", "b1 (B)"}, showVersion(t, dst, got, "B edited", -1),
				"the version before the edit, with its own reply and task")
			assert.Equal(t, []string{"A (A)", "a1 (A)", "B edited 2/2 (B edited)", "b2 1/2 (B edited)"}, showVersion(t, dst, got, "B", 1),
				"back to the edit, its continuation as last shown")
		})
	}
}

// A Markdown export is the current branch only.
func TestMarkdownWritesTheCurrentBranchOnly(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := openStore(t)
	r, err := s.ConversationRecord(ctx, branched(t, s))
	require.NoError(t, err)
	var buf bytes.Buffer
	require.NoError(t, Markdown(&buf, r))
	md := buf.String()
	assert.Contains(t, md, "· 4 messages_")
	assert.Contains(t, md, "\n\nB edited\n")
	assert.Contains(t, md, "\n\nb3\n")
	for _, other := range []string{"\n\nB\n", "\n\nb1\n", "\n\nb2\n"} {
		assert.NotContains(t, md, other)
	}
}

// messageMaps is the file's first conversation's messages as JSON
// objects, and puts them back.
func messageMaps(t *testing.T, f File, edit func(msgs []map[string]any)) []byte {
	t.Helper()
	b, err := json.Marshal(f)
	require.NoError(t, err)
	var raw map[string]any
	require.NoError(t, json.Unmarshal(b, &raw))
	conv := raw["conversations"].([]any)[0].(map[string]any)
	var msgs []map[string]any
	for _, m := range conv["messages"].([]any) {
		msgs = append(msgs, m.(map[string]any))
	}
	edit(msgs)
	b, err = json.Marshal(raw)
	require.NoError(t, err)
	return b
}

// A file written before the tree (no parents) is one branch, in order.
func TestAFileFromBeforeTheTreeIsOneBranch(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	src := openStore(t)
	id := fill(t, src, "Old")
	f, err := Conversation(ctx, src, id)
	require.NoError(t, err)
	f.Version = 2
	old := messageMaps(t, f, func(msgs []map[string]any) {
		for _, m := range msgs {
			delete(m, "parentId")
		}
	})
	require.NotContains(t, string(old), "parentId")
	read, err := Read(bytes.NewReader(old))
	require.NoError(t, err)
	dst := openStore(t)
	convs, err := Import(ctx, dst, read)
	require.NoError(t, err)
	before, err := src.Messages(ctx, id)
	require.NoError(t, err)
	after, err := dst.Messages(ctx, convs[0].ID)
	require.NoError(t, err)
	require.Len(t, after, len(before), "every message on the branch")
	for i := range after {
		assert.Equal(t, before[i].Content, after[i].Content)
		if i > 0 {
			assert.Equal(t, after[i-1].ID, after[i].ParentID, "each continues the one before")
		}
	}
	assert.Empty(t, after[0].ParentID)
}

// A message whose parent is not an earlier message of the file, or that
// breaks the current branch, is refused, and nothing is imported.
func TestABrokenTreeIsRefusedAndNothingIsImported(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	src := openStore(t)
	f, err := Conversation(ctx, src, branched(t, src))
	require.NoError(t, err)
	cases := []struct {
		name string
		edit func(msgs []map[string]any)
		says string
	}{
		{"a later parent", func(msgs []map[string]any) { msgs[1]["parentId"] = msgs[3]["id"] },
			"message 2 continues a message that is not before it"},
		{"an unknown parent", func(msgs []map[string]any) { msgs[2]["parentId"] = uuid.NewString() },
			"message 3 continues a message that is not before it"},
		{"its own parent", func(msgs []map[string]any) { msgs[4]["parentId"] = msgs[4]["id"] },
			"message 5 continues a message that is not before it"},
		{"a task as parent", func(msgs []map[string]any) { msgs[1]["parentId"] = msgs[0]["taskId"] },
			"message 2 continues a message that is not before it"},
		{"two versions on the branch", func(msgs []map[string]any) { delete(msgs[2], "offBranch") },
			"does not continue it"},
		{"a negative place", func(msgs []map[string]any) { msgs[2]["offBranch"] = -1 },
			"message 3 has a negative place"},
	}
	dst := openStore(t)
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			read, err := Read(bytes.NewReader(messageMaps(t, f, tc.edit)))
			require.NoError(t, err)
			_, err = Import(ctx, dst, read)
			require.Error(t, err)
			assert.Equal(t, chat.CodeInvalid, chat.ErrorCode(err))
			assert.Contains(t, chat.ErrorMessage(err), tc.says)
			assert.True(t, strings.HasPrefix(chat.ErrorMessage(err), "conversation 1 of the file"), chat.ErrorMessage(err))
			list, err := dst.ListConversations(ctx)
			require.NoError(t, err)
			assert.Empty(t, list, "nothing imported")
		})
	}
}

// Off-branch numbers are the file's word only for their order: one number
// shared by two sub-trees, or one of 2^63-1, is renumbered on import, so
// a switch brings back one version's continuation, never a mix of two,
// and later switches still count on.
func TestOffBranchNumbersAreRenumberedOnImport(t *testing.T) {
	ctx := context.Background()
	src := openStore(t)
	f, err := Conversation(ctx, src, branched(t, src))
	require.NoError(t, err)
	hostile := messageMaps(t, f, func(msgs []map[string]any) {
		for _, m := range msgs {
			if m["offBranch"] != nil {
				m["offBranch"] = "BIG"
			}
		}
	})
	hostile = bytes.ReplaceAll(hostile, []byte(`"BIG"`), []byte("9223372036854775807"))
	read, err := Read(bytes.NewReader(hostile))
	require.NoError(t, err)
	dst := openStore(t)
	convs, err := Import(ctx, dst, read)
	require.NoError(t, err)
	id := convs[0].ID
	assert.Equal(t, []string{"A (A)", "a1 (A)", "B 1/2 (B)", "b1 (B)"}, showVersion(t, dst, id, "B edited", -1),
		"the version before the edit with its own reply only")
	assert.Equal(t, []string{"A (A)", "a1 (A)", "B edited 2/2 (B edited)", "b3 2/2 (again)"}, showVersion(t, dst, id, "B", 1))
	assert.Equal(t, "b2 1/2 (B edited)", showVersion(t, dst, id, "b3", -1)[3])
}

// Fields Errand could not have written are refused, as the live paths
// refuse them: an unknown outcome or delivery, a person's message over
// the bound, a negative or absurd counter, a cost that is not one, a
// title of invisible characters, a null conversation in a version-1 file.
func TestImportBoundsEveryField(t *testing.T) {
	ctx := context.Background()
	src := openStore(t)
	f, err := Conversation(ctx, src, branched(t, src))
	require.NoError(t, err)
	cases := []struct {
		name string
		edit func(msgs []map[string]any)
		says string
	}{
		{"an unknown outcome", func(msgs []map[string]any) { msgs[1]["outcome"] = "exploded" }, "unknown outcome"},
		{"an unknown delivery", func(msgs []map[string]any) { msgs[0]["delivery"] = "teleported" }, "unknown delivery"},
		{"a huge message", func(msgs []map[string]any) { msgs[0]["content"] = strings.Repeat("x", chat.MaxMessageBytes+1) }, "at most"},
		{"a negative step", func(msgs []map[string]any) { msgs[1]["step"] = -5 }, "cannot be one"},
		{"absurd tokens", func(msgs []map[string]any) {
			msgs[1]["usage"] = map[string]any{"promptTokens": 1e17}
		}, "cannot be one"},
		{"a negative cost", func(msgs []map[string]any) { msgs[1]["costUsd"] = -1 }, "cannot be one"},
	}
	dst := openStore(t)
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			read, err := Read(bytes.NewReader(messageMaps(t, f, tc.edit)))
			require.NoError(t, err)
			_, err = Import(ctx, dst, read)
			require.Error(t, err)
			assert.Equal(t, chat.CodeInvalid, chat.ErrorCode(err))
			assert.Contains(t, chat.ErrorMessage(err), tc.says)
		})
	}
	f.Conversations[0].Conversation.Title = "\u200b\u200b\u3164"
	_, err = Import(ctx, dst, f)
	assert.ErrorContains(t, err, "no visible character")
	f.Conversations[0].Conversation.Title = "Fine"
	f.Conversations[0].Tasks[0].StepCount = -1
	_, err = Import(ctx, dst, f)
	assert.ErrorContains(t, err, "cannot be one")

	_, err = Read(strings.NewReader(`{"format":"errand.conversation","version":1,"conversations":[{"conversation":null}]}`))
	assert.Equal(t, chat.CodeInvalid, chat.ErrorCode(err))
	_, err = Read(strings.NewReader(`{"format":"errand.conversation","version":1,"conversations":[null]}`))
	assert.Equal(t, chat.CodeInvalid, chat.ErrorCode(err))
	list, err := dst.ListConversations(ctx)
	require.NoError(t, err)
	assert.Empty(t, list, "nothing imported")
}

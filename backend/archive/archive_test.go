package archive

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/errand-app/errand/backend/chat"
	"github.com/errand-app/errand/backend/store"
	"github.com/google/uuid"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func openStore(t *testing.T) *store.Store {
	t.Helper()
	s, err := store.Open(context.Background(), filepath.Join(t.TempDir(), store.FileName))
	require.NoError(t, err)
	t.Cleanup(func() { s.Close() })
	return s
}

var clock = time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)

func at(min int) time.Time { return clock.Add(time.Duration(min) * time.Minute) }

// fill stores a conversation with all there is: a finished task with a
// tool call and its result, a streamed reply cut off by Stop (its text in
// chunks), a compaction summary and its notice, a fact. It returns its id.
func fill(t *testing.T, s *store.Store, title string) string {
	t.Helper()
	ctx := context.Background()
	c := chat.Conversation{ID: uuid.NewString(), Mode: chat.ModeAgent, Model: "gpt-4o", CreatedAt: at(0), UpdatedAt: at(0)}
	require.NoError(t, s.CreateConversation(ctx, c))
	_, err := s.RenameConversation(ctx, c.ID, title)
	require.NoError(t, err)
	task := chat.Task{ID: uuid.NewString(), ConversationID: c.ID, Mode: chat.ModeAgent, Status: chat.StatusRunning,
		OriginalPrompt: "List the files", StartedAt: at(1), Rev: 1, Model: "gpt-4o", Limits: chat.Limits{MaxSteps: 5}}
	_, err = s.StartTask(ctx, task, chat.Message{ID: uuid.NewString(), ConversationID: c.ID, TaskID: task.ID,
		Role: chat.RoleUser, Content: "List the files", CreatedAt: at(1)})
	require.NoError(t, err)
	task.Rev++
	task.StepCount = 1
	task.Usage = chat.Usage{PromptTokens: 100, CompletionTokens: 20, TotalTokens: 120}
	_, err = s.Record(ctx, task, []chat.Message{
		{ID: uuid.NewString(), ConversationID: c.ID, TaskID: task.ID, Role: chat.RoleAssistant, Step: 1, CreatedAt: at(2),
			Reasoning: "The person wants a listing; list_files answers that.", ReasoningMS: 2400,
			ToolCalls: []chat.ToolCall{{ID: "call_1", Name: "list_files", Arguments: `{"path":"."}`}},
			Usage:     &chat.Usage{PromptTokens: 100, CompletionTokens: 20, TotalTokens: 120}, CostUSD: 0.001},
		{ID: uuid.NewString(), ConversationID: c.ID, TaskID: task.ID, Role: chat.RoleTool, ToolCallID: "call_1",
			ToolName: "list_files", Content: "a.txt\n```b```.md", Step: 1, CreatedAt: at(3)},
	})
	require.NoError(t, err)
	reply, err := s.AddMessage(ctx, chat.Message{ID: uuid.NewString(), ConversationID: c.ID, TaskID: task.ID,
		Role: chat.RoleAssistant, Content: "There are", Streaming: true, Step: 2, CreatedAt: at(4)})
	require.NoError(t, err)
	_, err = s.AppendReasoning(ctx, reply.ID, "Counting quinces and files.")
	require.NoError(t, err)
	_, err = s.AppendContent(ctx, reply.ID, " two files: <script>alert(1)</script>")
	require.NoError(t, err)
	task.Rev++
	task.Status = chat.StatusCancelled
	end := at(5)
	task.EndedAt = &end
	_, err = s.FinishTask(ctx, task, []chat.Message{{ID: uuid.NewString(), ConversationID: c.ID, TaskID: task.ID,
		Role: chat.RoleSystem, Content: "Stopped by user", CreatedAt: at(5)}})
	require.NoError(t, err)
	msgs, err := s.Messages(ctx, c.ID)
	require.NoError(t, err)
	_, err = s.AddSummary(ctx, chat.Summary{ID: uuid.NewString(), ConversationID: c.ID, ThroughSeq: msgs[2].Seq,
		Text: "The person asked for the files.", ToolLog: "list_files ok", CreatedAt: at(6)},
		chat.Message{ID: uuid.NewString(), ConversationID: c.ID, Role: chat.RoleSystem, Content: "Earlier messages summarised", CreatedAt: at(6)})
	require.NoError(t, err)
	_, err = s.AddFact(ctx, chat.Fact{Key: "editor", Value: "vim", Scope: chat.ScopeConversation, ConversationID: c.ID})
	require.NoError(t, err)
	return c.ID
}

// normal replaces what an import changes on purpose — ids, seqs,
// revisions — by their places, so two records compare by content.
func normal(t *testing.T, r chat.ConversationRecord) chat.ConversationRecord {
	t.Helper()
	b, err := json.Marshal(r)
	require.NoError(t, err)
	var out chat.ConversationRecord
	require.NoError(t, json.Unmarshal(b, &out)) // a deep copy
	name := map[string]string{r.Conversation.ID: "conv"}
	seqs := map[int64]int64{}
	for i, m := range out.Messages {
		name[m.ID] = fmt.Sprint("msg", i)
		seqs[m.Seq] = int64(i + 1)
	}
	for i, x := range out.Tasks {
		name[x.ID] = fmt.Sprint("task", i)
	}
	for i, x := range out.Summaries {
		name[x.ID] = fmt.Sprint("sum", i)
	}
	rename := func(id *string) {
		if *id != "" {
			*id = name[*id]
		}
	}
	rename(&out.Conversation.ID)
	for i := range out.Messages {
		m := &out.Messages[i]
		rename(&m.ID)
		rename(&m.ConversationID)
		rename(&m.TaskID)
		rename(&m.SummaryID)
		rename(&m.ParentID)
		m.Seq, m.Rev = seqs[m.Seq], 0
	}
	for i := range out.Tasks {
		rename(&out.Tasks[i].ID)
		rename(&out.Tasks[i].ConversationID)
		out.Tasks[i].Rev = 0
	}
	for i := range out.Summaries {
		rename(&out.Summaries[i].ID)
		rename(&out.Summaries[i].ConversationID)
		out.Summaries[i].ThroughSeq = seqs[out.Summaries[i].ThroughSeq]
	}
	for i := range out.Facts {
		out.Facts[i].ID = ""
		rename(&out.Facts[i].ConversationID)
	}
	return out
}

func TestExportThenImportGivesTheSameConversationWithNewIDs(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	src := openStore(t)
	id := fill(t, src, "Files")
	f, err := Conversation(ctx, src, id)
	require.NoError(t, err)
	var buf bytes.Buffer
	require.NoError(t, WriteJSON(&buf, f))
	exported := buf.String()

	dst := openStore(t)
	read, err := Read(&buf)
	require.NoError(t, err)
	convs, err := Import(ctx, dst, read)
	require.NoError(t, err)
	require.Len(t, convs, 1)
	assert.NotEqual(t, id, convs[0].ID, "a new id")
	again, err := dst.ConversationRecord(ctx, convs[0].ID)
	require.NoError(t, err)
	assert.Equal(t, normal(t, f.Conversations[0]), normal(t, again))
	assert.Contains(t, again.Messages[3].Content, "two files", "the streamed text is whole")
	assert.Equal(t, "Counting quinces and files.", again.Messages[3].Reasoning, "the streamed reasoning too")
	assert.Equal(t, "The person wants a listing; list_files answers that.", again.Messages[1].Reasoning)
	assert.Equal(t, int64(2400), again.Messages[1].ReasoningMS)
	assert.Contains(t, exported, `"reasoningMs": 2400`)
	require.Len(t, again.Summaries, 1)

	// Imported into the same store it is a second, separate copy.
	_, err = Import(ctx, src, read)
	require.NoError(t, err)
	list, err := src.ListConversations(ctx)
	require.NoError(t, err)
	assert.Len(t, list, 2)
	hits, err := dst.Search(ctx, "two files", 10)
	require.NoError(t, err)
	assert.Len(t, hits, 1, "imported messages are searchable")
	for _, st := range []*store.Store{src, dst} {
		hits, err = st.Search(ctx, "quinces", 10)
		require.NoError(t, err)
		assert.Empty(t, hits, "reasoning is not searched")
	}
}

func TestAnUnfinishedTaskIsImportedAsCancelled(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	src := openStore(t)
	c := chat.Conversation{ID: uuid.NewString(), Mode: chat.ModeAgent, CreatedAt: at(0), UpdatedAt: at(0)}
	require.NoError(t, src.CreateConversation(ctx, c))
	task := chat.Task{ID: uuid.NewString(), ConversationID: c.ID, Mode: chat.ModeAgent, Status: chat.StatusWaitingUser,
		OriginalPrompt: "Ask me", StartedAt: at(1), Rev: 1, PendingQuestion: "Which one?", PendingChoices: []string{"a", "b"}}
	_, err := src.StartTask(ctx, task, chat.Message{ID: uuid.NewString(), ConversationID: c.ID, TaskID: task.ID,
		Role: chat.RoleUser, Content: "Ask me", CreatedAt: at(1)})
	require.NoError(t, err)
	f, err := Conversation(ctx, src, c.ID)
	require.NoError(t, err)
	dst := openStore(t)
	convs, err := Import(ctx, dst, f)
	require.NoError(t, err)
	got, err := dst.ConversationRecord(ctx, convs[0].ID)
	require.NoError(t, err)
	require.Len(t, got.Tasks, 1)
	assert.Equal(t, chat.StatusCancelled, got.Tasks[0].Status)
	assert.Empty(t, got.Tasks[0].PendingQuestion)
	active, err := dst.ActiveTasks(ctx)
	require.NoError(t, err)
	assert.Empty(t, active)
}

func TestBackupRestoresEverythingIntoAnEmptyStore(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	src := openStore(t)
	ids := []string{fill(t, src, "One"), fill(t, src, "Two")}
	settings := chat.DefaultSettings()
	settings.SystemPrompt = "Be brief."
	settings.Provider = chat.ProviderConfig{Preset: "openai", BaseURL: "https://api.openai.com/v1", Model: "gpt-4o"}
	require.NoError(t, src.SaveSettings(ctx, settings))
	_, err := src.AddFact(ctx, chat.Fact{Key: "name", Value: "Ada", Scope: chat.ScopeGlobal})
	require.NoError(t, err)

	f, err := Backup(ctx, src)
	require.NoError(t, err)
	var buf bytes.Buffer
	require.NoError(t, WriteJSON(&buf, f))
	read, err := Read(&buf)
	require.NoError(t, err)
	dst := openStore(t)
	require.NoError(t, Restore(ctx, dst, read))

	got, err := dst.Settings(ctx)
	require.NoError(t, err)
	assert.Equal(t, settings, got)
	facts, err := dst.Facts(ctx, "")
	require.NoError(t, err)
	require.Len(t, facts, 1)
	assert.Equal(t, "Ada", facts[0].Value)
	before, err := src.ListConversations(ctx)
	require.NoError(t, err)
	after, err := dst.ListConversations(ctx)
	require.NoError(t, err)
	require.Len(t, after, len(ids))
	for i := range before {
		assert.Equal(t, before[i].Title, after[i].Title, "the same order of activity")
		a, err := src.ConversationRecord(ctx, before[i].ID)
		require.NoError(t, err)
		b, err := dst.ConversationRecord(ctx, after[i].ID)
		require.NoError(t, err)
		assert.Equal(t, normal(t, a), normal(t, b))
	}
}

func TestBadArchivesAreRefusedAndNothingIsImported(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	src := openStore(t)
	f, err := Conversation(ctx, src, fill(t, src, "Good"))
	require.NoError(t, err)
	good, err := json.Marshal(f)
	require.NoError(t, err)
	second := f
	second.Conversations = append(append([]chat.ConversationRecord{}, f.Conversations...), f.Conversations[0])
	second.Conversations[1].Messages = append([]chat.Message{}, f.Conversations[0].Messages...)
	second.Conversations[1].Messages[2].Role = "wizard"
	halfBad, err := json.Marshal(second)
	require.NoError(t, err)

	version := fmt.Sprintf(`"version":%d`, Version)
	cases := []struct {
		name, file, says string
	}{
		{"not JSON", "hello", "not a conversation or backup"},
		{"another JSON", `{"mcpServers":{}}`, "not a conversation or backup"},
		{"truncated", string(good[:len(good)/2]), "not a conversation or backup"},
		{"newer", strings.Replace(string(good), version, fmt.Sprintf(`"version":%d`, Version+1), 1), "newer version of Errand"},
		{"wrong type", strings.Replace(string(good), `"mode":"agent"`, `"mode":7`, 1), "damaged"},
		{"unknown field", strings.Replace(string(good), version, version+`,"extra":1`, 1), "damaged"},
		{"unknown mode", strings.Replace(string(good), `"mode":"agent"`, `"mode":"sometimes"`, 1), "unknown mode"},
		{"unknown state", strings.Replace(string(good), `"state":"active"`, `"state":"paused"`, 1), "unknown state"},
		{"ended by nobody", strings.Replace(string(good), `"state":"active"`, `"state":"ended"`, 1), "nobody ended it"},
		{"end reason over 1 KB", strings.Replace(string(good), `"state":"active"`, `"state":"ended","endedBy":"agent","endReason":"`+strings.Repeat("a", 1025)+`"`, 1), "longer than 1 KB"},
		{"second conversation bad", string(halfBad), "unknown role"},
		{"huge", `{"format":"errand.conversation",` + version + `,"conversations":[{"messages":[{"content":"` +
			strings.Repeat("a", 2<<20) + `"}]}]}`, "larger than 1 MB"},
	}
	dst := openStore(t)
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			read, err := readUpTo(strings.NewReader(tc.file), 1<<20) // MaxBytes is 256 MB
			if err == nil {
				_, err = Import(ctx, dst, read)
			}
			require.Error(t, err)
			assert.Equal(t, chat.CodeInvalid, chat.ErrorCode(err))
			assert.Contains(t, chat.ErrorMessage(err), tc.says)
			list, err := dst.ListConversations(ctx)
			require.NoError(t, err)
			assert.Empty(t, list, "nothing half-imported")
		})
	}
}

func TestMarkdownIsReadableAndFoldsToolCalls(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := openStore(t)
	r, err := s.ConversationRecord(ctx, fill(t, s, "Files <b>"))
	require.NoError(t, err)
	var buf bytes.Buffer
	require.NoError(t, Markdown(&buf, r))
	md := buf.String()
	assert.True(t, strings.HasPrefix(md, "# Files &lt;b&gt;\n"), md)
	assert.Contains(t, md, "## Summary\n")
	assert.Contains(t, md, "> The person asked for the files.")
	assert.Contains(t, md, "### You · 2026-03-01 09:01 UTC\n\nList the files\n")
	assert.Contains(t, md, "<details><summary>Tool call: list_files</summary>\n\n```json\n{\"path\":\".\"}\n```\n\nResult:\n\n````\na.txt\n```b```.md\n````\n\n</details>")
	assert.Contains(t, md, "There are two files")
	assert.Contains(t, md, "<details><summary>Thought for 2 s</summary>\n\n> The person wants a listing; list_files answers that.\n\n</details>")
	assert.Contains(t, md, "<details><summary>Thinking</summary>\n\n> Counting quinces and files.", "reasoning cut off before it was timed")
	assert.Contains(t, md, "> _Stopped by user")
	assert.NotContains(t, md, "## Plan", "no plans exist yet")
}

func TestMarkdownShowsTheNewestPlanAsAChecklist(t *testing.T) {
	t.Parallel()
	old := &chat.Plan{Steps: []chat.PlanStep{{Title: "Old", Status: chat.StepDone}}}
	p := &chat.Plan{Revision: 2, Note: "Done when <b> is checked.", Steps: []chat.PlanStep{
		{Title: "Read", Status: chat.StepDone},
		{Title: "Write <b>", Status: chat.StepInProgress},
		{Title: "Polish", Status: chat.StepSkipped},
		{Title: "Check", Status: chat.StepPending},
	}}
	r := chat.ConversationRecord{Conversation: chat.Conversation{Title: "Planned"}, Tasks: []chat.Task{{Plan: old}, {}, {Plan: p}}}
	var buf bytes.Buffer
	require.NoError(t, Markdown(&buf, r))
	md := buf.String()
	assert.Contains(t, md, "## Plan · 1 of 4\n\n- [x] Read\n- [ ] Write &lt;b&gt; _(in progress)_\n- [ ] ~~Polish~~ _(skipped)_\n- [ ] Check\n\n> Done when <b> is checked.\n")
	assert.NotContains(t, md, "Old")
}

func TestAVersion1FileKeepsWhatItsAgentModeSwitchSaid(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	src := openStore(t)
	f, err := Conversation(ctx, src, fill(t, src, "Old"))
	require.NoError(t, err)
	good, err := json.Marshal(f)
	require.NoError(t, err)
	for _, tc := range []struct {
		on   string
		want chat.TaskMode
	}{{"true", chat.ModeAgent}, {"false", chat.ModeChat}} {
		v1 := strings.Replace(strings.Replace(string(good), fmt.Sprintf(`"version":%d`, Version), `"version":1`, 1), `"mode":"agent"`, `"agentMode":`+tc.on, 1)
		read, err := Read(strings.NewReader(v1))
		require.NoError(t, err)
		convs, err := Import(ctx, openStore(t), read)
		require.NoError(t, err)
		assert.Equal(t, tc.want, convs[0].Mode)
	}
}

func TestAConversationsStateAndArchiveSurviveExportAndImport(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	src := openStore(t)
	id := fill(t, src, "Quiz")
	_, err := src.EndConversation(ctx, id, chat.ConversationEnd{State: chat.StateEnded, By: chat.EndedByAgent, Reason: "The person asked to stop."})
	require.NoError(t, err)
	_, err = src.ArchiveConversation(ctx, id, true)
	require.NoError(t, err)
	f, err := Conversation(ctx, src, id)
	require.NoError(t, err)
	var buf bytes.Buffer
	require.NoError(t, WriteJSON(&buf, f))
	exported := buf.String()
	assert.Contains(t, exported, `"version": 5`)

	dst := openStore(t)
	read, err := Read(&buf)
	require.NoError(t, err)
	convs, err := Import(ctx, dst, read)
	require.NoError(t, err)
	require.Len(t, convs, 1)
	got, err := dst.GetConversation(ctx, convs[0].ID)
	require.NoError(t, err)
	assert.Equal(t, chat.StateEnded, got.State)
	assert.Equal(t, chat.EndedByAgent, got.EndedBy)
	assert.Equal(t, "The person asked to stop.", got.EndReason)
	assert.True(t, got.Archived, "still archived: found in the Archived view")

	// A version 4 file has no state: its conversation is active.
	v4 := strings.NewReplacer(`"version": 5`, `"version": 4`, `"state": "ended"`, `"state": ""`,
		`"endedBy": "agent",`, ``, `"endReason": "The person asked to stop.",`, ``, `"archived": true`, `"archived": false`).Replace(exported)
	f4, err := Read(strings.NewReader(v4))
	require.NoError(t, err)
	convs, err = Import(ctx, dst, f4)
	require.NoError(t, err)
	got, err = dst.GetConversation(ctx, convs[0].ID)
	require.NoError(t, err)
	assert.Equal(t, chat.StateActive, got.State)
	assert.False(t, got.Archived)
}

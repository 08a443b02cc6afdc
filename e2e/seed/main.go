// Command seed adds one long conversation to an Errand data directory,
// through the real store package (the same migrations, transactions and
// checks the app uses), for the end-to-end test of long conversations.
//
// The conversation is a sequence of finished tasks, five messages each:
// the prompt "Task #N: …", an assistant reply with text and a send_update
// call, its result, a reply with task_complete ("Finished task #N"), and
// its result. Its activity is newer than anything else in the directory,
// so it sorts to the top of the list.
//
// With -fillers N it first adds N empty conversations, "Filler conversation
// 1" (the oldest) to N, all older than the long one, for the test of the
// conversation list's pages; with -filler-notes each of them holds one
// message, "Filler note N: groceries, the bank and the post office", for
// the test of the search across conversations.
//
// With -default-mode MODE it saves MODE as the settings' default mode
// first (the mode of every new conversation, the first one included), so
// that an app started on the folder opens in it; -messages 0 then adds no
// conversation.
//
// Usage:
//
//	go run ./e2e/seed -dir DATA_DIR [-messages 10000] [-title "Ten thousand messages"] [-fillers 0] [-filler-notes] [-default-mode agent]
package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/errand-app/errand/backend/chat"
	"github.com/errand-app/errand/backend/store"
)

const perTask = 5

func main() {
	dir := flag.String("dir", "", "the Errand data `directory` (created if missing)")
	n := flag.Int("messages", 10000, "messages in the conversation (a multiple of 5; 0: no conversation)")
	title := flag.String("title", "Ten thousand messages", "the conversation's title")
	fillers := flag.Int("fillers", 0, "empty conversations to add before it")
	notes := flag.Bool("filler-notes", false, "give each filler conversation one message")
	mode := flag.String("default-mode", "", "save this `mode` (auto, agent or chat) as the default mode")
	flag.Parse()
	if err := run(context.Background(), *dir, *n, *title, *fillers, *notes, *mode); err != nil {
		fmt.Fprintln(os.Stderr, "seed:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, dir string, n int, title string, fillers int, notes bool, mode string) error {
	if dir == "" {
		return fmt.Errorf("-dir is required")
	}
	if n < 0 || n%perTask != 0 {
		return fmt.Errorf("-messages must be 0 or a positive multiple of %d", perTask)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	t0 := time.Now()
	st, err := store.Open(ctx, filepath.Join(dir, store.FileName))
	if err != nil {
		return err
	}
	defer st.Close()
	if mode != "" {
		if err := saveDefaultMode(ctx, st, mode); err != nil {
			return err
		}
	}

	// Timestamps run up to now, a second per message, so that the
	// conversation is the most recently active one.
	at := time.Now().UTC().Add(-time.Duration(n) * time.Second).Truncate(time.Millisecond)
	// The fillers go in with one transaction (the store's import).
	recs := make([]chat.ConversationRecord, 0, fillers)
	for i := 1; i <= fillers; i++ {
		when := at.Add(-time.Duration(fillers-i+1) * time.Minute)
		c := chat.Conversation{ID: id("conv"), Title: fmt.Sprintf("Filler conversation %d", i), TitleSet: true,
			Mode: chat.ModeAgent, CreatedAt: when, UpdatedAt: when}
		r := chat.ConversationRecord{Conversation: c}
		if notes {
			r.Messages = []chat.Message{{ID: id("msg"), ConversationID: c.ID, Role: chat.RoleUser, Seq: 1,
				Content: fmt.Sprintf("Filler note %d: groceries, the bank and the post office", i), CreatedAt: when}}
		}
		recs = append(recs, r)
	}
	if err := st.ImportConversations(ctx, recs, chat.Restore{}); err != nil {
		return fmt.Errorf("fillers: %w", err)
	}
	if n == 0 {
		return nil
	}
	next := func() time.Time {
		at = at.Add(time.Second)
		return at
	}
	// The whole conversation goes in with one import too: its messages
	// and ended tasks as the agent stores them, in one transaction
	// rather than three a task.
	conv := chat.Conversation{ID: id("conv"), Title: title, TitleSet: true, Mode: chat.ModeAgent, CreatedAt: at}
	rec := chat.ConversationRecord{Conversation: conv}
	for k := 1; k <= n/perTask; k++ {
		task, msgs := seedTask(conv.ID, k, next)
		rec.Tasks = append(rec.Tasks, task)
		rec.Messages = append(rec.Messages, msgs...)
	}
	rec.Conversation.UpdatedAt = at
	if err := st.ImportConversations(ctx, []chat.ConversationRecord{rec}, chat.Restore{}); err != nil {
		return fmt.Errorf("conversation: %w", err)
	}
	fmt.Printf("seeded %q: %d messages in %d tasks in %.1f s\n", title, n, n/perTask, time.Since(t0).Seconds())
	return nil
}

func saveDefaultMode(ctx context.Context, st *store.Store, mode string) error {
	m, err := chat.ParseMode(mode)
	if err != nil {
		return err
	}
	settings, err := st.Settings(ctx)
	if err != nil {
		return err
	}
	settings.DefaultMode = m
	return st.SaveSettings(ctx, settings)
}

// seedTask returns the k-th finished task and its five messages.
func seedTask(convID string, k int, next func() time.Time) (chat.Task, []chat.Message) {
	prompt := fmt.Sprintf("Task #%d: summarise report %d", k, k)
	task := chat.Task{
		ID: id("task"), ConversationID: convID, Mode: chat.ModeAgent, Status: chat.StatusCompleted,
		OriginalPrompt: prompt, StartedAt: next(), Model: "mock-model", StepCount: 2,
		Limits:  chat.Limits{MaxSteps: 50, MaxMinutes: 30, MaxCostUSD: 1},
		Summary: fmt.Sprintf("Finished task #%d", k),
		Rev:     2, // started, recorded, finished: every stored change of a task is the next revision
	}
	updateCall := chat.ToolCall{ID: id("call"), Name: "send_update", Arguments: args("message", fmt.Sprintf("Reading report %d", k))}
	doneCall := chat.ToolCall{ID: id("call"), Name: "task_complete", Arguments: args("summary", task.Summary)}
	text := fmt.Sprintf("Looking at report **%d**.", k)
	if k%4 == 0 {
		text += "\n\n- first point\n- second point\n- third point"
	}
	if k%7 == 0 {
		text += fmt.Sprintf("\n\n```python\nprint(%d)\n```", k)
	}
	msgs := []chat.Message{
		{ID: id("msg"), ConversationID: convID, TaskID: task.ID, Role: chat.RoleUser, Content: prompt, CreatedAt: task.StartedAt},
		{ID: id("msg"), ConversationID: convID, TaskID: task.ID, Role: chat.RoleAssistant, Content: text, ToolCalls: []chat.ToolCall{updateCall}, Step: 1, CreatedAt: next()},
		{ID: id("msg"), ConversationID: convID, TaskID: task.ID, Role: chat.RoleTool, Content: "ok", ToolCallID: updateCall.ID, ToolName: updateCall.Name, Step: 1, CreatedAt: next()},
		{ID: id("msg"), ConversationID: convID, TaskID: task.ID, Role: chat.RoleAssistant, Content: fmt.Sprintf("Report %d is summarised.", k), ToolCalls: []chat.ToolCall{doneCall}, Step: 2, CreatedAt: next()},
	}
	end := next()
	task.EndedAt = &end
	msgs = append(msgs, chat.Message{ID: id("msg"), ConversationID: convID, TaskID: task.ID, Role: chat.RoleTool, Content: "Task complete.", ToolCallID: doneCall.ID, ToolName: doneCall.Name, Step: 2, CreatedAt: end})
	return task, msgs
}

func args(name, value string) string {
	b, err := json.Marshal(map[string]string{name: value})
	if err != nil {
		panic(err) // a map of strings always marshals
	}
	return string(b)
}

func id(prefix string) string {
	b := make([]byte, 12)
	if _, err := rand.Read(b); err != nil {
		panic(err)
	}
	return prefix + "-" + hex.EncodeToString(b)
}

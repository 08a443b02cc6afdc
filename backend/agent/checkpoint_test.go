package agent

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/errand-app/errand/backend/chat"
	"github.com/errand-app/errand/backend/checkpoint"
	"github.com/errand-app/errand/backend/modelserver/compat"
	"github.com/errand-app/errand/backend/tools"
)

func editFile(path, old, next string) compat.Reply {
	return compat.Reply{ToolCalls: []chat.ToolCall{call("edit_file", `{"path":"`+path+`","old_text":"`+old+`","new_text":"`+next+`"}`)}}
}

func runCommand(command string) compat.Reply {
	return compat.Reply{ToolCalls: []chat.ToolCall{call("run_command", `{"command":"`+command+`"}`)}}
}

// checkpointed is a harness whose tools keep checkpoints, with writes and
// commands approved in advance.
func checkpointed(t *testing.T, opts checkpoint.Options, replies ...compat.Reply) (*harness, *checkpoint.Keeper) {
	h, k, _ := checkpointedIn(t, opts, script(t, replies...), harnessOpts{})
	return h, k
}

func checkpointedIn(t *testing.T, opts checkpoint.Options, model func(*compat.Request) compat.Reply, o harnessOpts) (*harness, *checkpoint.Keeper, string) {
	t.Helper()
	var k *checkpoint.Keeper
	o.checkpoints = func(taskID, ws string) tools.Checkpoints { return k.ForTask(taskID, ws) }
	h := newHarness(t, model, o)
	var err error
	dir := filepath.Join(t.TempDir(), "checkpoints")
	k, err = checkpoint.New(dir, h.store, opts)
	require.NoError(t, err)
	h.settings(func(s *chat.Settings) { s.AutoApprove["writes"], s.AutoApprove["destructive"] = true, true })
	return h, k, dir
}

func put(t *testing.T, dir, rel, content string) {
	t.Helper()
	p := filepath.Join(dir, rel)
	require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
	require.NoError(t, os.WriteFile(p, []byte(content), 0o644))
}

func contents(t *testing.T, dir string, rels ...string) []string {
	t.Helper()
	var out []string
	for _, rel := range rels {
		b, err := os.ReadFile(filepath.Join(dir, rel))
		if os.IsNotExist(err) {
			out = append(out, "<absent>")
			continue
		}
		require.NoError(t, err)
		out = append(out, string(b))
	}
	return out
}

func TestATasksWritesEditsAndCommandsAreUndoneAndRedone(t *testing.T) {
	t.Parallel()
	h, k := checkpointed(t, checkpoint.Defaults,
		writeFile("new.txt", "fresh"),
		editFile("edit.txt", "old", "new"),
		runCommand("rm gone.txt && echo built > out.txt && echo v2 > node_modules/dep.js"),
		complete("done"))
	conv := h.conversation()
	ws := h.workspace(conv)
	put(t, ws, "edit.txt", "old line")
	put(t, ws, "gone.txt", "keep me")
	put(t, ws, "node_modules/dep.js", "v1")
	task := h.start(conv, "Change the files")
	h.events.waitStatus(task.ID, chat.StatusCompleted)
	ctx := context.Background()

	files := []string{"new.txt", "edit.txt", "gone.txt", "out.txt", "node_modules/dep.js"}
	after := []string{"fresh", "new line", "<absent>", "built\n", "v2\n"}
	require.Equal(t, after, contents(t, ws, files...))
	changed, err := k.Changes(ctx, task.ID)
	require.NoError(t, err)
	assert.Equal(t, []chat.ChangedFile{
		{Path: "edit.txt", Change: "changed"}, {Path: "gone.txt", Change: "deleted"},
		{Path: "new.txt", Change: "created"}, {Path: "out.txt", Change: "created"},
	}, changed.Files, "the excluded node_modules is not kept")
	diff, err := k.Diff(ctx, task.ID, "edit.txt")
	require.NoError(t, err)
	assert.Contains(t, diff, "-old line")
	assert.Contains(t, diff, "+new line")

	before := []string{"<absent>", "old line", "keep me", "<absent>", "v2\n"}
	for round := range 2 { // the undo is undone, and done again
		out, err := k.Undo(ctx, task.ID, nil)
		require.NoError(t, err)
		assert.Len(t, out.Restored, 4)
		assert.Equal(t, before, contents(t, ws, files...), "round %d: undo restores the files as they were", round)
		_, err = k.Redo(ctx, task.ID, nil)
		require.NoError(t, err)
		assert.Equal(t, after, contents(t, ws, files...), "round %d: redo puts the task's changes back", round)
	}
}

func TestAFileEditedSinceTheTaskIsAConflictResolvedPerFile(t *testing.T) {
	t.Parallel()
	h, k := checkpointed(t, checkpoint.Defaults, writeFile("a.txt", "a1"), writeFile("b.txt", "b1"), complete("done"))
	conv := h.conversation()
	ws := h.workspace(conv)
	task := h.start(conv, "Write two files")
	h.events.waitStatus(task.ID, chat.StatusCompleted)
	put(t, ws, "b.txt", "b2 by the person")
	ctx := context.Background()

	out, err := k.Undo(ctx, task.ID, nil)
	require.NoError(t, err)
	assert.Equal(t, []string{"b.txt"}, out.Conflicts)
	assert.Equal(t, []string{"a1", "b2 by the person"}, contents(t, ws, "a.txt", "b.txt"), "a conflict changes nothing")

	out, err = k.Undo(ctx, task.ID, map[string]chat.FileChoice{"b.txt": chat.KeepCurrent})
	require.NoError(t, err)
	assert.Equal(t, []string{"a.txt"}, out.Restored)
	assert.Equal(t, []string{"<absent>", "b2 by the person"}, contents(t, ws, "a.txt", "b.txt"))
}

func TestAChangeThatCannotBeCheckpointedIsRefused(t *testing.T) {
	t.Parallel()
	h, _, dir := checkpointedIn(t, checkpoint.Defaults, script(t, writeFile("a.txt", "new"), runCommand("echo x > a.txt"), complete("done")), harnessOpts{})
	conv := h.conversation()
	ws := h.workspace(conv)
	put(t, ws, "a.txt", "old")
	// Where the contents are kept cannot be written any more.
	require.NoError(t, os.RemoveAll(dir))
	require.NoError(t, os.WriteFile(dir, []byte("in the way"), 0o644))
	task := h.start(conv, "Write")
	h.events.waitStatus(task.ID, chat.StatusCompleted)

	assert.Equal(t, []string{"old"}, contents(t, ws, "a.txt"), "neither the write nor the command changed the file")
	results := toolResults(h.messages(conv))
	require.Len(t, results, 3)
	assert.True(t, results[0].IsError)
	assert.Contains(t, results[0].Content, "a.txt was not changed: its current state could not be kept for Undo changes")
	assert.True(t, results[1].IsError)
	assert.Contains(t, results[1].Content, "the command was not run")
}

func TestUndoOfAPrunedCheckpointIsRefusedAndChangesNothing(t *testing.T) {
	t.Parallel()
	opts := checkpoint.Defaults
	opts.MaxBytes = 3000 // one task's before- and after-state, not two
	big := func(c string) string { return strings.Repeat(c, 1000) }
	h, k := checkpointed(t, opts, writeFile("a.txt", big("b")), complete("first"), writeFile("c.txt", big("d")), complete("second"))
	conv := h.conversation()
	ws := h.workspace(conv)
	put(t, ws, "a.txt", big("a"))
	first := h.start(conv, "First")
	h.events.waitStatus(first.ID, chat.StatusCompleted)
	put(t, ws, "c.txt", big("c"))
	second := h.start(conv, "Second")
	h.events.waitStatus(second.ID, chat.StatusCompleted)
	ctx := context.Background()

	assert.LessOrEqual(t, k.Size(), opts.MaxBytes, "storage stays within its bound")
	changed, err := k.Changes(ctx, first.ID)
	require.NoError(t, err)
	assert.True(t, changed.Pruned, "the oldest checkpoint went first")
	_, err = k.Undo(ctx, first.ID, nil)
	assert.Equal(t, chat.CodeConflict, chat.ErrorCode(err))
	assert.ErrorContains(t, err, "no longer kept")
	assert.Equal(t, []string{big("b"), big("d")}, contents(t, ws, "a.txt", "c.txt"))

	_, err = k.Undo(ctx, second.ID, nil)
	require.NoError(t, err)
	assert.Equal(t, []string{big("b"), big("c")}, contents(t, ws, "a.txt", "c.txt"))
}

func TestTheDemoModelWritesAFileThatIsUndone(t *testing.T) {
	t.Parallel()
	h, k, _ := checkpointedIn(t, checkpoint.Defaults, demoScript, harnessOpts{thinking: true})
	conv := h.conversation()
	ws := h.workspace(conv)
	put(t, ws, "hello.txt", "mine")
	task := h.start(conv, "write hello.txt: Hello from the demo")
	done := h.events.waitEnded(task.ID)
	require.Equal(t, chat.StatusCompleted, done.Status, done.ErrorMessage)
	assert.Equal(t, []string{"Hello from the demo\n"}, contents(t, ws, "hello.txt"))

	changed, err := k.Changes(context.Background(), task.ID)
	require.NoError(t, err)
	assert.Equal(t, []chat.ChangedFile{{Path: "hello.txt", Change: "changed"}}, changed.Files)
	_, err = k.Undo(context.Background(), task.ID, nil)
	require.NoError(t, err)
	assert.Equal(t, []string{"mine"}, contents(t, ws, "hello.txt"))
}

package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/errand-app/errand/backend/chat"
	"github.com/errand-app/errand/backend/llm/openai"
	"github.com/errand-app/errand/backend/modelserver/compat"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The task the long conversations work on; every request must still say it.
const longTask = "Audit every file in the workspace, zebra-marker-7."

// summaryMode says how the scripted model answers a summarisation request.
type summaryMode int

const (
	summaryGood summaryMode = iota
	summaryEmpty
	summaryFails
)

// longScript reads the workspace's files in turn for turns steps, each
// result big, then completes; summarisation requests get a summary (or
// not, by mode). It records what it saw for the test to check.
type longScript struct {
	t         *testing.T
	turns     int
	mode      summaryMode
	mu        sync.Mutex
	steps     int
	summaries atomic.Int32
	lostTask  []int // steps whose request no longer held the task
}

func (s *longScript) reply(req *compat.Request) compat.Reply {
	if req.AsksForSummary() {
		s.summaries.Add(1)
		switch s.mode {
		case summaryEmpty:
			return compat.Reply{Text: "  "}
		case summaryFails:
			return compat.Reply{Status: 500, ErrorMessage: "summariser down"}
		}
		return compat.Reply{Text: "Summary: the person asked to " + longTask + " Files were read one by one."}
	}
	s.mu.Lock()
	s.steps++
	step := s.steps
	held := false
	for _, m := range req.Messages {
		if strings.Contains(m.Text(), "zebra-marker-7") {
			held = true
		}
	}
	if !held {
		s.lostTask = append(s.lostTask, step)
	}
	s.mu.Unlock()
	if step > s.turns {
		return complete("all files audited")
	}
	args, _ := json.Marshal(map[string]string{"path": fmt.Sprintf("f%d.txt", step%7)})
	read := call("read_file", string(args))
	// The same id in every run: the tests count compactions.
	read.ID = compat.SeededCallID(uint64(step))
	return compat.Reply{Text: fmt.Sprintf("Reading file %d.", step), ToolCalls: []chat.ToolCall{read}}
}

// runLong runs a turns-step task on a 4,096-token model and returns the
// harness and the task once it has ended.
func runLong(t *testing.T, turns int, mode summaryMode) (*harness, *longScript, chat.Task) {
	s := &longScript{t: t, turns: turns, mode: mode}
	h := newHarness(t, s.reply, harnessOpts{contextLength: 4096})
	h.settings(func(st *chat.Settings) {
		st.ContextLengths = map[string]int{"test-model": 4096}
		st.Limits = chat.Limits{MaxSteps: 10000, MaxMinutes: 600, MaxCostUSD: 10000}
	})
	return h, s, runLongTask(t, h, bigFiles)
}

// bigFiles are the sizes of the files the long task reads, from a few
// hundred bytes to 40 KB: some results fit, some never do.
var bigFiles = []int{300, 2000, 6000, 12000, 40000, 1000, 20000}

// twoRounds of the seven big files is a long task enough for the tests
// that only need the history to outgrow the window again and again: it
// does within the first few steps (40 steps reached no other case).
const twoRounds = 2 * 7

// runLongTask runs the long task in a new conversation whose workspace
// holds seven files of the sizes given, and returns the task once it has
// ended.
func runLongTask(t *testing.T, h *harness, sizes []int) chat.Task {
	conv := h.conversation()
	writeBigFiles(t, h.workspace(conv), sizes)
	task := h.start(conv, longTask)
	return h.events.waitEnded(task.ID)
}

// writeBigFiles writes the seven files of the sizes given in ws.
func writeBigFiles(t *testing.T, ws string, sizes []int) {
	require.NoError(t, os.MkdirAll(ws, 0o755))
	for i := range 7 {
		size := sizes[i]
		line := fmt.Sprintf("file %d line: the quick brown fox jumps over the lazy dog\n", i)
		body := strings.Repeat(line, size/len(line)+1)
		require.NoError(t, os.WriteFile(filepath.Join(ws, fmt.Sprintf("f%d.txt", i)), []byte(body), 0o644))
	}
}

// longTurns is enough steps to reach every case of a long task: with
// results this big the history is summarised every step or two (about 50
// times), and the execution log passes its maxLogLines and starts counting
// the runs it leaves out. 300 steps reached the same cases at five times
// the cost.
const longTurns = 60

func TestALongTaskOnA4096TokenModelNeverOverflows(t *testing.T) {
	t.Parallel()
	h, s, done := runLong(t, longTurns, summaryGood)
	require.Equal(t, chat.StatusCompleted, done.Status, done.ErrorMessage)
	// The harness fails the test on any rejected request (too long, or a
	// tool call without its result); check there were many, all served.
	assert.Empty(t, h.server.Rejections())
	assert.Empty(t, s.lostTask, "every request still holds the task")
	assert.Positive(t, s.summaries.Load(), "the history was summarised")
	assert.LessOrEqual(t, done.ContextTokens, 4096-1024)
	assert.Equal(t, 4096, done.ContextLimit)

	msgs := h.messages(done.ConversationID)
	var notices int
	for _, m := range msgs {
		if m.SummaryID != "" {
			notices++
			assert.Equal(t, SummaryNotice, m.Content)
			assert.Equal(t, chat.RoleSystem, m.Role)
		}
	}
	assert.Positive(t, notices, "the transcript marks where compaction happened")
	var results int
	for _, m := range msgs {
		if m.Role == chat.RoleTool && m.ToolName == "read_file" {
			results++
		}
	}
	assert.Equal(t, longTurns, results, "the originals all stay stored")
	most, logged, capped := 0, 0, 0
	for _, req := range h.server.Requests() {
		most = max(most, compat.CountPrompt(&req))
		if sys := req.Messages[0].Text(); strings.Contains(sys, "### Tools run earlier") && strings.Contains(sys, "- read_file: succeeded") {
			logged++
			if strings.Contains(sys, "earlier tool runs not listed") {
				capped++
			}
		}
	}
	assert.Positive(t, logged, "after compaction the model sees which tools ran")
	assert.Positive(t, capped, "the log outgrew its cap and counts the runs it leaves out")
	assert.Greater(t, int(s.summaries.Load()), longTurns/2, "the history was summarised again and again")
	assert.LessOrEqual(t, most, 4096)
	t.Logf("%d requests, %d summaries, %d notices, the longest %d tokens", len(h.server.Requests()), s.summaries.Load(), notices, most)
}

func TestASummaryThatFailsOrIsEmptyDoesNotLoseTheTask(t *testing.T) {
	t.Parallel()
	for name, mode := range map[string]summaryMode{"empty": summaryEmpty, "fails": summaryFails} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			h, s, done := runLong(t, twoRounds, mode)
			require.Equal(t, chat.StatusCompleted, done.Status, done.ErrorMessage)
			assert.Empty(t, s.lostTask, "every request still holds the task")
			assert.Greater(t, s.summaries.Load(), int32(1), "summarising was tried again after it failed")
			for _, m := range h.messages(done.ConversationID) {
				assert.Empty(t, m.SummaryID, "no summary was stored")
			}
		})
	}
}

// waitEnded waits for the task to end, however long it works (a long
// task under -race on a busy machine), failing only when nothing is
// published for waitSilence.
func (r *recorder) waitEnded(taskID string) chat.Task {
	r.t.Helper()
	silence := time.NewTimer(waitSilence)
	defer silence.Stop()
	for {
		r.mu.Lock()
		last := r.last[taskID]
		ch := r.changed
		r.mu.Unlock()
		if last.Status.Terminal() {
			return last
		}
		select {
		case <-ch:
			silence.Reset(waitSilence)
		case <-silence.C:
			r.t.Fatalf("timed out waiting for task %s to end (it is %s after %d steps)", taskID, last.Status, last.StepCount)
		}
	}
}

func TestAServerThatFindsTheRequestTooLongGetsOneHarderRetryThenAClearError(t *testing.T) {
	t.Parallel()
	full := compat.Reply{Status: 400, ErrorCode: "context_length_exceeded", ErrorType: "invalid_request_error",
		ErrorMessage: "This model's maximum context length is 4096 tokens. However, your messages resulted in 5000 tokens."}
	var mu sync.Mutex
	var sizes []int
	always := false
	h := newHarness(t, func(req *compat.Request) compat.Reply {
		if req.AsksForSummary() {
			return compat.Reply{Text: "Summary: the person wants a greeting."}
		}
		mu.Lock()
		defer mu.Unlock()
		sizes = append(sizes, compat.CountPrompt(req))
		if always || len(sizes) == 1 {
			return full
		}
		return complete("done")
	}, harnessOpts{})
	conv := h.conversation()
	task := h.start(conv, "Say hello")
	done := h.events.waitEnded(task.ID)
	require.Equal(t, chat.StatusCompleted, done.Status, done.ErrorMessage)
	mu.Lock()
	require.Len(t, sizes, 2, "one retry")
	assert.LessOrEqual(t, sizes[1], sizes[0])
	always = true
	mu.Unlock()

	task = h.start(conv, "Say hello again")
	done = h.events.waitEnded(task.ID)
	require.Equal(t, chat.StatusError, done.Status)
	assert.Contains(t, done.ErrorMessage, "too long for the model's context window")
	assert.Contains(t, done.ErrorMessage, "Settings")
	assert.Contains(t, done.ErrorMessage, "new conversation")
	mu.Lock()
	assert.Len(t, sizes, 4, "one retry, then the error")
	mu.Unlock()
}

func TestCompactNowSummarisesOlderTurnsOnlyWhenNoTaskRuns(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	var mu sync.Mutex
	hold := false
	h := newHarness(t, func(req *compat.Request) compat.Reply {
		if req.AsksForSummary() {
			return compat.Reply{Text: "Summary: three greetings were asked for."}
		}
		mu.Lock()
		wait := hold
		mu.Unlock()
		if wait {
			<-release
		}
		return complete("hello")
	}, harnessOpts{})
	ctx := t.Context()
	conv := h.conversation()

	_, err := h.runner.CompactNow(ctx, conv)
	assert.Equal(t, chat.CodeConflict, chat.ErrorCode(err), "nothing to summarise yet")
	_, err = h.runner.CompactNow(ctx, "no-such-conversation")
	assert.Equal(t, chat.CodeNotFound, chat.ErrorCode(err))

	for _, text := range []string{"Say hello", "Say hello again", "Once more"} {
		task := h.start(conv, text)
		require.Equal(t, chat.StatusCompleted, h.events.waitEnded(task.ID).Status)
	}
	mu.Lock()
	hold = true
	mu.Unlock()
	task := h.start(conv, "And again")
	_, err = h.runner.CompactNow(ctx, conv)
	assert.Equal(t, chat.CodeConflict, chat.ErrorCode(err), "a task is running")
	assert.Contains(t, err.Error(), "task")
	close(release)
	require.Equal(t, chat.StatusCompleted, h.events.waitEnded(task.ID).Status)

	before := len(h.messages(conv))
	notice, err := h.runner.CompactNow(ctx, conv)
	require.NoError(t, err)
	assert.Equal(t, SummaryNotice, notice.Content)
	require.NotEmpty(t, notice.SummaryID)
	sum, err := h.runner.GetSummary(ctx, notice.SummaryID)
	require.NoError(t, err)
	assert.Equal(t, "Summary: three greetings were asked for.", sum.Text)
	assert.Len(t, h.messages(conv), before+1, "the originals stay; the notice is added")

	// The next task's request holds the summary and the recent turns only.
	mu.Lock()
	hold = false
	mu.Unlock()
	task = h.start(conv, "Last one")
	require.Equal(t, chat.StatusCompleted, h.events.waitEnded(task.ID).Status)
	reqs := h.server.Requests()
	last := reqs[len(reqs)-1]
	assert.Contains(t, last.Messages[0].Text(), "three greetings were asked for")
	for _, m := range last.Messages[1:] {
		assert.NotEqual(t, "Say hello", m.Text(), "the summarised turn is not sent again")
	}
}

// countingStore counts the reads of a conversation's history.
type countingStore struct {
	chat.Store
	reads atomic.Int32
}

func (s *countingStore) Messages(ctx context.Context, id string) ([]chat.Message, error) {
	s.reads.Add(1)
	return s.Store.Messages(ctx, id)
}

func (s *countingStore) MessagesSince(ctx context.Context, id string, after int64) ([]chat.Message, error) {
	s.reads.Add(1)
	return s.Store.MessagesSince(ctx, id, after)
}

func TestARunReadsTheStoredHistoryOnceWhateverItsSteps(t *testing.T) {
	t.Parallel()
	var steps atomic.Int32
	h := newHarness(t, func(req *compat.Request) compat.Reply {
		if steps.Add(1) >= 12 {
			return complete("done")
		}
		args, _ := json.Marshal(map[string]string{"message": fmt.Sprintf("step %d", steps.Load())})
		return compat.Reply{ToolCalls: []chat.ToolCall{call(ToolSendUpdate, string(args))}}
	}, harnessOpts{})
	counting := &countingStore{Store: h.store}
	old := h.newRunner
	h.newRunner = func() *Runner {
		r := old()
		r.opts.Store = counting
		return r
	}
	h.runner = h.newRunner()
	conv := h.conversation()
	task := h.start(conv, "Report twelve times")
	done := h.events.waitEnded(task.ID)
	require.Equal(t, chat.StatusCompleted, done.Status, done.ErrorMessage)
	assert.Equal(t, 12, done.StepCount)
	assert.Equal(t, int32(1), counting.reads.Load(), "one read of the history for twelve steps")
	// The requests grew with the run: what it stored reached the model.
	reqs := h.server.Requests()
	assert.Greater(t, len(reqs[len(reqs)-1].Messages), len(reqs[0].Messages)+20)
}

func TestTheBudgetUsesTheLengthTheServerReportsUnlessTheSettingSaysOtherwise(t *testing.T) {
	t.Parallel()
	h := newHarness(t, func(*compat.Request) compat.Reply { return complete("done") }, harnessOpts{})
	old := h.newRunner
	h.newRunner = func() *Runner {
		r := old()
		r.opts.Provider = openai.New(openai.Config{BaseURL: h.url, APIKey: "test-key", Model: "test-model", MaxRetries: -1, ContextLength: 4096})
		return r
	}
	h.runner = h.newRunner()
	conv := h.conversation()
	done := h.events.waitEnded(h.start(conv, "Go").ID)
	assert.Equal(t, 4096, done.ContextLimit, "the server's word")

	h.settings(func(s *chat.Settings) { s.ContextLengths = map[string]int{"test-model": 3000} })
	done = h.events.waitEnded(h.start(conv, "Again").ID)
	assert.Equal(t, 3000, done.ContextLimit, "the person's setting wins")
	assert.Positive(t, done.ContextTokens)
	assert.Less(t, done.ContextTokens, 3000)
}

func TestCompactNowWorksOnTheOfflineDemoModel(t *testing.T) {
	t.Parallel()
	h := newHarness(t, demoScript, harnessOpts{thinking: true})
	conv := h.conversation()
	for _, text := range []string{"What can you do?", "And offline?", "Thanks"} {
		task, err := h.runner.StartTask(t.Context(), conv, text, chat.ModeChat)
		require.NoError(t, err)
		require.Equal(t, chat.StatusCompleted, h.events.waitEnded(task.ID).Status)
	}
	notice, err := h.runner.CompactNow(t.Context(), conv)
	require.NoError(t, err)
	sum, err := h.runner.GetSummary(t.Context(), notice.SummaryID)
	require.NoError(t, err)
	assert.Contains(t, sum.Text, "Summary (demo model)")
	assert.Contains(t, sum.Text, "What can you do?")
}

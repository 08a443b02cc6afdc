package agent

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/errand-app/errand/backend/chat"
	"github.com/errand-app/errand/backend/llm/openai"
	"github.com/errand-app/errand/backend/llm/stall"
	"github.com/errand-app/errand/backend/modelserver/compat"
	"github.com/errand-app/errand/backend/store"
	"github.com/errand-app/errand/backend/tools"
	"github.com/google/uuid"
	"github.com/stretchr/testify/require"
)

// harness is a Runner on a real SQLite file and a scripted model server
// that validates every request as strictly as the real API.
type harness struct {
	newRunner  func() *Runner
	t          *testing.T
	workspaces string // one folder per conversation inside
	store      *store.Store
	server     *compat.Server
	url        string // the server's base URL
	runner     *Runner
	events     *recorder
	dbPath     string // the database file
}

type harnessOpts struct {
	flush  time.Duration
	apiKey string // the server's key; the client sends "test-key"
	// allowRejections is for tests of the model server refusing requests.
	allowRejections bool
	// contextLength, when set, makes the server reject any request longer
	// than it, as a real server with that context length does.
	contextLength int
	// toolSource offers more tools (MCP servers').
	toolSource tools.Source
	// checkpoints keeps what the tools change, for undo.
	checkpoints func(taskID, workspace string) tools.Checkpoints
	// timeouts, when set, cut model calls whose server falls silent; they
	// are read at the start of every call.
	timeouts *atomic.Pointer[stall.Timeouts]
	// transport, with timeouts, is what the cutting transport sends
	// through (nil: http.DefaultTransport).
	transport http.RoundTripper
	// hostPids runs commands outside the sandbox, so that the pids they
	// write are this machine's.
	hostPids bool
	// thinking makes the server a thinking model that wants its
	// reasoning back (see compat.Server.Thinking).
	thinking bool
	// model is the model's name ("test-model" when empty).
	model string
	// files gives the model its view of attachments.
	files Files
	// events, when set, wraps the recorder the runner reports to.
	events func(Events) Events
}

// builtinTools are Errand's tools, run_command outside the sandbox when
// hostPids.
func builtinTools(hostPids bool) []tools.Tool {
	list := tools.Builtin()
	for i, t := range list {
		if _, ok := t.(tools.RunCommand); ok && hostPids {
			list[i] = tools.RunCommand{NoSandbox: true}
		}
	}
	return list
}

func newHarness(t *testing.T, script func(*compat.Request) compat.Reply, o harnessOpts) *harness {
	t.Helper()
	ctx := context.Background()
	dbPath := newDB(t)
	st, err := store.Open(ctx, dbPath)
	require.NoError(t, err)
	srv := compat.NewServer(script)
	srv.APIKey = o.apiKey
	srv.ContextLength = o.contextLength
	srv.Thinking = o.thinking
	url, stop := srv.Start()
	h := &harness{t: t, store: st, server: srv, url: url, dbPath: dbPath}
	h.events = newRecorder(t, st)
	h.workspaces = t.TempDir()
	var client *http.Client
	if o.timeouts != nil {
		client = (&stall.Transport{Base: o.transport, Timeouts: func(context.Context) stall.Timeouts { return *o.timeouts.Load() }}).Client()
	}
	model := o.model
	if model == "" {
		model = "test-model"
	}
	h.newRunner = func() *Runner {
		var events Events = h.events
		if o.events != nil {
			events = o.events(h.events)
		}
		return New(Options{
			Store:         st,
			Provider:      openai.New(openai.Config{BaseURL: url, APIKey: "test-key", Model: model, MaxRetries: -1, HTTPClient: client}),
			Events:        events,
			FlushInterval: o.flush,
			Tools:         builtinTools(o.hostPids),
			Workspace: func(_ context.Context, convID string) (*tools.Workspace, error) {
				return tools.OpenWorkspace(filepath.Join(h.workspaces, convID))
			},
			Facts:       st,
			ToolSource:  o.toolSource,
			Checkpoints: o.checkpoints,
			Attachments: o.files,
		})
	}
	h.runner = h.newRunner()
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), waitSilence)
		defer cancel()
		require.NoError(t, h.runner.Shutdown(ctx))
		stop()
		st.Close()
		if !o.allowRejections {
			require.Empty(t, srv.Rejections(), "the model server rejected a request the real API would reject")
		}
		h.events.checkPersisted()
	})
	return h
}

// schemaDB is a database at the current schema, made once per test
// binary: migrating a new file (SQLite parsing every migration under -race)
// cost about half a second of CPU per harness, most of a short test's.
var schemaDB struct {
	once sync.Once
	path string
	err  error
}

// newDB returns the path of a new database in t.TempDir(), a copy of
// schemaDB: store.Open finds its schema current and migrates nothing.
func newDB(t *testing.T) string {
	t.Helper()
	schemaDB.once.Do(func() {
		dir, err := os.MkdirTemp("", "agent-schema")
		if err != nil {
			schemaDB.err = err
			return
		}
		schemaDB.path = filepath.Join(dir, store.FileName)
		st, err := store.Open(context.Background(), schemaDB.path)
		if err == nil {
			_, err = st.DB().Exec("PRAGMA wal_checkpoint(TRUNCATE)")
			st.Close()
		}
		schemaDB.err = err
	})
	require.NoError(t, schemaDB.err)
	b, err := os.ReadFile(schemaDB.path)
	require.NoError(t, err)
	path := filepath.Join(t.TempDir(), store.FileName)
	require.NoError(t, os.WriteFile(path, b, 0o600))
	return path
}

// removeSchemaDB removes schemaDB's folder once the tests have run.
func removeSchemaDB() {
	if schemaDB.path != "" {
		os.RemoveAll(filepath.Dir(schemaDB.path))
	}
}

func (h *harness) conversation() string {
	h.t.Helper()
	now := time.Now().UTC()
	c := chat.Conversation{ID: uuid.NewString(), Mode: chat.ModeAgent, CreatedAt: now, UpdatedAt: now}
	require.NoError(h.t, h.store.CreateConversation(context.Background(), c))
	return c.ID
}

// restart shuts the runner down as quitting Errand does, and starts a new
// one on the same database, as the next launch does.
func (h *harness) restart() (interrupted, waiting int) {
	h.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), waitSilence)
	defer cancel()
	require.NoError(h.t, h.runner.Shutdown(ctx))
	h.runner = h.newRunner()
	interrupted, waiting, err := h.runner.Recover(ctx)
	require.NoError(h.t, err)
	return interrupted, waiting
}

// settings changes the stored settings and tells the runner.
func (h *harness) settings(change func(*chat.Settings)) {
	h.t.Helper()
	ctx := context.Background()
	s, err := h.store.Settings(ctx)
	require.NoError(h.t, err)
	change(&s)
	require.NoError(h.t, h.store.SaveSettings(ctx, s))
	h.runner.SettingsChanged(ctx)
}

// workspace is the conversation's workspace folder.
func (h *harness) workspace(convID string) string {
	return filepath.Join(h.workspaces, convID)
}

func (h *harness) start(convID, text string) chat.Task {
	h.t.Helper()
	task, err := h.runner.StartTask(context.Background(), convID, text, chat.ModeAgent)
	require.NoError(h.t, err)
	return task
}

func (h *harness) messages(convID string) []chat.Message {
	h.t.Helper()
	msgs, err := h.store.Messages(context.Background(), convID)
	require.NoError(h.t, err)
	return msgs
}

func (h *harness) task(id string) chat.Task {
	h.t.Helper()
	task, err := h.store.GetTask(context.Background(), id)
	require.NoError(h.t, err)
	return task
}

// recorder is an Events that checks, as each event arrives, that what it
// shows is already stored (persist, then publish), and lets tests wait for
// a task to reach a status.
type recorder struct {
	t     *testing.T
	store *store.Store

	mu       sync.Mutex
	changed  chan struct{}
	tasks    map[string][]chat.TaskStatus
	last     map[string]chat.Task
	messages []chat.Message
	deltas   []Delta
	ended    []chat.StreamEnd
	outputs  []ToolOutput
	problems []string
	// facts lists the conversations of FactsChanged events, in order.
	facts []string
}

func newRecorder(t *testing.T, st *store.Store) *recorder {
	return &recorder{t: t, store: st, changed: make(chan struct{}),
		tasks: map[string][]chat.TaskStatus{}, last: map[string]chat.Task{}}
}

func (r *recorder) problem(format string, args ...any) {
	r.mu.Lock()
	r.problems = append(r.problems, fmt.Sprintf(format, args...))
	r.mu.Unlock()
}

func (r *recorder) notify() {
	close(r.changed)
	r.changed = make(chan struct{})
}

func (r *recorder) TaskUpdated(t chat.Task) {
	stored, err := r.store.GetTask(context.Background(), t.ID)
	if err != nil || stored.Status != t.Status || stored.StepCount != t.StepCount {
		r.problem("task %s published as %s/%d but stored as %s/%d (%v)", t.ID, t.Status, t.StepCount, stored.Status, stored.StepCount, err)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.tasks[t.ID] = append(r.tasks[t.ID], t.Status)
	r.last[t.ID] = t
	r.notify()
}

func (r *recorder) MessageStored(m chat.Message) {
	// The one row is read, not the conversation: reading it all on every
	// event made long tests quadratic.
	s, err := r.store.GetMessage(context.Background(), m.ConversationID, m.ID)
	switch {
	case err != nil:
		r.problem("message %s published before it was stored (%v)", m.ID, err)
	case s.Rev < m.Rev || (s.Rev == m.Rev && s.Content != m.Content):
		r.problem("message %s published at rev %d but stored at rev %d", m.ID, m.Rev, s.Rev)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.messages = append(r.messages, m)
	r.notify()
}

// StreamEnded checks that an ended stream is published without its text,
// with the lengths of the text stored.
func (r *recorder) StreamEnded(e chat.StreamEnd) {
	m := e.Message
	s, err := r.store.GetMessage(context.Background(), m.ConversationID, m.ID)
	switch {
	case err != nil:
		r.problem("stream %s published as ended before it was stored (%v)", m.ID, err)
	case m.Content != "" || m.Reasoning != "":
		r.problem("stream %s published as ended with its text", m.ID)
	case s.Rev < m.Rev || s.Streaming:
		r.problem("stream %s published as ended at rev %d but stored at rev %d, streaming %v", m.ID, m.Rev, s.Rev, s.Streaming)
	case s.Rev == m.Rev && (len(s.Content) != e.ContentBytes || len(s.Reasoning) != e.ReasoningBytes):
		r.problem("stream %s published as ended with %d+%d bytes but stored with %d+%d", m.ID,
			e.ContentBytes, e.ReasoningBytes, len(s.Content), len(s.Reasoning))
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.ended = append(r.ended, e)
	r.notify()
}

func (r *recorder) ToolOutput(o ToolOutput) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.outputs = append(r.outputs, o)
	r.notify()
}

func (r *recorder) MessageDelta(d Delta) {
	s, err := r.store.GetMessage(context.Background(), d.ConversationID, d.MessageID)
	text := s.Content
	if d.Reasoning {
		text = s.Reasoning
	}
	if err != nil || len(text) < d.Offset+len(d.Text) || text[d.Offset:d.Offset+len(d.Text)] != d.Text {
		r.problem("delta for %s at %d published before it was stored", d.MessageID, d.Offset)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.deltas = append(r.deltas, d)
	r.notify()
}

// ConversationUpdated only wakes the waits: the tests read the store.
func (r *recorder) ConversationUpdated(chat.Conversation) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.notify()
}

// FactsChanged checks nothing: the memory tests look at the store.
func (r *recorder) FactsChanged(conversationID string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.facts = append(r.facts, conversationID)
	r.notify()
}

// waitSilence is how long wait lets the runner publish nothing before it
// fails the test: a bound only a stuck runner reaches, however busy the
// machine (a slow one still publishes as it goes).
const waitSilence = time.Minute

// wait blocks until cond holds (checked under the lock) or fails the test
// when nothing is published for waitSilence.
func (r *recorder) wait(what string, cond func() bool) {
	r.t.Helper()
	silence := time.NewTimer(waitSilence)
	defer silence.Stop()
	for {
		r.mu.Lock()
		ok := cond()
		ch := r.changed
		r.mu.Unlock()
		if ok {
			return
		}
		select {
		case <-ch:
			silence.Reset(waitSilence)
		case <-silence.C:
			r.t.Fatalf("timed out waiting for %s", what)
		}
	}
}

// loopsReturned waits for every run's goroutine to return. It waits on
// the runs themselves: a loop may return after the last event it
// published, so no event would wake a wait on the recorder.
func (h *harness) loopsReturned() {
	h.t.Helper()
	h.runner.mu.Lock()
	var exited []chan struct{}
	for rn := range h.runner.alive {
		exited = append(exited, rn.exited)
	}
	h.runner.mu.Unlock()
	bound := time.After(waitSilence)
	for _, ch := range exited {
		select {
		case <-ch:
		case <-bound:
			h.t.Fatal("timed out waiting for the task's loop to return")
		}
	}
}

func (r *recorder) waitStatus(taskID string, status chat.TaskStatus) chat.Task {
	r.t.Helper()
	r.wait(fmt.Sprintf("task %s to be %s", taskID, status), func() bool {
		return r.last[taskID].Status == status
	})
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.last[taskID]
}

func (r *recorder) statuses(taskID string) []chat.TaskStatus {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]chat.TaskStatus(nil), r.tasks[taskID]...)
}

func (r *recorder) checkPersisted() {
	r.t.Helper()
	r.mu.Lock()
	defer r.mu.Unlock()
	require.Empty(r.t, r.problems, "events published what was not stored")
}

// script replays replies in order, one per request, and fails the test if
// the runner asks for more.
func script(t *testing.T, replies ...compat.Reply) func(*compat.Request) compat.Reply {
	var mu sync.Mutex
	i := 0
	return func(*compat.Request) compat.Reply {
		mu.Lock()
		defer mu.Unlock()
		if i >= len(replies) {
			t.Errorf("the runner made request %d; the script has %d", i+1, len(replies))
			return compat.Reply{Status: 500, ErrorMessage: "script exhausted"}
		}
		i++
		return replies[i-1]
	}
}

func call(name, args string) chat.ToolCall {
	return chat.ToolCall{Name: name, Arguments: args}
}

// lastMessages returns the role and text of the request's last n messages.
func lastMessages(req compat.Request, n int) []string {
	var out []string
	msgs := req.Messages
	if len(msgs) > n {
		msgs = msgs[len(msgs)-n:]
	}
	for _, m := range msgs {
		out = append(out, m.Role+": "+m.Text())
	}
	return out
}

func contains(list []string, sub string) bool {
	for _, s := range list {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}

// roomFor gives the test model a context window in which a test's large
// requests (hundreds of choices, an over-long fact) are sent whole, not
// compacted first: those tests are not about compaction.
func roomFor(h *harness) {
	h.settings(func(s *chat.Settings) { s.ContextLengths = map[string]int{"test-model": 32768} })
}

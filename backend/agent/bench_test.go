package agent_test

// Benchmarks of the runner against a real SQLite file and the scripted
// OpenAI-compatible server (compat), over loopback HTTP, as the app runs it:
//
//	BenchmarkStop          Stop mid-stream → cancelled event, → server sees the close
//	BenchmarkRunnerStep    per-step cost, 1 task and 100 concurrent tasks, lost/duplicated messages
//	BenchmarkStreaming     a model streaming ~1,000 tokens/s → events/s and bytes/event
//	BenchmarkReasoningStream  a thinking model's reasoning at ~1,000 tokens/s → events/s
//
// They are measurements, not timed tests: nothing fails on a time, only on
// broken behaviour (a lost message, a wrong final text). Each benchmark body
// runs its whole sample loop once, so run them with -benchtime=1x. Sizes are
// full by default; ERRAND_BENCH_SMOKE=1 makes them tiny (for CI). With
// ERRAND_BENCH_OUT=file each figure is also appended to file as a JSON line
// for e2e/bench/table.mjs. See docs/BENCHMARKS.md.

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"text/template"
	"time"

	"github.com/errand-app/errand/backend/agent"
	"github.com/errand-app/errand/backend/chat"
	"github.com/errand-app/errand/backend/llm"
	"github.com/errand-app/errand/backend/llm/openai"
	"github.com/errand-app/errand/backend/modelserver/compat"
	"github.com/errand-app/errand/backend/store"
	"github.com/google/uuid"
)

// ---- sizes and reporting ----

func smoke() bool { return os.Getenv("ERRAND_BENCH_SMOKE") != "" }

// size is full normally and small under ERRAND_BENCH_SMOKE.
func size(full, small int) int {
	if smoke() {
		return small
	}
	return full
}

// report records one figure: as a benchmark metric and, with
// ERRAND_BENCH_OUT set, as a JSON line {"name","value","unit"}.
func report(b *testing.B, name string, value float64, unit string) {
	b.Helper()
	b.ReportMetric(value, strings.ReplaceAll(name, " ", "_")+"/"+unit)
	path := os.Getenv("ERRAND_BENCH_OUT")
	if path == "" {
		return
	}
	line, _ := json.Marshal(map[string]any{"name": name, "value": value, "unit": unit, "smoke": smoke()})
	f, err := os.OpenFile(path, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		b.Fatalf("bench output: %v", err)
	}
	defer f.Close()
	if _, err := f.Write(append(line, '\n')); err != nil {
		b.Fatalf("bench output: %v", err)
	}
}

// benchWait bounds every wait for something that must happen (an event, a
// disconnect, a shutdown): only a broken runner reaches it, however busy
// the machine, so no figure's outcome depends on timing.
const benchWait = 5 * time.Minute

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// percentile is the nearest-rank percentile (0 < p ≤ 100) of samples.
func percentile(samples []time.Duration, p float64) time.Duration {
	if len(samples) == 0 {
		return 0
	}
	s := append([]time.Duration(nil), samples...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	rank := int(math.Ceil(p / 100 * float64(len(s))))
	if rank < 1 {
		rank = 1
	}
	return s[rank-1]
}

// ---- the environment: a Runner on SQLite and a scripted model server ----

type benchEnv struct {
	store  *store.Store
	server *compat.Server
	runner *agent.Runner
	events *benchEvents
	url    string
	// Where the runner's time goes: in store calls and in the model stream.
	storeTime, modelTime *timer
}

// timer adds up the time spent in calls, from any goroutine.
type timer struct {
	mu    sync.Mutex
	total time.Duration
	calls int
}

func (t *timer) since(t0 time.Time) {
	d := time.Since(t0)
	t.mu.Lock()
	t.total += d
	t.calls++
	t.mu.Unlock()
}

func (t *timer) get() (time.Duration, int) {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.total, t.calls
}

// timedStore is the store with every call the runner makes timed.
type timedStore struct {
	chat.Store
	t *timer
}

func (s timedStore) Messages(ctx context.Context, id string) ([]chat.Message, error) {
	defer s.t.since(time.Now())
	return s.Store.Messages(ctx, id)
}

func (s timedStore) TaskCalls(ctx context.Context, id string) ([]chat.Message, error) {
	defer s.t.since(time.Now())
	return s.Store.TaskCalls(ctx, id)
}

func (s timedStore) StartTask(ctx context.Context, t chat.Task, m chat.Message) (chat.Message, error) {
	defer s.t.since(time.Now())
	return s.Store.StartTask(ctx, t, m)
}

func (s timedStore) GetConversation(ctx context.Context, id string) (chat.Conversation, error) {
	defer s.t.since(time.Now())
	return s.Store.GetConversation(ctx, id)
}

func (s timedStore) UpdateTask(ctx context.Context, t chat.Task) error {
	defer s.t.since(time.Now())
	return s.Store.UpdateTask(ctx, t)
}

func (s timedStore) AddMessage(ctx context.Context, m chat.Message) (chat.Message, error) {
	defer s.t.since(time.Now())
	return s.Store.AddMessage(ctx, m)
}

func (s timedStore) AppendContent(ctx context.Context, id, text string) (chat.Appended, error) {
	defer s.t.since(time.Now())
	return s.Store.AppendContent(ctx, id, text)
}

func (s timedStore) UpdateMessage(ctx context.Context, m chat.Message) (chat.Message, error) {
	defer s.t.since(time.Now())
	return s.Store.UpdateMessage(ctx, m)
}

func (s timedStore) FinishTask(ctx context.Context, t chat.Task, m []chat.Message) (chat.Finished, error) {
	defer s.t.since(time.Now())
	return s.Store.FinishTask(ctx, t, m)
}

// timedProvider times the model stream as the runner sees it (the HTTP
// round trip, SSE decoding, and the runner's own onText work inside it).
type timedProvider struct {
	llm.Provider
	t *timer
}

func (p timedProvider) Stream(ctx context.Context, req llm.Request, out llm.Deltas) (llm.Response, error) {
	defer p.t.since(time.Now())
	return p.Provider.Stream(ctx, req, out)
}

func newBenchEnv(b *testing.B, script func(*compat.Request) compat.Reply) *benchEnv {
	return newPacedBenchEnv(b, script, 0)
}

// newPacedBenchEnv's model server sends perSecond events a second (see
// compat.Paced), or as fast as it can when perSecond is 0.
func newPacedBenchEnv(b *testing.B, script func(*compat.Request) compat.Reply, perSecond float64) *benchEnv {
	b.Helper()
	ctx := context.Background()
	st, err := store.Open(ctx, filepath.Join(b.TempDir(), store.FileName))
	if err != nil {
		b.Fatal(err)
	}
	srv := compat.NewServer(script)
	srv.APIKey = "bench-key"
	var handler http.Handler = srv
	if perSecond > 0 {
		handler = compat.Paced(srv, perSecond)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	hs := &http.Server{Handler: handler}
	go func() { _ = hs.Serve(ln) }()
	url := "http://" + ln.Addr().String() + "/v1"
	stop := func() { srv.Close(); _ = hs.Close() }
	ev := newBenchEvents()
	e := &benchEnv{store: st, server: srv, events: ev, url: url, storeTime: &timer{}, modelTime: &timer{}}
	e.runner = agent.New(agent.Options{
		Store: timedStore{st, e.storeTime},
		Provider: timedProvider{openai.New(openai.Config{BaseURL: url, APIKey: "bench-key", Model: "bench-model", MaxRetries: -1}),
			e.modelTime},
		Events: ev,
	})
	tearDown(b, e.runner, srv, true, stop, func() { st.Close() })
	return e
}

// tearDown, when the benchmark ends, shuts the runner down (a shutdown
// that does not finish in time fails it when strict), runs closers in
// order, and fails it on any request the strict model server rejected.
func tearDown(b *testing.B, runner *agent.Runner, srv *compat.Server, strict bool, closers ...func()) {
	b.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), benchWait)
		defer cancel()
		if err := runner.Shutdown(ctx); err != nil && strict {
			b.Error(err)
		}
		for _, c := range closers {
			c()
		}
		if r := srv.Rejections(); len(r) > 0 {
			b.Errorf("the model server rejected %d requests, first: %s", len(r), r[0])
		}
	})
}

func (e *benchEnv) conversation(b *testing.B) string {
	b.Helper()
	now := time.Now().UTC()
	c := chat.Conversation{ID: uuid.NewString(), Mode: chat.ModeAgent, CreatedAt: now, UpdatedAt: now}
	if err := e.store.CreateConversation(context.Background(), c); err != nil {
		b.Fatal(err)
	}
	return c.ID
}

func (e *benchEnv) start(b *testing.B, conv, text string) chat.Task {
	b.Helper()
	t, err := e.runner.StartTask(context.Background(), conv, text, chat.ModeAgent)
	if err != nil {
		b.Fatal(err)
	}
	return t
}

// benchEvents is a cheap agent.Events: it timestamps what the benchmarks
// need and counts what the app's bridge would send to the window, in the
// bytes the Linux window receives (see wailsBytes).
type benchEvents struct {
	mu        sync.Mutex
	ended     map[string]chan endEvent // task id → its final TaskUpdated
	firstText map[string]chan struct{} // task id → closed at its first delta
	stored    map[string]map[int]int   // message id → rev → times published
	deltas    map[string][]deltaEvent  // task id → its deltas
	others    map[string]int           // task id → non-delta events published
	otherSize map[string]int           // task id → their bytes
}

type endEvent struct {
	at     time.Time
	status chat.TaskStatus
}

type deltaEvent struct {
	at    time.Time
	bytes int
}

func newBenchEvents() *benchEvents {
	return &benchEvents{
		ended: map[string]chan endEvent{}, firstText: map[string]chan struct{}{},
		stored: map[string]map[int]int{}, deltas: map[string][]deltaEvent{},
		others: map[string]int{}, otherSize: map[string]int{},
	}
}

// watch must be called before a task can end or stream (right after
// StartTask returns is fine: the loop's first event is a step update).
func (e *benchEvents) endCh(taskID string) chan endEvent {
	e.mu.Lock()
	defer e.mu.Unlock()
	ch := e.ended[taskID]
	if ch == nil {
		ch = make(chan endEvent, 1)
		e.ended[taskID] = ch
	}
	return ch
}

func (e *benchEvents) textCh(taskID string) chan struct{} {
	e.mu.Lock()
	defer e.mu.Unlock()
	ch := e.firstText[taskID]
	if ch == nil {
		ch = make(chan struct{})
		e.firstText[taskID] = ch
	}
	return ch
}

func (e *benchEvents) TaskUpdated(t chat.Task) {
	now := time.Now()
	size := wailsBytes("agent:taskUpdate", t)
	e.mu.Lock()
	defer e.mu.Unlock()
	e.others[t.ID]++
	e.otherSize[t.ID] += size
	if t.Status.Terminal() {
		ch := e.ended[t.ID]
		if ch == nil {
			ch = make(chan endEvent, 1)
			e.ended[t.ID] = ch
		}
		select {
		case ch <- endEvent{at: now, status: t.Status}:
		default: // a second terminal event: counted by the checks below
		}
	}
}

// taskMessage mirrors app.TaskMessage, the payload of agent:taskMessage.
type taskMessage struct {
	ConversationID string       `json:"conversationId"`
	TaskID         string       `json:"taskId"`
	Message        chat.Message `json:"message"`
	Streamed       bool         `json:"streamed,omitempty"`
	ContentBytes   int          `json:"contentBytes,omitempty"`
	ReasoningBytes int          `json:"reasoningBytes,omitempty"`
}

func (e *benchEvents) MessageStored(m chat.Message) {
	e.stored1(m, wailsBytes("agent:taskMessage", taskMessage{ConversationID: m.ConversationID, TaskID: m.TaskID, Message: m}))
}

func (e *benchEvents) StreamEnded(end chat.StreamEnd) {
	m := end.Message
	e.stored1(m, wailsBytes("agent:taskMessage", taskMessage{m.ConversationID, m.TaskID, m, true, end.ContentBytes, end.ReasoningBytes}))
}

// stored1 counts a message event of size bytes.
func (e *benchEvents) stored1(m chat.Message, size int) {
	e.mu.Lock()
	defer e.mu.Unlock()
	revs := e.stored[m.ID]
	if revs == nil {
		revs = map[int]int{}
		e.stored[m.ID] = revs
	}
	revs[m.Rev]++
	e.others[m.TaskID]++
	e.otherSize[m.TaskID] += size
	if m.Role == chat.RoleAssistant && m.Content != "" {
		e.markText(m.TaskID)
	}
}

func (e *benchEvents) MessageDelta(d agent.Delta) {
	now := time.Now()
	size := wailsBytes("agent:messageDelta", d)
	e.mu.Lock()
	defer e.mu.Unlock()
	e.deltas[d.TaskID] = append(e.deltas[d.TaskID], deltaEvent{at: now, bytes: size})
	e.markText(d.TaskID)
}

func (e *benchEvents) markText(taskID string) {
	ch := e.firstText[taskID]
	if ch == nil {
		ch = make(chan struct{})
		e.firstText[taskID] = ch
	}
	select {
	case <-ch:
	default:
		close(ch)
	}
}

func (e *benchEvents) ConversationUpdated(chat.Conversation) {}
func (e *benchEvents) ToolOutput(agent.ToolOutput)           {}
func (e *benchEvents) FactsChanged(string)                   {}

// wailsBytes is the size of what Wails v2 on Linux hands the WebKit view
// for one event: the script `window.wails.EventsNotify('<escaped JSON>');`
// (internal/frontend/desktop/linux/frontend.go, Notify).
func wailsBytes(name string, payload any) int {
	b, _ := json.Marshal(struct {
		Name string `json:"name"`
		Data []any  `json:"data"`
	}{name, []any{payload}})
	return len(`window.wails.EventsNotify('`) + len(template.JSEscapeString(string(b))) + len(`');`)
}

func waitEnd(b *testing.B, ch chan endEvent, what string) endEvent {
	b.Helper()
	select {
	case ev := <-ch:
		return ev
	case <-time.After(benchWait):
		b.Fatalf("timed out waiting for %s", what)
		return endEvent{}
	}
}

func words(prefix string, n int) string {
	w := make([]string, n)
	for i := range w {
		w[i] = fmt.Sprintf("%s%d", prefix, i+1)
	}
	return strings.Join(w, " ")
}

// ---- 1. Stop latency ----

// BenchmarkStop stops tasks in the middle of a model stream: from the Stop
// call to the task's cancelled event (published after the final state is
// stored), to Stop returning, and to the model server seeing its client go.
func BenchmarkStop(b *testing.B) {
	stops := size(300, 5)
	// A reply that streams for ~4 s and then holds the call open: every
	// Stop lands mid-call, however slow the machine.
	long := words("w", 4000)
	env := newBenchEnv(b, func(*compat.Request) compat.Reply {
		return compat.Reply{Text: long, ChunkDelay: time.Millisecond, HangAfterText: true}
	})
	// Timestamp the server's disconnects as they happen.
	gone := make(chan time.Time, 16)
	go func() {
		for range env.server.Disconnects() {
			gone <- time.Now()
		}
	}()
	var toEvent, toReturn, toServer []time.Duration
	ctx := context.Background()
	conv := env.conversation(b)
	b.ResetTimer()
	for i := 0; i < stops; i++ {
		if i%50 == 49 {
			conv = env.conversation(b) // keep the conversation short
		}
		task := env.start(b, conv, "Tell me a long story")
		end := env.events.endCh(task.ID)
		select {
		case <-env.events.textCh(task.ID):
		case <-time.After(benchWait):
			b.Fatal("no streamed text")
		}
		t0 := time.Now()
		res, err := env.runner.Stop(ctx, task.ID)
		returned := time.Now()
		if err != nil || !res.Stopped {
			b.Fatalf("stop %d: %+v %v", i, res, err)
		}
		ev := waitEnd(b, end, "the cancelled event")
		if ev.status != chat.StatusCancelled {
			b.Fatalf("task ended %s, not cancelled", ev.status)
		}
		var closed time.Time
		select {
		case closed = <-gone:
		case <-time.After(benchWait):
			b.Fatal("the model server never saw the connection close")
		}
		toEvent = append(toEvent, ev.at.Sub(t0))
		toReturn = append(toReturn, returned.Sub(t0))
		toServer = append(toServer, closed.Sub(t0))
	}
	b.StopTimer()
	report(b, "stop.samples", float64(len(toEvent)), "count")
	report(b, "stop.to_cancelled_event.p50", ms(percentile(toEvent, 50)), "ms")
	report(b, "stop.to_cancelled_event.p99", ms(percentile(toEvent, 99)), "ms")
	report(b, "stop.to_return.p99", ms(percentile(toReturn, 99)), "ms")
	report(b, "stop.to_server_close.p50", ms(percentile(toServer, 50)), "ms")
	report(b, "stop.to_server_close.p99", ms(percentile(toServer, 99)), "ms")
}

// ---- 2. Runner overhead ----

// stepScript answers every request with a short streamed text and a
// send_update call, and the steps'th with task_complete, at once.
func stepScript(steps int) func(*compat.Request) compat.Reply {
	return func(req *compat.Request) compat.Reply {
		replied := partsDone(req)
		if replied+1 >= steps {
			return compat.Reply{Text: "All done.", ToolCalls: []chat.ToolCall{
				{Name: agent.ToolTaskComplete, Arguments: `{"summary":"Finished"}`}}}
		}
		return compat.Reply{
			Text:      fmt.Sprintf(partText, replied+1),
			ToolCalls: []chat.ToolCall{{Name: agent.ToolSendUpdate, Arguments: fmt.Sprintf(`{"message":"Part %d done"}`, replied+1)}},
		}
	}
}

// partText is how a step of stepScript's task says which part it did.
const partText = "Working on part %d of the task."

// partsDone is the part the model request's newest assistant message says
// was done (partText), 0 before the task's first step. It is read, not
// counted since the person's message: in a long conversation the context
// window summarises a task's first steps, and the message that started it,
// once they outgrow the model's budget, and a count of what is left never
// reached the last step (the task stopped at its step limit).
func partsDone(req *compat.Request) int {
	for i := len(req.Messages) - 1; i >= 0; i-- {
		switch m := req.Messages[i]; m.Role {
		case "user":
			return 0
		case "assistant":
			var n int
			if _, err := fmt.Sscanf(m.Text(), partText, &n); err != nil {
				return 0
			}
			return n
		}
	}
	return 0
}

// BenchmarkRunnerStep measures what one agent step costs against a model
// server that answers at once: the loop, the context rebuilt from SQLite,
// the HTTP stream over loopback, and every store-then-publish write.
func BenchmarkRunnerStep(b *testing.B) {
	const steps = 20
	b.Run("tasks=1", func(b *testing.B) {
		runSteps(b, size(20, 2), 1, steps, "overhead.1_task")
	})
	b.Run("tasks=100", func(b *testing.B) {
		runSteps(b, 1, size(100, 5), steps, "overhead.100_tasks")
	})
	b.Run("model_call_alone", func(b *testing.B) {
		modelCallAlone(b, size(400, 10))
	})
}

// runSteps runs rounds of n concurrent tasks of steps steps each and
// reports the wall time per step and the messages lost or duplicated.
func runSteps(b *testing.B, rounds, n, steps int, name string) {
	runStepsOn(b, newBenchEnv(b, stepScript(steps)), rounds, n, steps, name)
}

// runStepsOn is runSteps on env, whose model answers as stepScript does.
func runStepsOn(b *testing.B, env *benchEnv, rounds, n, steps int, name string) {
	var wall time.Duration
	var perTask []time.Duration
	var convs []string
	var tasks []chat.Task
	failed := map[string]bool{}
	b.ResetTimer()
	for r := 0; r < rounds; r++ {
		ids := make([]string, n)
		for i := range ids {
			ids[i] = env.conversation(b)
		}
		ends := make([]chan endEvent, n)
		starts := make([]time.Time, n)
		t0 := time.Now()
		for i := range ids {
			starts[i] = time.Now()
			t := env.start(b, ids[i], "Do the multi-step task")
			ends[i] = env.events.endCh(t.ID)
			tasks = append(tasks, t)
		}
		for i := range ends {
			ev := waitEnd(b, ends[i], "a task to end")
			if ev.status != chat.StatusCompleted {
				t, _ := env.store.GetTask(context.Background(), tasks[len(tasks)-n+i].ID)
				b.Errorf("a task ended %s after %d steps: %s", ev.status, t.StepCount, t.ErrorMessage)
				failed[t.ID] = true
			}
			perTask = append(perTask, ev.at.Sub(starts[i]))
		}
		wall += time.Since(t0)
		convs = append(convs, ids...)
	}
	b.StopTimer()
	lost, dup := checkMessages(b, env, convs, tasks, steps, failed)
	total := rounds * n * steps
	report(b, name+".per_step", ms(wall)/float64(total), "ms")
	if n > 1 {
		var sum time.Duration
		for _, d := range perTask {
			sum += d
		}
		report(b, name+".task_step_latency", ms(sum)/float64(len(perTask)*steps), "ms")
	}
	if n == 1 {
		st, calls := env.storeTime.get()
		mt, _ := env.modelTime.get()
		report(b, name+".store_per_step", ms(st)/float64(total), "ms")
		report(b, name+".store_calls_per_step", float64(calls)/float64(total), "count")
		report(b, name+".model_stream_per_step", ms(mt)/float64(total), "ms")
	}
	report(b, name+".steps", float64(total), "count")
	report(b, name+".failed_tasks", float64(len(failed)), "count")
	report(b, name+".lost_messages", float64(lost), "count")
	report(b, name+".duplicated_messages", float64(dup), "count")
}

// checkMessages counts, over every conversation, the messages missing from
// the database or from the events, and those stored or published twice.
// Each conversation must hold the prompt, then per step one assistant
// message and one tool result, each published once per revision.
// A failed task (counted apart) is checked only for duplicates.
func checkMessages(b *testing.B, env *benchEnv, convs []string, tasks []chat.Task, steps int, failed map[string]bool) (lost, dup int) {
	b.Helper()
	ctx := context.Background()
	want := 1 + 2*steps
	seen := map[string]bool{}
	failedConv := map[string]bool{}
	for _, t := range tasks {
		if failed[t.ID] {
			failedConv[t.ConversationID] = true
		}
	}
	env.events.mu.Lock()
	defer env.events.mu.Unlock()
	for _, c := range convs {
		if failedConv[c] {
			msgs, _ := env.store.Messages(ctx, c)
			for _, m := range msgs {
				if seen[m.ID] {
					dup++
				}
				seen[m.ID] = true
			}
			continue
		}
		msgs, err := env.store.Messages(ctx, c)
		if err != nil {
			b.Fatal(err)
		}
		if len(msgs) < want {
			lost += want - len(msgs)
		}
		calls := map[string]int{}
		for _, m := range msgs {
			if seen[m.ID] {
				dup++
			}
			seen[m.ID] = true
			for _, tc := range m.ToolCalls {
				calls[tc.ID]++
			}
			if m.Role == chat.RoleTool {
				calls[m.ToolCallID]--
			}
			revs := env.events.stored[m.ID]
			if revs == nil || revs[m.Rev] == 0 {
				lost++ // stored but its final state never published
			}
			for _, times := range revs {
				if times > 1 {
					dup += times - 1
				}
			}
		}
		if len(msgs) > want {
			dup += len(msgs) - want
		}
		for _, n := range calls {
			if n != 0 {
				lost++ // a tool call without exactly one result
			}
		}
	}
	for _, t := range tasks {
		if failed[t.ID] {
			continue
		}
		if st, err := env.store.GetTask(ctx, t.ID); err != nil || st.Status != chat.StatusCompleted || st.StepCount != steps {
			b.Errorf("task %s stored as %s after %d steps (%v)", t.ID, st.Status, st.StepCount, err)
		}
	}
	if lost > 0 || dup > 0 {
		b.Errorf("%d messages lost and %d duplicated", lost, dup)
	}
	return lost, dup
}

// modelCallAlone times one streamed request of the kind a mid-task step
// makes, straight through the provider with no runner and no store: the
// part of a step that is HTTP, SSE and JSON rather than the runner.
func modelCallAlone(b *testing.B, calls int) {
	env := newBenchEnv(b, stepScript(1000))
	p := openai.New(openai.Config{BaseURL: env.url, APIKey: "bench-key", Model: "bench-model", MaxRetries: -1})
	req := llm.Request{Messages: []llm.Message{
		{Role: chat.RoleSystem, Content: agent.AgentSystemPrompt},
		{Role: chat.RoleUser, Content: "Do the multi-step task"},
	}}
	for i := 0; i < 10; i++ { // a mid-task context: ten earlier steps
		id := fmt.Sprintf("call_%d", i)
		req.Messages = append(req.Messages,
			llm.Message{Role: chat.RoleAssistant, Content: "Working on part of the task.",
				ToolCalls: []chat.ToolCall{{ID: id, Name: agent.ToolSendUpdate, Arguments: `{"message":"Part done"}`}}},
			llm.Message{Role: chat.RoleTool, ToolCallID: id, Content: "The update was shown to the user."})
	}
	req.Tools = agentTools(b)
	ctx := context.Background()
	b.ResetTimer()
	t0 := time.Now()
	for i := 0; i < calls; i++ {
		if _, err := p.Stream(ctx, req, llm.Deltas{}); err != nil {
			b.Fatal(err)
		}
	}
	report(b, "overhead.model_call_alone", ms(time.Since(t0))/float64(calls), "ms")
}

// agentTools are the tool definitions a real step sends, captured from
// one request the runner makes.
func agentTools(b *testing.B) []llm.Tool {
	b.Helper()
	var got []compat.Tool
	var once sync.Once
	done := make(chan struct{})
	env := newBenchEnv(b, func(req *compat.Request) compat.Reply {
		once.Do(func() { got = req.Tools; close(done) })
		return compat.Reply{ToolCalls: []chat.ToolCall{{Name: agent.ToolTaskComplete, Arguments: `{"summary":"x"}`}}}
	})
	t := env.start(b, env.conversation(b), "capture the tools")
	waitEnd(b, env.events.endCh(t.ID), "the capture task")
	<-done
	var out []llm.Tool
	for _, t := range got {
		out = append(out, llm.Tool{Name: t.Function.Name, Description: t.Function.Description, Parameters: t.Function.Parameters})
	}
	return out
}

// ---- 3. Streaming ----

// BenchmarkStreaming has the model stream tokens (one word each) at about
// 1,000 a second and counts what reaches the frontend.
func BenchmarkStreaming(b *testing.B) {
	tokens := size(5000, 300)
	text := words("t", tokens)
	env := newPacedBenchEnv(b, func(req *compat.Request) compat.Reply {
		return compat.Reply{Text: text,
			ToolCalls: []chat.ToolCall{{Name: agent.ToolTaskComplete, Arguments: `{"summary":"streamed"}`}}}
	}, 1000)
	b.ResetTimer()
	run := pacedTask(b, env, "Stream a long answer", "the streaming task")
	b.StopTimer()
	conv, task, deltas := run.conv, run.task, run.deltas
	env.events.mu.Lock()
	others, otherBytes := env.events.others[task.ID], env.events.otherSize[task.ID]
	env.events.mu.Unlock()
	span, peak := deltaFigures(deltas)
	bytes := 0
	for _, d := range deltas {
		bytes += d.bytes
	}

	msgs, err := env.store.Messages(context.Background(), conv)
	if err != nil {
		b.Fatal(err)
	}
	identical := 0.0
	for _, m := range msgs {
		if m.Role == chat.RoleAssistant && m.Content == text {
			identical = 1
		}
	}
	if identical != 1 {
		b.Errorf("the stored text is not the streamed text")
	}
	report(b, "stream.tokens_per_s", rate(tokens, span), "tokens/s")
	report(b, "stream.events_per_s", rate(len(deltas)-1, span), "events/s")
	report(b, "stream.events_per_s.peak_1s", float64(peak), "events/s")
	report(b, "stream.bytes_per_event", float64(bytes)/float64(max(len(deltas), 1)), "bytes")
	report(b, "stream.other_events", float64(others), "count")
	report(b, "stream.other_bytes_per_event", float64(otherBytes)/float64(max(others, 1)), "bytes")
	report(b, "stream.stored_text_identical", identical, "bool")
	report(b, "stream.unpaced_samples", float64(run.unpaced), "count")
}

// minPacedSpan is the least time over which a paced stream of the
// benchmarks (300 tokens or more at 1,000 a second) reaches the runner's
// deltas when the runner reads it as it comes.
const minPacedSpan = 100 * time.Millisecond

// pacedTries bounds the samples pacedTask takes.
const pacedTries = 5

// pacedRun is one task of a paced stream, run to completion.
type pacedRun struct {
	conv    string
	task    chat.Task
	deltas  []deltaEvent
	paced   bool // its deltas span minPacedSpan: the case measured
	unpaced int  // samples skipped before it because they were not
}

// pacedTask runs a task in a new conversation until the runner received
// its stream paced, as the model sent it. A machine too busy to read the
// stream as it comes hands the runner all of it at once, in one or two
// deltas: that sample measures the machine, not the stream, so it is
// counted and taken again, at most pacedTries times (the last one is kept
// whatever it was). A task that ends other than completed fails.
func pacedTask(b *testing.B, env *benchEnv, prompt, what string) pacedRun {
	b.Helper()
	var run pacedRun
	for try := 1; ; try++ {
		run.conv = env.conversation(b)
		run.task = env.start(b, run.conv, prompt)
		ev := waitEnd(b, env.events.endCh(run.task.ID), what)
		if ev.status != chat.StatusCompleted {
			b.Fatalf("the task ended %s", ev.status)
		}
		env.events.mu.Lock()
		run.deltas = append([]deltaEvent(nil), env.events.deltas[run.task.ID]...)
		env.events.mu.Unlock()
		n := len(run.deltas)
		run.paced = n >= 2 && run.deltas[n-1].at.Sub(run.deltas[0].at) >= minPacedSpan
		if run.paced || try == pacedTries {
			return run
		}
		b.Logf("%s: the stream reached the runner in %d deltas at once (a busy machine); taking the sample again", what, n)
		run.unpaced++
	}
}

// deltaFigures are the span of a stream's deltas and the most of them in
// any one second (over a span shorter than a second, their rate).
func deltaFigures(deltas []deltaEvent) (span time.Duration, peak int) {
	if len(deltas) < 2 {
		return 0, len(deltas)
	}
	span = deltas[len(deltas)-1].at.Sub(deltas[0].at)
	for i, j := 0, 0; i < len(deltas); i++ {
		for deltas[i].at.Sub(deltas[j].at) >= time.Second {
			j++
		}
		peak = max(peak, i-j+1)
	}
	if span < time.Second {
		peak = int(rate(len(deltas), span))
	}
	return span, peak
}

// rate is n per second over span, 0 for an empty span.
func rate(n int, span time.Duration) float64 {
	if span <= 0 {
		return 0
	}
	return float64(n) / span.Seconds()
}

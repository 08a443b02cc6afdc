package agent_test

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/errand-app/errand/backend/agent"
	"github.com/errand-app/errand/backend/chat"
	"github.com/errand-app/errand/backend/contextwin"
	"github.com/errand-app/errand/backend/llm/openai"
	"github.com/errand-app/errand/backend/modelserver/compat"
	"github.com/errand-app/errand/backend/store"
	"github.com/google/uuid"
)

// ---- 8. The context window ----

// BenchmarkContextStep measures Errand's own time per agent step (the
// step's wall time less the model stream) in a conversation that already
// holds 10,000 messages against an empty one. The first step of a run
// reads the history and, past the budget, summarises it: it is reported
// apart; the steps after it are the steady state, which must not grow with
// the conversation.
func BenchmarkContextStep(b *testing.B) {
	steps := size(50, 5)
	for _, n := range []int{0, size(10_000, 200)} {
		name := "empty"
		if n > 0 {
			name = "10k_messages" // 200 under ERRAND_BENCH_SMOKE
		}
		b.Run(name, func(b *testing.B) { contextStep(b, n, steps, name) })
	}
}

// stepEvents is benchEvents that also notes when the second step starts.
type stepEvents struct {
	*benchEvents
	once   sync.Once
	second chan time.Time
}

func (e *stepEvents) TaskUpdated(t chat.Task) {
	if t.StepCount == 2 && t.Status == chat.StatusThinking {
		e.once.Do(func() { e.second <- time.Now() })
	}
	e.benchEvents.TaskUpdated(t)
}

func contextStep(b *testing.B, history, steps int, name string) {
	ctx := context.Background()
	st, err := store.Open(ctx, filepath.Join(b.TempDir(), store.FileName))
	if err != nil {
		b.Fatal(err)
	}
	script := stepScript(steps)
	srv := compat.NewServer(func(req *compat.Request) compat.Reply {
		if req.AsksForSummary() {
			return compat.Reply{Text: "Summary: a long conversation of multi-step tasks, each finished."}
		}
		return script(req)
	})
	srv.APIKey = "bench-key"
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	hs := &http.Server{Handler: srv}
	go func() { _ = hs.Serve(ln) }()
	url := "http://" + ln.Addr().String() + "/v1"
	storeTime, modelTime := &timer{}, &timer{}
	ev := &stepEvents{benchEvents: newBenchEvents(), second: make(chan time.Time, 1)}
	runner := agent.New(agent.Options{
		Store: timedStore{st, storeTime},
		Provider: timedProvider{openai.New(openai.Config{BaseURL: url, APIKey: "bench-key", Model: "bench-model", MaxRetries: -1}),
			modelTime},
		Events: ev,
	})
	tearDown(b, runner, srv, false, srv.Close, func() { _ = hs.Close() }, func() { st.Close() })

	conv := seedConversation(b, st, history)
	b.ResetTimer()
	t0 := time.Now()
	task, err := runner.StartTask(ctx, conv, "Do the multi-step task", chat.ModeAgent)
	if err != nil {
		b.Fatal(err)
	}
	end := ev.endCh(task.ID)
	var second time.Time
	select {
	case second = <-ev.second:
	case <-time.After(5 * time.Minute):
		b.Fatal("timed out waiting for the second step")
	}
	model1, _ := modelTime.get()
	store1, _ := storeTime.get()
	ended := waitEnd(b, end, "the task to end")
	b.StopTimer()
	if ended.status != chat.StatusCompleted {
		t, _ := st.GetTask(ctx, task.ID)
		b.Fatalf("the task ended %s: %s", ended.status, t.ErrorMessage)
	}
	model, _ := modelTime.get()
	storeAll, _ := storeTime.get()
	rest := float64(steps - 1)
	first := second.Sub(t0) - model1
	own := ended.at.Sub(second) - (model - model1)
	report(b, "context."+name+".messages", float64(history), "count")
	report(b, "context."+name+".first_step_own", ms(first), "ms")
	report(b, "context."+name+".step_own", ms(own)/rest, "ms")
	report(b, "context."+name+".step_store", ms(storeAll-store1)/rest, "ms")
}

// seedConversation stores a conversation of n messages: turns of a user
// message, an assistant's tool call, its result and a reply.
func seedConversation(b *testing.B, st *store.Store, n int) string {
	b.Helper()
	ctx := context.Background()
	now := time.Now().UTC()
	c := chat.Conversation{ID: uuid.NewString(), Mode: chat.ModeAgent, CreatedAt: now, UpdatedAt: now}
	if err := st.CreateConversation(ctx, c); err != nil {
		b.Fatal(err)
	}
	add := func(m chat.Message) {
		m.ID, m.ConversationID, m.CreatedAt = uuid.NewString(), c.ID, now
		if _, err := st.AddMessage(ctx, m); err != nil {
			b.Fatal(err)
		}
	}
	for i := 0; i < n/4; i++ {
		id := fmt.Sprintf("call_%d", i)
		add(chat.Message{Role: chat.RoleUser, Content: fmt.Sprintf("Please look at part %d of the project and report.", i)})
		add(chat.Message{Role: chat.RoleAssistant, ToolCalls: []chat.ToolCall{{ID: id, Name: "read_file", Arguments: fmt.Sprintf(`{"path":"part%d.txt"}`, i)}}})
		add(chat.Message{Role: chat.RoleTool, ToolCallID: id, ToolName: "read_file", Content: strings.Repeat(fmt.Sprintf("line of part %d\n", i), 20)})
		add(chat.Message{Role: chat.RoleAssistant, Content: fmt.Sprintf("Part %d looks fine: twenty lines, nothing to fix.", i)})
	}
	return c.ID
}

// BenchmarkTokenCount reports how many tokens per second Errand counts
// (prose and code, o200k_base).
func BenchmarkTokenCount(b *testing.B) {
	var sb strings.Builder
	for i := 0; sb.Len() < size(1<<20, 16<<10); i++ {
		fmt.Fprintf(&sb, "func step%d(ctx context.Context) error { return nil } // The quick brown fox %d jumps over the lazy dog.\n", i, i*7)
	}
	text := sb.String()
	c := contextwin.NewCounter("gpt-4o")
	c.Text("warm up")
	b.ResetTimer()
	t0 := time.Now()
	n := c.Text(text)
	d := time.Since(t0)
	report(b, "context.tokens_counted_per_s", float64(n)/d.Seconds(), "tokens/s")
	report(b, "context.count_1mb", ms(d)*float64(1<<20)/float64(len(text)), "ms")
}

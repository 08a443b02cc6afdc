package agent_test

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"path/filepath"
	"testing"
	"time"

	"github.com/errand-app/errand/backend/agent"
	"github.com/errand-app/errand/backend/chat"
	"github.com/errand-app/errand/backend/llm/openai"
	"github.com/errand-app/errand/backend/modelserver/compat"
	"github.com/errand-app/errand/backend/store"
	"github.com/errand-app/errand/backend/tools"
)

// ---- 2b. A task's start ----

// BenchmarkStartToFirstRequest measures Errand's own time from StartTask
// to its model server receiving the task's first request (the moment the
// HTTP request reaches the server's handler), with the runner set up as
// the app sets it up: the built-in tools, memory on with a few facts
// remembered. Each task runs in a new conversation, one after the other,
// and completes at its first step.
func BenchmarkStartToFirstRequest(b *testing.B) {
	tasks := size(300, 10)
	ctx := context.Background()
	st, err := store.Open(ctx, filepath.Join(b.TempDir(), store.FileName))
	if err != nil {
		b.Fatal(err)
	}
	for i := 0; i < 5; i++ {
		if _, err := st.RememberFact(ctx, chat.Fact{Scope: chat.ScopeGlobal, Key: fmt.Sprintf("preference %d", i),
			Value: "Answers in British English, with metric units."}); err != nil {
			b.Fatal(err)
		}
	}
	srv := compat.NewServer(func(*compat.Request) compat.Reply {
		return compat.Reply{ToolCalls: []chat.ToolCall{{Name: agent.ToolTaskComplete, Arguments: `{"summary":"Done"}`}}}
	})
	srv.APIKey = "bench-key"
	arrived := make(chan time.Time, 1)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	hs := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case arrived <- time.Now():
		default:
		}
		srv.ServeHTTP(w, r)
	})}
	go func() { _ = hs.Serve(ln) }()
	url := "http://" + ln.Addr().String() + "/v1"
	ev := newBenchEvents()
	runner := agent.New(agent.Options{
		Store:    st,
		Provider: openai.New(openai.Config{BaseURL: url, APIKey: "bench-key", Model: "bench-model", MaxRetries: -1}),
		Events:   ev,
		Tools:    tools.Builtin(),
		Facts:    st,
	})
	tearDown(b, runner, srv, false, srv.Close, func() { _ = hs.Close() }, func() { st.Close() })
	env := &benchEnv{store: st}
	var samples []time.Duration
	b.ResetTimer()
	for i := 0; i < tasks; i++ {
		conv := env.conversation(b)
		t0 := time.Now()
		task, err := runner.StartTask(ctx, conv, "Do the task", chat.ModeAgent)
		if err != nil {
			b.Fatal(err)
		}
		var at time.Time
		select {
		case at = <-arrived:
		case <-time.After(benchWait):
			b.Fatal("the first request never came")
		}
		samples = append(samples, at.Sub(t0))
		if end := waitEnd(b, ev.endCh(task.ID), "the task to end"); end.status != chat.StatusCompleted {
			b.Fatalf("the task ended %s", end.status)
		}
	}
	b.StopTimer()
	report(b, "start.first_request.p50", ms(percentile(samples, 50)), "ms")
	report(b, "start.first_request.p90", ms(percentile(samples, 90)), "ms")
	report(b, "start.first_request.first", ms(samples[0]), "ms")
	report(b, "start.tasks", float64(len(samples)), "count")
}

package agent_test

import (
	"context"
	"fmt"
	"net/http/httptest"
	"path/filepath"
	"testing"
	"time"

	"github.com/errand-app/errand/backend/agent"
	"github.com/errand-app/errand/backend/chat"
	"github.com/errand-app/errand/backend/llm"
	"github.com/errand-app/errand/backend/llm/anthropic"
	"github.com/errand-app/errand/backend/modelserver/anthropictest"
	"github.com/errand-app/errand/backend/store"
)

// BenchmarkClaudeStep is BenchmarkRunnerStep's 1-task run and model call
// alone with Claude's native adapter (anthropic-sdk-go) against the
// scripted Messages API server, beside the OpenAI-compatible figures: what
// the second adapter costs a step. Its figures are overhead.claude.*.
func BenchmarkClaudeStep(b *testing.B) {
	const steps = 20
	b.Run("tasks=1", func(b *testing.B) {
		env, srv := newClaudeBenchEnv(b, claudeStepScript(steps))
		runStepsOn(b, env, size(20, 2), 1, steps, "overhead.claude.1_task")
		if r := srv.Rejections(); len(r) > 0 {
			b.Errorf("the scripted Claude rejected %d requests, first: %s", len(r), r[0])
		}
	})
	b.Run("model_call_alone", func(b *testing.B) {
		claudeCallAlone(b, size(400, 10))
	})
}

// claudeStepScript is stepScript for the Messages API: a short text and a
// send_update call per step, task_complete at the steps'th.
func claudeStepScript(steps int) func(*anthropictest.Request) anthropictest.Reply {
	return func(req *anthropictest.Request) anthropictest.Reply {
		replied := 0
		for _, m := range req.Messages {
			if m.Role == "assistant" {
				replied++
			}
		}
		if replied+1 >= steps {
			return anthropictest.Reply{Text: "All done.", ToolCalls: []chat.ToolCall{
				{Name: agent.ToolTaskComplete, Arguments: `{"summary":"Finished"}`}}}
		}
		return anthropictest.Reply{
			Text:      fmt.Sprintf("Working on part %d of the task.", replied+1),
			ToolCalls: []chat.ToolCall{{Name: agent.ToolSendUpdate, Arguments: fmt.Sprintf(`{"message":"Part %d done"}`, replied+1)}},
		}
	}
}

// newClaudeBenchEnv is newBenchEnv with Claude's adapter and server.
func newClaudeBenchEnv(b *testing.B, script func(*anthropictest.Request) anthropictest.Reply) (*benchEnv, *anthropictest.Server) {
	b.Helper()
	st, err := store.Open(context.Background(), filepath.Join(b.TempDir(), store.FileName))
	if err != nil {
		b.Fatal(err)
	}
	srv := anthropictest.New(script)
	srv.APIKey = "bench-key"
	hs := httptest.NewServer(srv)
	e := &benchEnv{store: st, events: newBenchEvents(), url: hs.URL, storeTime: &timer{}, modelTime: &timer{}}
	e.runner = agent.New(agent.Options{
		Store: timedStore{st, e.storeTime},
		Provider: timedProvider{anthropic.New(anthropic.Config{BaseURL: hs.URL, APIKey: "bench-key", Model: "bench-model", MaxRetries: -1}),
			e.modelTime},
		Events: e.events,
	})
	b.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), benchWait)
		defer cancel()
		if err := e.runner.Shutdown(ctx); err != nil {
			b.Error(err)
		}
		hs.Close()
		st.Close()
	})
	return e, srv
}

// claudeCallAlone is modelCallAlone through Claude's adapter: the same
// mid-task request (system prompt, ten earlier steps, the agent's tools).
func claudeCallAlone(b *testing.B, calls int) {
	srv := anthropictest.New(claudeStepScript(1000))
	srv.APIKey = "bench-key"
	hs := httptest.NewServer(srv)
	defer hs.Close()
	p := anthropic.New(anthropic.Config{BaseURL: hs.URL, APIKey: "bench-key", Model: "bench-model", MaxRetries: -1})
	req := llm.Request{Messages: []llm.Message{
		{Role: chat.RoleSystem, Content: agent.AgentSystemPrompt},
		{Role: chat.RoleUser, Content: "Do the multi-step task"},
	}}
	for i := 0; i < 10; i++ {
		id := fmt.Sprintf("toolu_%d", i)
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
	report(b, "overhead.claude.model_call_alone", ms(time.Since(t0))/float64(calls), "ms")
	if r := srv.Rejections(); len(r) > 0 {
		b.Errorf("the scripted Claude rejected %d requests, first: %s", len(r), r[0])
	}
}

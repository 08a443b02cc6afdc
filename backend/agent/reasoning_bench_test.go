package agent_test

import (
	"context"
	"testing"
	"time"

	"github.com/errand-app/errand/backend/agent"
	"github.com/errand-app/errand/backend/chat"
	"github.com/errand-app/errand/backend/modelserver/compat"
)

// ---- 3b. Streaming a thinking model's reasoning ----

// BenchmarkReasoningStream has a thinking model stream its reasoning (one
// word a token, as reasoning_content) at about 1,000 tokens a second, then
// a short answer, and counts the delta events that reach the frontend —
// reasoning and answer together, within the window's budget of 60 a
// second. It fails only when the stored reasoning is not the streamed one.
func BenchmarkReasoningStream(b *testing.B) {
	tokens := size(5000, 300)
	thought := words("r", tokens)
	env := newPacedBenchEnv(b, func(req *compat.Request) compat.Reply {
		return compat.Reply{Reasoning: thought, Text: "The answer.",
			ToolCalls: []chat.ToolCall{{Name: agent.ToolTaskComplete, Arguments: `{"summary":"thought"}`}}}
	}, 1000)
	conv := env.conversation(b)
	b.ResetTimer()
	task := env.start(b, conv, "Think it through")
	ev := waitEnd(b, env.events.endCh(task.ID), "the thinking task")
	b.StopTimer()
	if ev.status != chat.StatusCompleted {
		b.Fatalf("the task ended %s", ev.status)
	}

	env.events.mu.Lock()
	deltas := append([]deltaEvent(nil), env.events.deltas[task.ID]...)
	env.events.mu.Unlock()
	if len(deltas) < 2 {
		b.Fatalf("only %d deltas", len(deltas))
	}
	span := deltas[len(deltas)-1].at.Sub(deltas[0].at)
	peak := 0
	for i, j := 0, 0; i < len(deltas); i++ {
		for deltas[i].at.Sub(deltas[j].at) >= time.Second {
			j++
		}
		peak = max(peak, i-j+1)
	}
	if span < time.Second {
		peak = int(float64(len(deltas)) / span.Seconds())
	}

	msgs, err := env.store.Messages(context.Background(), conv)
	if err != nil {
		b.Fatal(err)
	}
	identical := 0.0
	for _, m := range msgs {
		if m.Role == chat.RoleAssistant && m.Reasoning == thought && m.Content == "The answer." && m.ReasoningMS > 0 {
			identical = 1
		}
	}
	if identical != 1 {
		b.Errorf("the stored reasoning is not the streamed reasoning")
	}
	report(b, "reasoning.tokens_per_s", float64(tokens)/span.Seconds(), "tokens/s")
	report(b, "reasoning.events_per_s", float64(len(deltas)-1)/span.Seconds(), "events/s")
	report(b, "reasoning.events_per_s.peak_1s", float64(peak), "events/s")
	report(b, "reasoning.stored_identical", identical, "bool")
}

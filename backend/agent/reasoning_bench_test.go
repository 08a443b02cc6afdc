package agent_test

import (
	"context"
	"testing"

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
	b.ResetTimer()
	run := pacedTask(b, env, "Think it through", "the thinking task")
	b.StopTimer()
	span, peak := deltaFigures(run.deltas)

	msgs, err := env.store.Messages(context.Background(), run.conv)
	if err != nil {
		b.Fatal(err)
	}
	identical := 0.0
	for _, m := range msgs {
		// How long it thought is timed only when it streamed its reasoning
		// paced: a burst can bring reasoning and answer in the same instant.
		if m.Role == chat.RoleAssistant && m.Reasoning == thought && m.Content == "The answer." && (m.ReasoningMS > 0 || !run.paced) {
			identical = 1
		}
	}
	if identical != 1 {
		b.Errorf("the stored reasoning is not the streamed reasoning")
	}
	report(b, "reasoning.tokens_per_s", rate(tokens, span), "tokens/s")
	report(b, "reasoning.events_per_s", rate(len(run.deltas)-1, span), "events/s")
	report(b, "reasoning.events_per_s.peak_1s", float64(peak), "events/s")
	report(b, "reasoning.stored_identical", identical, "bool")
	report(b, "reasoning.unpaced_samples", float64(run.unpaced), "count")
}

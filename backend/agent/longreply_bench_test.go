package agent_test

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/errand-app/errand/backend/agent"
	"github.com/errand-app/errand/backend/chat"
	"github.com/errand-app/errand/backend/llm/openai"
	"github.com/errand-app/errand/backend/modelserver/compat"
)

// ---- 7. A long reply ----

// BenchmarkLongReply has the model stream a 5 MB reply (Markdown: headings,
// paragraphs, lists, code) as fast as the loopback allows. One task streams
// it whole: the stored message must be the reply, byte for byte. Other
// tasks are stopped at points spread over the reply (from 5% to 99% of it):
// Stop must be answered as quickly at the end of the reply as at its start.
// The stopped tasks' replies hold after their last byte until the client
// goes away (HangAfterText), so each point — 99 % too — is reached while
// the call is still open: Stop always meets a running task, however slow
// the machine, and its outcome never depends on timing.
// It reports the time to stream and store the reply, and Stop → return and
// Stop → cancelled event (which follows the final state's storing), p50,
// p99 and max over all the points.
func BenchmarkLongReply(b *testing.B) {
	total := size(5<<20, 64<<10)
	points := []float64{0.05, 0.25, 0.5, 0.75, 0.9, 0.99}
	rounds := size(2, 1)
	reply := longMarkdown(total)
	env := newBenchEnv(b, func(req *compat.Request) compat.Reply {
		for _, m := range req.Messages {
			if m.Role == "user" && m.Text() == stopPrompt {
				return compat.Reply{Text: reply, HangAfterText: true}
			}
		}
		return compat.Reply{Text: reply, ToolCalls: []chat.ToolCall{
			{Name: agent.ToolTaskComplete, Arguments: `{"summary":"A long answer"}`}}}
	})
	ev := &offsetEvents{benchEvents: newBenchEvents(), at: map[string]*offsetWatch{}}
	storeTime := &timer{}
	runner := agent.New(agent.Options{
		Store:    timedStore{env.store, storeTime},
		Provider: openai.New(openai.Config{BaseURL: env.url, APIKey: "bench-key", Model: "bench-model", MaxRetries: -1}),
		Events:   ev,
	})
	b.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), benchWait)
		defer cancel()
		if err := runner.Shutdown(ctx); err != nil {
			b.Error(err)
		}
	})
	ctx := context.Background()
	b.ResetTimer()

	// The whole reply, streamed and stored.
	conv := env.conversation(b)
	t0 := time.Now()
	task, err := runner.StartTask(ctx, conv, "Write the long answer", chat.ModeAgent)
	if err != nil {
		b.Fatal(err)
	}
	var end endEvent
	select { // about 20 s at 0.25 MB/s; slower on a busy machine
	case end = <-ev.endCh(task.ID):
	case <-time.After(10 * time.Minute):
		b.Fatal("timed out waiting for the long reply")
	}
	streamed := end.at.Sub(t0)
	if end.status != chat.StatusCompleted {
		b.Fatalf("the long reply ended %s", end.status)
	}
	exact := 0.0
	if m, ok := assistantText(b, env, conv); ok && m == reply {
		exact = 1
	} else {
		b.Errorf("the stored reply is not the streamed one (%d bytes stored, %d streamed)", len(m), len(reply))
	}
	t1 := time.Now()
	view, err := env.store.LoadConversation(ctx, conv)
	if err != nil {
		b.Fatal(err)
	}
	load := time.Since(t1)
	ev.mu.Lock()
	deltas := len(ev.deltas[task.ID])
	ev.mu.Unlock()

	// Stops spread over the reply.
	var toReturn, toEvent []time.Duration
	toEventAt, inStoreAt := map[int][]time.Duration{}, map[int][]time.Duration{} // by point
	for r := 0; r < rounds; r++ {
		for i, p := range points {
			conv := env.conversation(b)
			task, err := runner.StartTask(ctx, conv, stopPrompt, chat.ModeAgent)
			if err != nil {
				b.Fatal(err)
			}
			at := int(p * float64(len(reply)))
			reached := ev.watch(task.ID, at)
			end := ev.endCh(task.ID)
			select {
			case <-reached:
			case e := <-end:
				b.Fatalf("the task ended %s before %d bytes", e.status, at)
			case <-time.After(benchWait):
				b.Fatalf("the stream never reached %d bytes", at)
			}
			st0, _ := storeTime.get()
			s0 := time.Now()
			res, err := runner.Stop(ctx, task.ID)
			returned := time.Now()
			st1, _ := storeTime.get()
			if err != nil || !res.Stopped {
				b.Fatalf("stop at %.0f%%: %+v %v", p*100, res, err)
			}
			e := waitEnd(b, end, "the cancelled event")
			if e.status != chat.StatusCancelled {
				b.Fatalf("the stopped task ended %s", e.status)
			}
			toReturn = append(toReturn, returned.Sub(s0))
			toEvent = append(toEvent, e.at.Sub(s0))
			toEventAt[i] = append(toEventAt[i], e.at.Sub(s0))
			inStoreAt[i] = append(inStoreAt[i], st1-st0)
			// What was stored is what was shown: a prefix of the reply at
			// least as long as the published deltas.
			stored, _ := assistantText(b, env, conv)
			if shown := ev.shown(task.ID); !strings.HasPrefix(reply, stored) || len(stored) < shown {
				b.Errorf("stopped at %.0f%%: %d bytes stored, %d shown, prefix of the reply: %v",
					p*100, len(stored), shown, strings.HasPrefix(reply, stored))
			}
		}
	}
	b.StopTimer()

	report(b, "long_reply.bytes", float64(len(reply)), "bytes")
	report(b, "long_reply.stream_and_store", ms(streamed), "ms")
	report(b, "long_reply.mb_per_s", float64(len(reply))/(1<<20)/streamed.Seconds(), "MB/s")
	report(b, "long_reply.delta_events", float64(deltas), "count")
	report(b, "long_reply.stored_identical", exact, "bool")
	report(b, "long_reply.open_conversation", ms(load), "ms")
	report(b, "long_reply.open_conversation.messages", float64(len(view.Messages)), "count")
	report(b, "long_reply.stop.samples", float64(len(toEvent)), "count")
	report(b, "long_reply.stop.to_return.p50", ms(percentile(toReturn, 50)), "ms")
	report(b, "long_reply.stop.to_return.p99", ms(percentile(toReturn, 99)), "ms")
	report(b, "long_reply.stop.to_return.max", ms(percentile(toReturn, 100)), "ms")
	report(b, "long_reply.stop.to_cancelled_event.p50", ms(percentile(toEvent, 50)), "ms")
	report(b, "long_reply.stop.to_cancelled_event.p99", ms(percentile(toEvent, 99)), "ms")
	report(b, "long_reply.stop.to_cancelled_event.max", ms(percentile(toEvent, 100)), "ms")
	// Where the time goes, at the first point and at the last: Stop →
	// cancelled event, and of it the store calls (the rest is mostly
	// publishing the stopped message, whole, before the cancelled event).
	for _, i := range []int{0, len(points) - 1} {
		at := fmt.Sprintf("long_reply.stop.at_%d_pct", int(points[i]*100))
		report(b, at+".to_cancelled_event.p50", ms(percentile(toEventAt[i], 50)), "ms")
		report(b, at+".in_store.p50", ms(percentile(inStoreAt[i], 50)), "ms")
	}
}

// stopPrompt asks for the long reply that holds open after its text.
const stopPrompt = "Write the long answer, to be stopped"

// assistantText is the text of the conversation's assistant message.
func assistantText(b *testing.B, env *benchEnv, conv string) (string, bool) {
	b.Helper()
	msgs, err := env.store.Messages(context.Background(), conv)
	if err != nil {
		b.Fatal(err)
	}
	for _, m := range msgs {
		if m.Role == chat.RoleAssistant {
			return m.Content, true
		}
	}
	return "", false
}

// longMarkdown is about n bytes of Markdown of the kind a model writes:
// headings, paragraphs, lists and fenced code, in words of usual length.
func longMarkdown(n int) string {
	words := strings.Fields(`the reply goes on with more detail about each step of the plan and
		why it matters so that a reader can follow along without missing anything important here`)
	var sb strings.Builder
	sb.Grow(n + 1024)
	for section := 1; sb.Len() < n; section++ {
		fmt.Fprintf(&sb, "## Part %d\n\n", section)
		for p := 0; p < 3; p++ {
			for i := 0; i < 60; i++ {
				sb.WriteString(words[(section*7+p*13+i)%len(words)])
				sb.WriteByte(' ')
			}
			sb.WriteString("**done**.\n\n")
		}
		for i := 1; i <= 4; i++ {
			fmt.Fprintf(&sb, "- item %d of part %d with `code` and a [link](https://example.com/%d)\n", i, section, i)
		}
		fmt.Fprintf(&sb, "\n```go\nfunc part%d() int {\n\treturn %d\n}\n```\n\n", section, section)
	}
	return sb.String()
}

// offsetEvents is benchEvents that also tells when a task's streamed text
// has reached a byte offset, and how much of it was shown.
type offsetEvents struct {
	*benchEvents
	mu sync.Mutex
	at map[string]*offsetWatch
}

type offsetWatch struct {
	want    int
	reached chan struct{}
	shown   int
}

func (e *offsetEvents) watch(taskID string, offset int) chan struct{} {
	e.mu.Lock()
	defer e.mu.Unlock()
	w := e.at[taskID]
	if w == nil {
		w = &offsetWatch{reached: make(chan struct{})}
		e.at[taskID] = w
	}
	w.want = offset
	if w.shown >= offset {
		close(w.reached)
	}
	return w.reached
}

func (e *offsetEvents) shown(taskID string) int {
	e.mu.Lock()
	defer e.mu.Unlock()
	if w := e.at[taskID]; w != nil {
		return w.shown
	}
	return 0
}

func (e *offsetEvents) MessageDelta(d agent.Delta) {
	e.benchEvents.MessageDelta(d)
	e.mu.Lock()
	defer e.mu.Unlock()
	w := e.at[d.TaskID]
	if w == nil {
		w = &offsetWatch{want: -1, reached: make(chan struct{})}
		e.at[d.TaskID] = w
	}
	before := w.shown
	w.shown = d.Offset + len(d.Text)
	if w.want >= 0 && before < w.want && w.shown >= w.want {
		close(w.reached)
	}
}

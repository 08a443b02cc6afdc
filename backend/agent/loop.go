package agent

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/errand-app/errand/backend/chat"
	"github.com/errand-app/errand/backend/llm"
)

// Loop rules.
const (
	// maxInvalidCalls invalid tool calls in a row end the task.
	maxInvalidCalls = 3
	// A call repeated with the same arguments nudgeRepeats times in a row
	// gets a note to the model; pauseRepeats times pauses the task.
	nudgeRepeats = 3
	pauseRepeats = 5
	// What "continue" grants when a limit is reached.
	extraSteps   = 25
	extraMinutes = 10
	extraCostUSD = 1.0
)

// loopState is what the loop remembers between steps. It is rebuilt empty
// when a task resumes: it only guards against runaway behaviour.
type loopState struct {
	textStreak   int // text-only replies in a row
	invalidCalls int // invalid tool calls in a row
	lastCall     string
	repeats      int
	toolTime     time.Duration // the last tool's run time, not yet stored
	denied       bool          // the person denied the last call, not yet stored
	// completion is task_complete's result while the completion is
	// reviewed; unanswered is set once a reflection gave no verdict.
	completion chat.Message
	unanswered bool
}

// loop is the task's life: call the model, act on its reply, repeat until
// the task ends. Any write refused because the task has ended (errEnded), or
// a cancelled context, means Stop got there first: the loop just returns.
func (rn *run) loop(ctx context.Context) {
	defer rn.closeWorkspace()
	err := rn.steps(ctx)
	switch {
	case err == nil, errors.Is(err, errEnded), ctx.Err() != nil:
		return
	default:
		msg := chat.ErrorMessage(err)
		// The task shows the message; the log gets the causes behind it.
		t := rn.snapshot()
		slog.Error("task failed", "task", t.ID, "conversation", t.ConversationID, "code", chat.ErrorCode(err), "err", err)
		if _, ferr := rn.finish(chat.StatusError, msg, "The task failed: "+msg); ferr != nil {
			slog.Error("store failed task", "task", rn.snapshot().ID, "err", ferr)
		}
	}
}

// steps runs the loop until the task ends. A nil return means it ended
// itself (completed).
func (rn *run) steps(ctx context.Context) error {
	st := &loopState{}
	// A task that was paused when Errand closed is paused still: nothing
	// runs (not even the call a repeat pause blocked) before Continue.
	if reason, paused := rn.restoredPause(); paused {
		if err := rn.pause(ctx, reason, rn.snapshot().PendingQuestion); err != nil {
			return err
		}
	}
	// A resumed task first answers the tool calls it left open.
	open, err := rn.openCalls(ctx)
	if err != nil {
		return err
	}
	if len(open) > 0 {
		summary, done, err := rn.runToolCalls(ctx, st, open)
		if err != nil {
			return err
		}
		if done {
			if more, err := rn.reviewCompletion(ctx, st, summary); err != nil || !more {
				return err
			}
		}
	}
	rn.forgetRestored()
	// A reflection cut off by a restart is over: the task works again.
	if rn.snapshot().Reflecting {
		if err := rn.update(func(t *chat.Task) { t.Reflecting = false }); err != nil {
			return err
		}
	}

	mode := rn.snapshot().Mode
	for {
		if mode == chat.ModeAgent {
			if err := rn.checkLimits(ctx); err != nil {
				return err
			}
			if err := rn.stepDelay(ctx); err != nil {
				return err
			}
		}
		// What the person added while the last step ran reaches the
		// model now, after that step's tool results.
		if _, err := rn.takeQueued(); err != nil {
			return err
		}
		if err := rn.update(func(t *chat.Task) {
			t.Status = chat.StatusThinking
			t.StepCount++
			t.CurrentTool = ""
		}); err != nil {
			return err
		}
		resp, err := rn.callModel(ctx, mode, st)
		if errors.Is(err, errTimeLimit) {
			// The call was cut at the time limit: the limit pauses the
			// task, and Continue runs this step again.
			if err := rn.update(func(t *chat.Task) { t.StepCount-- }); err != nil {
				return err
			}
			continue
		}
		if errors.Is(err, llm.ErrNoTools) && mode == chat.ModeAgent {
			// The model cannot use tools: it answers directly instead.
			if err := rn.fallBackToChat(); err != nil {
				return err
			}
			mode = chat.ModeChat
			resp, err = rn.callModel(ctx, mode, st)
		}
		if err != nil {
			return err
		}

		if len(resp.ToolCalls) == 0 {
			st.textStreak++
			// Chat mode is one reply. In agent mode a reply that says it is
			// done, or a second text-only reply in a row, came back as a
			// task_complete call (loopState.doneInWords).
			if mode == chat.ModeChat {
				more, err := rn.completeUnlessQueued(truncate(resp.Content, 280))
				if err != nil || !more {
					return err
				}
				st.textStreak = 0
				continue
			}
			if err := rn.update(func(t *chat.Task) { t.Status = chat.StatusRunning }); err != nil {
				return err
			}
			continue
		}
		st.textStreak = 0

		summary, done, err := rn.runToolCalls(ctx, st, resp.ToolCalls)
		if err != nil {
			return err
		}
		if done {
			if more, err := rn.reviewCompletion(ctx, st, summary); err != nil || !more {
				return err
			}
		}
	}
}

// openCalls are the task's tool calls that have no result yet (none
// when the task was just begun).
func (rn *run) openCalls(ctx context.Context) ([]chat.ToolCall, error) {
	if rn.fresh {
		return nil, nil
	}
	msgs, err := rn.r.opts.Store.TaskCalls(ctx, rn.snapshot().ID)
	if err != nil {
		return nil, err
	}
	return openToolCalls(msgs), nil
}

// stepDelay waits the configured pause between model calls.
func (rn *run) stepDelay(ctx context.Context) error {
	if rn.snapshot().StepCount == 0 {
		return nil
	}
	s := rn.r.settings(ctx)
	if s.StepDelayMS <= 0 {
		return nil
	}
	t := time.NewTimer(time.Duration(s.StepDelayMS) * time.Millisecond)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// callModel sends the conversation to the model and stores its reply: the
// streamed text as it arrives, then the finished message with its tool
// calls, usage and cost. In agent mode the call is cut when the task's
// time limit is reached (errTimeLimit), and a reply that says in words that
// the task is done is stored as the task_complete call it stands for.
func (rn *run) callModel(ctx context.Context, mode chat.TaskMode, st *loopState) (llm.Response, error) {
	ctx, cancel := rn.timeLimited(ctx, mode == chat.ModeAgent)
	defer cancel()
	settings := rn.r.settings(ctx)
	system, tools := rn.systemPrompt(settings, mode), toolSet{}
	if mode == chat.ModeAgent {
		tools = rn.r.agentTools(settings, rn.def)
		if rn.small(settings) {
			tools = tools.compact()
		}
	}
	var done func(*llm.Response)
	if mode == chat.ModeAgent {
		done = st.doneInWords
	}
	return rn.callModelWith(ctx, system, tools, mode == chat.ModeAgent, done)
}

// callModelWith is callModel with the instructions and tools given; done,
// if set, may turn the reply into another before it is stored. A call whose
// server stalls is tried once more, its cut reply folded away; a second
// stall fails with a message saying so.
func (rn *run) callModelWith(ctx context.Context, system string, tools toolSet, agentMode bool, done func(*llm.Response)) (llm.Response, error) {
	opts := rn.r.opts
	settings := rn.r.settings(ctx)
	// The facts to remember, read for every request: an edit reaches the next one.
	system = rn.withMemory(ctx, system, settings, agentMode)

	start := time.Now()
	var v view
	var resp llm.Response
	var msg chat.Message
	var thoughtMS int64
	// A server that finds the request too long and states its context
	// length is taken at its word: the request is planned anew for that
	// length (kept in the settings). Otherwise, or if that is refused too,
	// it gets one retry, compacted harder.
	learned, squeeze, stalls := false, 0.0, 0
	for {
		var err error
		if v, err = rn.buildRequest(ctx, system, tools, agentMode, squeeze); err != nil {
			if timeUp(ctx) {
				return llm.Response{}, rn.stoppedByTimeLimit(start)
			}
			return llm.Response{}, err
		}
		if err := rn.withoutRefusedImages(&v); err != nil {
			return llm.Response{}, err
		}
		w := newStreamWriter(rn, opts.FlushInterval)
		resp, err = behindWindow(func() (llm.Response, error) {
			return rn.provider.Stream(ctx, v.req, llm.Deltas{Text: w.write, Reasoning: w.think})
		})
		var werr error
		msg, thoughtMS, werr = w.close(resp.Reasoning != "")
		if cut := err != nil && timeUp(ctx); cut || stalled(ctx, err) {
			if werr == nil {
				werr = rn.cutOff(msg)
			}
			switch {
			case werr != nil:
				return resp, werr
			case cut:
				return resp, rn.stoppedByTimeLimit(start)
			case stalls > 0:
				return resp, stallFailure(err)
			}
			stalls++
			logStallRetry(err, "task", rn.snapshot().ID, "step", rn.snapshot().StepCount)
			continue
		}
		if errors.Is(err, llm.ErrNoImages) && msg.ID == "" && ctx.Err() == nil && llm.HasImages(v.req.Messages) {
			// The server refused the images: the step is tried again
			// without them, and the person told why.
			rn.r.imagesRefused(rn.provider.Model())
			continue
		}
		if errors.Is(err, llm.ErrContextFull) && msg.ID == "" && ctx.Err() == nil {
			if !learned && rn.learnContextLength(ctx, llm.StatedContextLimit(err), v.length) {
				learned = true
				continue
			}
			if squeeze == 0 {
				slog.Warn("the model server found the request too long; compacting harder and retrying",
					"task", rn.snapshot().ID, "counted", v.tokens, "contextLength", v.length)
				squeeze = 0.5
				continue
			}
			return resp, chat.Wrap(chat.CodeModel, err,
				"The conversation is too long for the model's context window (%d tokens here), even after summarising older messages. "+
					"Raise the model's context length in Settings to what the model server really allows, or start a new conversation.", v.length)
		}
		if err != nil {
			return resp, err
		}
		if werr != nil {
			return resp, werr
		}
		break
	}
	rn.win.counter.Observe(v.raw, int(resp.Usage.PromptTokens))
	if done != nil {
		done(&resp)
	}
	price := settings.Prices[rn.provider.Model()]
	cost := price.Cost(resp.Usage)
	if err := rn.update(func(t *chat.Task) {
		t.Usage = t.Usage.Add(resp.Usage)
		t.CostUSD += cost
		t.ActiveMS += time.Since(start).Milliseconds()
		t.ContextTokens, t.ContextLimit = v.tokens, v.length
	}); err != nil {
		return resp, err
	}

	usage := resp.Usage
	var err error
	switch {
	case msg.ID != "":
		msg.Content = resp.Content
		msg.Reasoning, msg.ReasoningMS, msg.ReasoningData = resp.Reasoning, thoughtMS, resp.ReasoningData
		msg.ToolCalls = resp.ToolCalls
		msg.Streaming = false
		msg.Usage, msg.CostUSD = &usage, cost
		_, err = rn.replace(msg)
	case resp.Content != "" || len(resp.ToolCalls) > 0 || resp.Reasoning != "":
		m := rn.newMessage(chat.RoleAssistant, resp.Content)
		m.Reasoning, m.ReasoningMS, m.ReasoningData = resp.Reasoning, thoughtMS, resp.ReasoningData
		m.ToolCalls = resp.ToolCalls
		m.Usage, m.CostUSD = &usage, cost
		_, err = rn.add(m)
	}
	return resp, err
}

// systemPrompt is the task's instructions: Errand's (or the person's
// replacement of them in Settings), or its agent's followed by the agentic
// rules, Errand's own in their compact form for a small model; and, when
// the person switched agents, a note saying so.
func (rn *run) systemPrompt(settings chat.Settings, mode chat.TaskMode) string {
	var system string
	small := rn.small(settings)
	switch {
	case rn.def.ID == chat.AgentErrand && mode == chat.ModeChat:
		system = ChatSystemPrompt
	case rn.def.ID == chat.AgentErrand:
		system = rn.r.opts.SystemPrompt
		if small && system == AgentSystemPrompt {
			system = CompactSystemPrompt
		}
		if custom := strings.TrimSpace(settings.SystemPrompt); custom != "" {
			system = custom
		}
	case mode == chat.ModeChat:
		system = rn.def.Instructions
	case small:
		system = strings.TrimSpace(rn.def.Instructions) + "\n\n" + CompactRules
	default:
		system = strings.TrimSpace(rn.def.Instructions) + "\n\n" + AgenticRules
	}
	if from := rn.snapshot().SwitchedFrom; from != "" {
		system += fmt.Sprintf(switchNote, from, from)
	}
	return system
}

// checkLimits pauses the task while a limit is reached, until the person
// lets it continue (the limit is raised) or stops it.
func (rn *run) checkLimits(ctx context.Context) error {
	for {
		t := rn.snapshot()
		l := t.Limits
		var reason chat.PauseReason
		var question string
		switch {
		case l.MaxSteps > 0 && t.StepCount >= l.MaxSteps:
			reason = chat.PauseSteps
			question = fmt.Sprintf("Limit reached: %d steps. Continue for %d more steps, or stop?", l.MaxSteps, extraSteps)
		case l.MaxMinutes > 0 && t.ActiveMS >= int64(l.MaxMinutes*float64(time.Minute/time.Millisecond)):
			reason = chat.PauseTime
			question = fmt.Sprintf("Limit reached: %s of work. Continue for %d more minutes, or stop?", minutes(l.MaxMinutes), extraMinutes)
		case l.MaxCostUSD > 0 && t.CostUSD >= l.MaxCostUSD:
			reason = chat.PauseCost
			question = fmt.Sprintf("Limit reached: $%.2f spent. Continue for $%.2f more, or stop?", t.CostUSD, extraCostUSD)
		default:
			return nil
		}
		if err := rn.pause(ctx, reason, question); err != nil {
			return err
		}
	}
}

func minutes(m float64) string {
	if m == float64(int(m)) {
		return fmt.Sprintf("%d minutes", int(m))
	}
	return fmt.Sprintf("%.1f minutes", m)
}

// pause waits for the person to let the task go on; their Continue raises
// the limit that was reached.
func (rn *run) pause(ctx context.Context, reason chat.PauseReason, question string) error {
	_, err := rn.waitFor(ctx, &wait{kind: waitProceed, id: string(reason)}, func(t *chat.Task) {
		t.Status = chat.StatusPaused
		t.PauseReason = reason
		t.PendingQuestion = question
		t.CurrentTool = ""
	})
	return err
}

// ask shows the question of the ask_user call and waits for the answer or
// for Stop.
func (rn *run) ask(ctx context.Context, callID string, a askUserArgs) (string, error) {
	d, err := rn.waitFor(ctx, &wait{kind: waitAnswer, id: callID}, func(t *chat.Task) {
		t.Status = chat.StatusWaitingUser
		t.PendingQuestion = a.Question
		t.PendingChoices = a.Choices
		t.PendingMultiple, t.PendingAllowOther = a.Multiple, a.AllowOther
		t.PendingFields = a.Fields
		t.Input = a.Input
	})
	return d.text, err
}

func (rn *run) complete(summary string) error {
	if err := rn.update(func(t *chat.Task) { t.Summary = summary }); err != nil {
		return err
	}
	if _, err := rn.finish(chat.StatusCompleted, "", ""); err != nil {
		return err
	}
	rn.completed()
	return nil
}

func truncate(s string, max int) string {
	r := []rune(s)
	if len(r) <= max {
		return s
	}
	return string(r[:max-1]) + "…"
}

package agent

import (
	"context"
	"errors"
	"fmt"
	"log/slog"

	"github.com/errand-app/errand/backend/chat"
	"github.com/errand-app/errand/backend/llm"
)

// loop is the task's life: call the model, act on its reply, repeat until
// the task ends. Any write refused because the task has ended (errEnded), or
// a cancelled context, means Stop got there first: the loop just returns.
func (rn *run) loop(ctx context.Context) {
	err := rn.steps(ctx)
	switch {
	case err == nil, errors.Is(err, errEnded), ctx.Err() != nil:
		return
	default:
		if _, ferr := rn.finish(chat.StatusError, chat.ErrorMessage(err), "The task failed: "+chat.ErrorMessage(err)); ferr != nil {
			slog.Error("store failed task", "task", rn.snapshot().ID, "err", ferr)
		}
	}
}

// steps runs the loop until the task ends. A nil return means it ended
// itself (completed, or the step limit).
func (rn *run) steps(ctx context.Context) error {
	opts := rn.r.opts
	mode := rn.snapshot().Mode
	textStreak := 0 // text-only replies in a row
	for {
		if rn.snapshot().StepCount >= opts.MaxSteps {
			msg := fmt.Sprintf("Reached the limit of %d steps before the task was finished", opts.MaxSteps)
			_, err := rn.finish(chat.StatusError, msg, msg+".")
			return err
		}
		if err := rn.update(func(t *chat.Task) {
			t.Status = chat.StatusThinking
			t.StepCount++
			t.CurrentTool = ""
		}); err != nil {
			return err
		}
		resp, err := rn.callModel(ctx, mode)
		if err != nil {
			return err
		}

		if len(resp.ToolCalls) == 0 {
			textStreak++
			// Chat mode is one reply. In agent mode a second text-only reply
			// in a row is taken as the end: a model that never calls
			// task_complete must not loop all night.
			if mode == chat.ModeChat || textStreak >= 2 {
				return rn.complete(truncate(resp.Content, 280))
			}
			if err := rn.update(func(t *chat.Task) { t.Status = chat.StatusRunning }); err != nil {
				return err
			}
			continue
		}
		textStreak = 0

		summary, done, err := rn.runToolCalls(ctx, resp.ToolCalls)
		if err != nil {
			return err
		}
		if done {
			return rn.complete(summary)
		}
	}
}

// callModel sends the conversation to the model and stores its reply: the
// streamed text as it arrives, then the finished message with its tool calls.
func (rn *run) callModel(ctx context.Context, mode chat.TaskMode) (llm.Response, error) {
	opts := rn.r.opts
	history, err := opts.Store.Messages(ctx, rn.snapshot().ConversationID)
	if err != nil {
		return llm.Response{}, err
	}
	req := llm.Request{}
	if mode == chat.ModeAgent {
		req.Messages = buildContext(opts.SystemPrompt, history, true)
		req.Tools = controlTools
	} else {
		req.Messages = buildContext(ChatSystemPrompt, history, false)
	}

	w := newStreamWriter(rn, opts.FlushInterval)
	resp, err := opts.Provider.Stream(ctx, req, w.write)
	msg, werr := w.close()
	if err != nil {
		return resp, err
	}
	if werr != nil {
		return resp, werr
	}
	if err := rn.update(func(t *chat.Task) { t.Usage = t.Usage.Add(resp.Usage) }); err != nil {
		return resp, err
	}

	switch {
	case msg.ID != "":
		msg.Content = resp.Content
		msg.ToolCalls = resp.ToolCalls
		msg.Streaming = false
		_, err = rn.replace(msg)
	case resp.Content != "" || len(resp.ToolCalls) > 0:
		m := rn.newMessage(chat.RoleAssistant, resp.Content)
		m.ToolCalls = resp.ToolCalls
		_, err = rn.add(m)
	}
	return resp, err
}

// runToolCalls answers every tool call of one reply, in order, with exactly
// one stored result each. It reports whether task_complete was called (and
// its summary); calls after it are answered as not run.
func (rn *run) runToolCalls(ctx context.Context, calls []chat.ToolCall) (summary string, done bool, err error) {
	for _, call := range calls {
		if err := ctx.Err(); err != nil {
			return "", false, err
		}
		var result string
		var isErr bool
		switch {
		case done:
			result, isErr = "Not run: the task was already marked complete.", true
		case call.Name == ToolTaskComplete:
			a, perr := parseTaskComplete(call.Arguments)
			if perr != nil {
				result, isErr = perr.Error(), true
				break
			}
			summary, done = a.Summary, true
			result = "The task is marked complete."
		case call.Name == ToolAskUser:
			a, perr := parseAskUser(call.Arguments)
			if perr != nil {
				result, isErr = perr.Error(), true
				break
			}
			answer, werr := rn.ask(ctx, a)
			if werr != nil {
				return "", false, werr
			}
			result = answer
		case call.Name == ToolSendUpdate:
			if _, perr := parseSendUpdate(call.Arguments); perr != nil {
				result, isErr = perr.Error(), true
				break
			}
			result = "The update was shown to the user."
		default:
			result = fmt.Sprintf("Unknown tool %q. The tools that exist are: %s.", call.Name, toolNames(controlTools))
			isErr = true
		}
		m := rn.newMessage(chat.RoleTool, result)
		m.ToolCallID, m.ToolName, m.IsError = call.ID, call.Name, isErr
		if _, err := rn.add(m); err != nil {
			return "", false, err
		}
	}
	return summary, done, nil
}

// ask shows the question and waits for the answer or for Stop.
func (rn *run) ask(ctx context.Context, a askUserArgs) (string, error) {
	if err := rn.update(func(t *chat.Task) {
		t.Status = chat.StatusWaitingUser
		t.PendingQuestion = a.Question
		t.PendingChoices = a.Choices
	}); err != nil {
		return "", err
	}
	select {
	case answer := <-rn.answers:
		err := rn.update(func(t *chat.Task) {
			t.Status = chat.StatusRunning
			t.PendingQuestion = ""
			t.PendingChoices = nil
		})
		return answer, err
	case <-ctx.Done():
		return "", ctx.Err()
	}
}

func (rn *run) complete(summary string) error {
	if err := rn.update(func(t *chat.Task) { t.Summary = summary }); err != nil {
		return err
	}
	_, err := rn.finish(chat.StatusCompleted, "", "")
	return err
}

func truncate(s string, max int) string {
	r := []rune(s)
	if len(r) <= max {
		return s
	}
	return string(r[:max-1]) + "…"
}

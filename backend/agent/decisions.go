package agent

import (
	"context"
	"strings"

	"github.com/errand-app/errand/backend/chat"
)

// The person's decisions, handed to a waiting task.

// Respond answers the question a waiting task asked. It fails with
// CodeInvalid for an empty answer and CodeConflict when the task is not
// waiting for one.
func (r *Runner) Respond(ctx context.Context, taskID, answer string) error {
	answer = strings.TrimSpace(answer)
	if answer == "" {
		return chat.Errorf(chat.CodeInvalid, "the answer is empty")
	}
	return r.deliver(ctx, taskID, chat.StatusWaitingUser, "", decision{kind: decisionAnswer, text: answer})
}

// Approve lets the tool call waiting for approval run; forTask approves the
// same tool for the rest of the task.
func (r *Runner) Approve(ctx context.Context, taskID, callID string, forTask bool) error {
	return r.deliver(ctx, taskID, chat.StatusWaitingApproval, callID, decision{kind: decisionApprove, forTask: forTask})
}

// Deny refuses the tool call waiting for approval; the model is told, with
// the reason if one is given, and goes on.
func (r *Runner) Deny(ctx context.Context, taskID, callID, reason string) error {
	return r.deliver(ctx, taskID, chat.StatusWaitingApproval, callID,
		decision{kind: decisionDeny, text: strings.TrimSpace(reason)})
}

// Continue lets a paused task go on, raising the limit it reached.
func (r *Runner) Continue(ctx context.Context, taskID string) error {
	return r.deliver(ctx, taskID, chat.StatusPaused, "", decision{kind: decisionProceed})
}

func (r *Runner) deliver(ctx context.Context, taskID string, want chat.TaskStatus, callID string, d decision) error {
	rn := r.lookup(taskID)
	if rn == nil {
		t, err := r.opts.Store.GetTask(ctx, taskID)
		if err != nil {
			return err
		}
		return chat.Errorf(chat.CodeConflict, "the task is not %s (it is %s)", waitingFor(want), t.Status)
	}
	return rn.deliver(want, callID, d)
}

// SettingsChanged must follow every change of the stored settings. It
// applies them to running tasks: a tool call waiting for approval whose
// risk is now approved automatically goes ahead.
func (r *Runner) SettingsChanged(ctx context.Context) {
	s := r.loadSettings(ctx)
	r.mu.Lock()
	runs := make([]*run, 0, len(r.runs))
	for _, rn := range r.runs {
		runs = append(runs, rn)
	}
	r.mu.Unlock()
	for _, rn := range runs {
		t := rn.snapshot()
		if a := t.PendingApproval; t.Status == chat.StatusWaitingApproval && a != nil && s.AutoApprove[a.Risk] {
			_ = rn.deliver(chat.StatusWaitingApproval, a.CallID, decision{kind: decisionApprove})
		}
	}
}

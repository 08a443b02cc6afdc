package agent

import (
	"context"
	"log/slog"
	"strings"

	"github.com/errand-app/errand/backend/chat"
)

// The person's decisions, handed to a waiting task.

// Respond answers the question a waiting task asked. It fails with
// CodeInvalid for an empty answer and CodeConflict when the task is not
// waiting for one (an answer that came second is refused).
func (r *Runner) Respond(ctx context.Context, taskID, answer string) error {
	answer = strings.TrimSpace(answer)
	if answer == "" {
		return chat.Errorf(chat.CodeInvalid, "the answer is empty")
	}
	if err := chat.CheckMessage(answer); err != nil {
		return err
	}
	return r.deliver(ctx, taskID, waitAnswer, "", decision{text: answer})
}

// Approve lets the tool call waiting for approval run; forTask approves the
// same tool for the rest of the task. A call already decided is refused.
func (r *Runner) Approve(ctx context.Context, taskID, callID string, forTask bool) error {
	return r.deliver(ctx, taskID, waitApproval, callID, decision{approved: true, forTask: forTask})
}

// Deny refuses the tool call waiting for approval; the model is told, with
// the reason if one is given, and goes on.
func (r *Runner) Deny(ctx context.Context, taskID, callID, reason string) error {
	if err := chat.CheckMessage(reason); err != nil {
		return err
	}
	return r.deliver(ctx, taskID, waitApproval, callID, decision{text: strings.TrimSpace(reason)})
}

// Continue lets a paused task go on, raising the limit it reached.
func (r *Runner) Continue(ctx context.Context, taskID string) error {
	return r.deliver(ctx, taskID, waitProceed, "", decision{approved: true})
}

func (r *Runner) deliver(ctx context.Context, taskID string, kind waitKind, id string, d decision) error {
	if kind == waitApproval && id == "" {
		return chat.Errorf(chat.CodeInvalid, "the tool call id is missing")
	}
	if err := chat.CheckID("tool call", id); id != "" && err != nil {
		return err
	}
	rn := r.lookup(taskID)
	if rn == nil {
		t, err := r.opts.Store.GetTask(ctx, taskID)
		if err != nil {
			return err
		}
		return alreadyAnswered(kind, t.Status)
	}
	return rn.deliver(kind, id, d)
}

// SettingsChanged must follow every change of the stored settings. It
// applies them to running tasks: a tool call waiting for approval whose
// risk is now approved automatically goes ahead, through the same path as
// the person's Approve (so it answers that call and no other).
func (r *Runner) SettingsChanged(ctx context.Context) {
	s := r.loadSettings(ctx)
	if err := r.opts.Store.ForgetToolsRefused(ctx); err != nil {
		slog.Error("forget the models that refused tools", "err", err)
	}
	r.mu.Lock()
	clear(r.noImages)
	runs := make([]*run, 0, len(r.runs))
	for _, rn := range r.runs {
		runs = append(runs, rn)
	}
	r.mu.Unlock()
	for _, rn := range runs {
		t := rn.snapshot()
		if a := t.PendingApproval; t.Status == chat.StatusWaitingApproval && a != nil && s.AutoApprove[a.Risk] {
			_ = rn.deliver(waitApproval, a.CallID, decision{approved: true})
		}
	}
}

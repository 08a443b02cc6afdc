package agent

import (
	"context"
	"slices"
	"time"

	"github.com/errand-app/errand/backend/chat"
)

// A task waits for the person in three ways: for the answer to a question,
// for the approval of one tool call, and for leave to go on after a pause.
// Each wait has an identity and takes exactly one decision: the decision is
// matched to the wait, consumed, and the task's new state stored, all under
// the run's lock. A second, late or stale decision finds no wait to answer
// and is refused; it can never reach a later wait.

type waitKind int

const (
	waitAnswer waitKind = iota + 1
	waitApproval
	waitProceed
)

func (k waitKind) String() string {
	switch k {
	case waitAnswer:
		return "an answer"
	case waitApproval:
		return "an approval"
	default:
		return "leave to continue"
	}
}

// wait is one open question to the person.
type wait struct {
	kind waitKind
	// id names the wait: the call id of the question or of the tool call
	// to approve, or the pause's reason.
	id    string
	tool  string        // the tool to approve, for "approve for this task"
	reply chan decision // buffered: whoever decides never blocks
}

// decision is the person's answer to a wait.
type decision struct {
	approved bool
	text     string // the answer, or the reason for a denial
	forTask  bool   // approve this tool for the rest of the task
}

// waitFor stores the task in its waiting state (change) and waits for the
// decision that answers this wait, or for Stop. By the time it returns a
// decision, the task is stored as running again.
func (rn *run) waitFor(ctx context.Context, w *wait, change func(t *chat.Task)) (decision, error) {
	rn.mu.Lock()
	var err error
	if r := rn.restored; r != nil && r.kind == w.kind && (r.id == "" || r.id == w.id) {
		// The wait a restart restored: it may have its decision already.
		rn.restored = nil
		if rn.pending == r {
			r.id = w.id
			err = rn.recordLocked(change)
		}
		w = r
	} else {
		w.reply = make(chan decision, 1)
		if err = rn.recordLocked(change); err == nil {
			rn.pending = w
		}
	}
	rn.mu.Unlock()
	if err != nil {
		return decision{}, err
	}
	select {
	case d := <-w.reply:
		if hook := rn.r.afterDecision; hook != nil {
			hook(rn.snapshot().ID)
		}
		return d, nil
	case <-ctx.Done():
		rn.mu.Lock()
		if rn.pending == w {
			rn.pending = nil
		}
		rn.mu.Unlock()
		return decision{}, ctx.Err()
	}
}

// restore gives a task that waited for the person when Errand closed its
// wait back before its loop starts, so that a decision made at once is
// kept; the loop takes the wait over when it reaches it.
func (rn *run) restore(t chat.Task) {
	w := &wait{reply: make(chan decision, 1)}
	switch t.Status {
	case chat.StatusWaitingUser:
		w.kind = waitAnswer
	case chat.StatusWaitingApproval:
		if t.PendingApproval == nil {
			return
		}
		w.kind, w.id = waitApproval, t.PendingApproval.CallID
		if a := t.PendingApproval; a.Risk != chat.RiskLocalNetwork && a.Risk != chat.RiskNetwork {
			// Leave to reach an address or the network is no approval of
			// the tool: "for this task" never follows from it.
			w.tool = a.Tool
		}
	case chat.StatusPaused:
		w.kind, w.id = waitProceed, string(t.PauseReason)
	default:
		return
	}
	rn.mu.Lock()
	rn.pending, rn.restored = w, w
	rn.mu.Unlock()
}

// restoredPause reports whether the task was paused when Errand closed,
// and why.
func (rn *run) restoredPause() (reason chat.PauseReason, paused bool) {
	rn.mu.Lock()
	defer rn.mu.Unlock()
	if rn.restored == nil || rn.restored.kind != waitProceed {
		return "", false
	}
	return chat.PauseReason(rn.restored.id), true
}

// forgetRestored drops a restored wait the loop did not reach.
func (rn *run) forgetRestored() {
	rn.mu.Lock()
	defer rn.mu.Unlock()
	if rn.restored != nil && rn.pending == rn.restored {
		rn.pending = nil
	}
	rn.restored = nil
}

// deliver answers the task's wait of the given kind, when it is the one
// named (id, when given), with d: it stores the task as running again and
// wakes the loop, in one critical section. Anything else is refused.
func (rn *run) deliver(kind waitKind, id string, d decision) error {
	rn.mu.Lock()
	defer rn.mu.Unlock()
	w := rn.pending
	switch {
	case rn.done:
		return chat.Errorf(chat.CodeConflict, "the task has ended (it is %s)", rn.task.Status)
	case w == nil || w.kind != kind:
		return alreadyAnswered(kind, rn.task.Status)
	case id != "" && w.id != id:
		return chat.Errorf(chat.CodeConflict, "that tool call was already answered, or is not the one waiting for approval")
	}
	if kind == waitAnswer {
		// A form's or several choices' answer is checked against the
		// question; a wrong one is refused here, and the model never sees it.
		text, err := checkAnswer(rn.task, d.text)
		if err != nil {
			return err
		}
		d.text = text
	}
	grant := grantOf(rn.task, kind, d, w)
	if err := rn.recordLocked(func(t *chat.Task) {
		endWait(t, kind)
		grant(t)
	}); err != nil {
		return err
	}
	rn.pending = nil
	w.reply <- d
	return nil
}

// grantOf is what an approval gives for the rest of the task, stored with
// the decision: the network for sandboxed commands, or the tool ("Approve
// for this task"). Anything else grants nothing.
func grantOf(t chat.Task, kind waitKind, d decision, w *wait) func(*chat.Task) {
	switch {
	case kind != waitApproval || !d.approved:
	case t.PendingApproval != nil && t.PendingApproval.Risk == chat.RiskNetwork:
		return func(task *chat.Task) { task.NetworkAllowed = true }
	case d.forTask && w.tool != "":
		return func(task *chat.Task) {
			if !slices.Contains(task.ApprovedTools, w.tool) {
				task.ApprovedTools = append(slices.Clip(task.ApprovedTools), w.tool)
			}
		}
	}
	return func(*chat.Task) {}
}

func alreadyAnswered(kind waitKind, status chat.TaskStatus) error {
	if status.Waiting() {
		return chat.Errorf(chat.CodeConflict, "the task is not waiting for %s (it is %s)", kind, status)
	}
	return chat.Errorf(chat.CodeConflict, "already answered: the task is not waiting for %s any more (it is %s)", kind, status)
}

// endWait is the change of state that ends a wait of the given kind: the
// task is running again, and a pause raises the limit it reached.
func endWait(t *chat.Task, kind waitKind) {
	switch kind {
	case waitAnswer:
		t.PendingQuestion, t.PendingChoices = "", nil
		t.PendingMultiple, t.PendingAllowOther, t.PendingFields, t.Input = false, false, nil, nil
	case waitApproval:
		t.PendingApproval = nil
	case waitProceed:
		raiseLimit(t)
		t.PauseReason, t.PendingQuestion = "", ""
	}
	t.Status = chat.StatusRunning
}

// raiseLimit grants more of the limit that paused the task.
func raiseLimit(t *chat.Task) {
	switch t.PauseReason {
	case chat.PauseSteps:
		t.Limits.MaxSteps = t.StepCount + extraSteps
	case chat.PauseTime:
		t.Limits.MaxMinutes = float64(t.ActiveMS)/float64(time.Minute/time.Millisecond) + extraMinutes
	case chat.PauseCost:
		t.Limits.MaxCostUSD = t.CostUSD + extraCostUSD
	}
}

// checkAnswer checks the answer to the task's question: a form's against
// its fields, several choices' against the choices. It returns the answer
// as the model gets it.
func checkAnswer(t chat.Task, answer string) (string, error) {
	switch {
	case len(t.PendingFields) > 0:
		return chat.ValidateAnswer(t.PendingFields, answer)
	case t.PendingMultiple:
		return chat.ValidateChoices(t.PendingChoices, t.PendingAllowOther, answer)
	}
	return answer, nil
}

package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"strings"

	"github.com/errand-app/errand/backend/chat"
	"github.com/errand-app/errand/backend/tools"
)

func planSchema() map[string]any {
	statuses := []string{string(chat.StepPending), string(chat.StepInProgress), string(chat.StepDone), string(chat.StepSkipped)}
	step := tools.Object(map[string]any{
		"title":  map[string]any{"type": "string"},
		"status": map[string]any{"type": "string", "enum": statuses},
	}, "title", "status")
	return tools.Object(map[string]any{
		"steps": map[string]any{"type": "array", "items": step},
		"note":  map[string]any{"type": "string"},
	}, "steps")
}

// parseUpdatePlan refuses what chat.CleanPlan refuses (no steps, too many,
// an empty title, an unknown status): the model is told what is wrong.
func parseUpdatePlan(args json.RawMessage) (act, error) {
	var a struct {
		Steps []chat.PlanStep `json:"steps"`
		Note  string          `json:"note"`
	}
	if err := json.Unmarshal(args, &a); err != nil {
		return nil, err
	}
	steps, note, err := chat.CleanPlan(a.Steps, a.Note)
	if err != nil {
		return nil, fmt.Errorf("update_plan: %s", chat.ErrorMessage(err))
	}
	return func(ctx context.Context, rn *run, _ string) (outcome, error) {
		p, err := rn.savePlan(ctx, steps, note)
		if err != nil {
			return outcome{}, err
		}
		return outcome{res: tools.Result{Content: fmt.Sprintf("The plan is saved (revision %d): %d of %d steps done.", p.Revision, p.Done(), len(p.Steps))}}, nil
	}, nil
}

// savePlan stores the plan's next revision, then the task showing it
// (and publishes the task).
func (rn *run) savePlan(ctx context.Context, steps []chat.PlanStep, note string) (chat.Plan, error) {
	sctx, cancel := storeCtx()
	defer cancel()
	p, err := rn.r.opts.Store.SavePlan(sctx, rn.snapshot().ID, steps, note)
	if err != nil {
		return p, err
	}
	return p, rn.update(func(t *chat.Task) { t.Plan = &p })
}

// verdict is a reflection's answer.
type verdict struct {
	GoalAchieved bool     `json:"goal_achieved"`
	Issues       []string `json:"issues"`
}

func parseReflect(args json.RawMessage) (act, error) {
	var v verdict
	if err := json.Unmarshal(args, &v); err != nil {
		return nil, err
	}
	issues := v.Issues[:0]
	for _, s := range v.Issues {
		if s = strings.TrimSpace(s); s != "" {
			issues = append(issues, s)
		}
	}
	v.Issues = issues
	if !v.GoalAchieved && len(v.Issues) == 0 {
		return nil, fmt.Errorf(`reflect: name the open issues when goal_achieved is false`)
	}
	return func(ctx context.Context, rn *run, _ string) (outcome, error) {
		if !rn.snapshot().Reflecting {
			return outcome{res: tools.Result{IsError: true, Content: "reflect answers a reflection, and there is none now: Errand asks for one after task_complete. " +
				"Carry on with the task, and call task_complete when it is done."}}, nil
		}
		rn.mu.Lock()
		rn.verdict = &v
		rn.mu.Unlock()
		return outcome{res: tools.Result{Content: rn.verdictNote(v)}}, nil
	}, nil
}

// verdictNote is the reflect call's result: what the model (and the person,
// in the transcript) reads next.
func (rn *run) verdictNote(v verdict) string {
	switch {
	case v.GoalAchieved:
		return "The goal is achieved; the task completes."
	case rn.lastReflection():
		return "The goal is not fully achieved, and the reflection rounds are used up: the task completes with these issues listed as still open:\n- " + strings.Join(v.Issues, "\n- ")
	}
	return "The goal is not achieved yet. Still open:\n- " + strings.Join(v.Issues, "\n- ") +
		"\n\nWork on these now (keep the plan up to date), then call task_complete again."
}

// lastReflection reports whether the reflection under way is the last one
// the settings allow.
func (rn *run) lastReflection() bool {
	return rn.snapshot().Reflections >= rn.r.settings(rn.ctx).ReflectionRounds
}

// willReflect reports whether task_complete is checked before it is
// accepted: the task has a plan, and reflection rounds are left.
func (rn *run) willReflect() bool {
	t := rn.snapshot()
	rounds := rn.r.settings(rn.ctx).ReflectionRounds
	return t.Mode == chat.ModeAgent && t.Plan != nil && rounds > 0 && t.Reflections < rounds && !rn.ended()
}

// reviewCompletion is what follows task_complete: a task with a plan is first
// checked against it (reflect). When the goal is not achieved and rounds
// are left, more is true and the loop goes on with the issues; a check
// that gives no verdict counts once as the goal unmet. Otherwise the task
// completes (listing what is still open, or that the check did not
// answer), unless the person queued a message meanwhile (which also
// withdraws the agent's end of the conversation). task_complete's
// result says which it was (see chat.OutcomeChecking), and what is open.
func (rn *run) reviewCompletion(ctx context.Context, st *loopState, summary string) (more bool, err error) {
	ended, note := chat.ToolOutcome(""), ""
	if rn.willReflect() {
		v, err := rn.reflect(ctx, st, summary)
		if err != nil {
			return false, err
		}
		if more, ended, note = rn.judge(st, v); more {
			return true, rn.settleCompletion(st, chat.OutcomeUnmet, note)
		}
	}
	if n, err := rn.takeQueued(); err != nil || n > 0 {
		if err == nil {
			rn.setEndReason("")
			err = rn.settleCompletion(st, chat.OutcomeUnmet, "")
		}
		return n > 0, err
	}
	if err := rn.settleCompletion(st, ended, note); err != nil {
		return false, err
	}
	if err := rn.endIfEnding(); err != nil {
		return false, err
	}
	if note != "" {
		summary += "\n\n" + note
	}
	return false, rn.complete(summary)
}

// judge reads a reflection's verdict: whether the task goes on (with a
// note for the model, if the verdict's own result does not tell it), else
// how it ends (with a note for the person).
func (rn *run) judge(st *loopState, v *verdict) (more bool, ended chat.ToolOutcome, note string) {
	last := rn.lastReflection()
	switch {
	case v == nil && !st.unanswered && !last:
		st.unanswered = true
		return true, "", unansweredNote
	case v == nil:
		return false, chat.OutcomeUnchecked, uncheckedNote
	case v.GoalAchieved:
		return false, "", ""
	case !last:
		return true, "", ""
	}
	return false, chat.OutcomeIncomplete, "Still open:\n- " + strings.Join(v.Issues, "\n- ")
}

// What task_complete's result says after a reflection that gave no
// verdict: the first time (the model reads it and goes on), and when the
// task completes all the same (the person reads it on the card).
const (
	unansweredNote = "Errand's check of the result against the plan did not answer, so the task is not accepted yet. " +
		"Check the work against the plan's criteria yourself, finish what is missing, then call task_complete again."
	uncheckedNote = "The check of the result against the plan did not answer, so the result is unchecked."
)

// settleCompletion stores how the completion under review ended, on
// task_complete's result (content, when not empty, replaces its text).
func (rn *run) settleCompletion(st *loopState, outcome chat.ToolOutcome, content string) error {
	m := st.completion
	st.completion = chat.Message{}
	if m.ID == "" || (m.Outcome == outcome && content == "") {
		return nil
	}
	m.Outcome = outcome
	if content != "" {
		m.Content = content
	}
	_, err := rn.replace(m)
	return err
}

// reflect runs one reflection: a model call, counted as a step, that sees
// the plan, its criteria and the results and may only call reflect. A
// reply without a verdict gives a nil verdict.
func (rn *run) reflect(ctx context.Context, st *loopState, summary string) (*verdict, error) {
	if err := rn.checkLimits(ctx); err != nil {
		return nil, err
	}
	rn.mu.Lock()
	rn.verdict = nil
	rn.mu.Unlock()
	if err := rn.update(func(t *chat.Task) {
		t.Status = chat.StatusThinking
		t.StepCount++
		t.Reflections++
		t.Reflecting = true
		t.CurrentTool = ""
	}); err != nil {
		return nil, err
	}
	settings := rn.r.settings(ctx)
	t := rn.snapshot()
	system := rn.systemPrompt(settings, chat.ModeAgent) + fmt.Sprintf(reflectionPrompt, planText(*t.Plan), orNone(t.Plan.Note), summary)
	offer := rn.r.toolsWhere(settings, func(name string) bool { return name == ToolReflect })
	resp, err := rn.callModelWith(ctx, system, offer, true, nil)
	if err != nil {
		return nil, err
	}
	if len(resp.ToolCalls) > 0 {
		if _, _, err := rn.runToolCalls(ctx, st, resp.ToolCalls); err != nil {
			return nil, err
		}
	}
	if err := rn.update(func(t *chat.Task) { t.Reflecting = false }); err != nil {
		return nil, err
	}
	rn.mu.Lock()
	v := rn.verdict
	rn.mu.Unlock()
	if v == nil {
		slog.Warn("the reflection gave no verdict", "task", t.ID)
	}
	return v, nil
}

func planText(p chat.Plan) string {
	var b strings.Builder
	for i, s := range p.Steps {
		fmt.Fprintf(&b, "%d. [%s] %s\n", i+1, s.Status, s.Title)
	}
	return b.String()
}

// writePlan adds the task's current plan, when it has one, to the history
// block of the system prompt.
func writePlan(b *strings.Builder, p *chat.Plan) {
	if p == nil {
		return
	}
	fmt.Fprintf(b, "\n### The current plan (revision %d; revise it with update_plan)\n", p.Revision)
	b.WriteString(planText(*p))
	if strings.TrimSpace(p.Note) != "" {
		b.WriteString("Success criteria: " + p.Note + "\n")
	}
}

func orNone(s string) string {
	if strings.TrimSpace(s) == "" {
		return "(none written)"
	}
	return s
}

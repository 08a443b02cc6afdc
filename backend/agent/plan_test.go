package agent

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/errand-app/errand/backend/chat"
	"github.com/errand-app/errand/backend/modelserver/compat"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func planCall(steps ...string) chat.ToolCall {
	var parts []string
	for _, s := range steps {
		title, status, _ := strings.Cut(s, "=")
		parts = append(parts, fmt.Sprintf(`{"title":%q,"status":%q}`, title, status))
	}
	return call(ToolUpdatePlan, `{"steps":[`+strings.Join(parts, ",")+`],"note":"Done when notes.txt exists."}`)
}

func reply(calls ...chat.ToolCall) compat.Reply { return compat.Reply{ToolCalls: calls} }

func reflectReply(achieved bool, issues ...string) compat.Reply {
	list := `[]`
	if len(issues) > 0 {
		list = `["` + strings.Join(issues, `","`) + `"]`
	}
	return reply(call(ToolReflect, fmt.Sprintf(`{"goal_achieved":%t,"issues":%s}`, achieved, list)))
}

// resultsOf are the conversation's tool results for one tool, in order.
func resultsOf(msgs []chat.Message, tool string) []chat.Message {
	var out []chat.Message
	for _, m := range msgs {
		if m.Role == chat.RoleTool && m.ToolName == tool {
			out = append(out, m)
		}
	}
	return out
}

func TestUpdatePlanKeepsRevisionsAndTheTaskShowsTheNewestAfterARestart(t *testing.T) {
	t.Parallel()
	h := newHarness(t, script(t,
		reply(planCall("Read the notes=in_progress", "Write the summary=pending")),
		reply(planCall("Read the notes=done", "Write the summary=in_progress")),
		complete("summarised"),
		reflectReply(true),
	), harnessOpts{})
	conv := h.conversation()
	task := h.start(conv, "Summarise my notes")
	done := h.events.waitStatus(task.ID, chat.StatusCompleted)

	require.NotNil(t, done.Plan)
	assert.Equal(t, 2, done.Plan.Revision)
	assert.Equal(t, "Done when notes.txt exists.", done.Plan.Note)
	assert.Equal(t, 1, done.Plan.Done())
	revs, err := h.store.PlanRevisions(context.Background(), task.ID)
	require.NoError(t, err)
	require.Len(t, revs, 2, "every revision is kept")
	assert.Equal(t, chat.StepInProgress, revs[0].Steps[0].Status)
	assert.Equal(t, chat.StepDone, revs[1].Steps[0].Status)

	// The reflection saw the plan and its criteria, and could only reflect.
	reqs := h.server.Requests()
	require.Len(t, reqs, 4)
	last := reqs[3]
	require.Len(t, last.Tools, 1)
	assert.Equal(t, ToolReflect, last.Tools[0].Function.Name)
	assert.Contains(t, last.Messages[0].Text(), "[done] Read the notes")
	assert.Contains(t, last.Messages[0].Text(), "Done when notes.txt exists.")
	for _, r := range reqs[:3] {
		assert.False(t, r.HasTool(ToolReflect), "reflect is offered only in a reflection")
	}
	assert.Equal(t, 1, done.Reflections)
	assert.False(t, done.Reflecting)
	assert.Equal(t, "summarised", done.Summary)

	h.restart()
	again := h.task(task.ID)
	require.NotNil(t, again.Plan, "the plan is still there after a restart")
	assert.Equal(t, done.Plan.Steps, again.Plan.Steps)
}

func TestBadUpdatePlanInputsAreErrorsToTheModel(t *testing.T) {
	t.Parallel()
	var many []string
	for i := 0; i <= chat.MaxPlanSteps; i++ {
		many = append(many, fmt.Sprintf("Step %d=pending", i))
	}
	update := reply(call(ToolSendUpdate, `{"message":"trying again"}`))
	h := newHarness(t, script(t,
		reply(call(ToolUpdatePlan, `{"steps":[]}`)),
		reply(planCall(many...)),
		update,
		reply(call(ToolUpdatePlan, `{"steps":[{"title":"Later","status":"someday"}]}`)),
		reply(planCall("  =pending")),
		update,
		complete("gave up on a plan"),
	), harnessOpts{})
	conv := h.conversation()
	task := h.start(conv, "Plan badly")
	done := h.events.waitStatus(task.ID, chat.StatusCompleted)

	assert.Nil(t, done.Plan, "no bad plan is stored")
	revs, err := h.store.PlanRevisions(context.Background(), task.ID)
	require.NoError(t, err)
	assert.Empty(t, revs)
	res := resultsOf(h.messages(conv), ToolUpdatePlan)
	require.Len(t, res, 4)
	for i, want := range []string{"at least one step", "at most 50 steps", "must be one of 'pending'", "empty title"} {
		assert.True(t, res[i].IsError, want)
		assert.Contains(t, res[i].Content, want)
	}
	assert.Equal(t, "gave up on a plan", done.Summary, "the task went on and completed without reflection")
}

func TestReflectOutsideAReflectionIsAnErrorResult(t *testing.T) {
	t.Parallel()
	h := newHarness(t, script(t,
		reflectReply(true),
		complete("done"),
	), harnessOpts{})
	conv := h.conversation()
	task := h.start(conv, "Just do it")
	h.events.waitStatus(task.ID, chat.StatusCompleted)
	res := resultsOf(h.messages(conv), ToolReflect)
	require.Len(t, res, 1)
	assert.True(t, res[0].IsError)
	assert.Contains(t, res[0].Content, "there is none now")
}

func TestAReflectionThatFindsAnUnmetCriterionSendsTheTaskOn(t *testing.T) {
	t.Parallel()
	h := newHarness(t, func() func(*compat.Request) compat.Reply {
		steps := script(t,
			reply(planCall("Write notes.txt=in_progress")),
			complete("wrote it"),
			reflectReply(false, "notes.txt is not written yet"),
			reply(planCall("Write notes.txt=done")),
			complete("wrote it, really"),
			reflectReply(true),
		)
		return steps
	}(), harnessOpts{})
	conv := h.conversation()
	task := h.start(conv, "Write notes.txt")
	done := h.events.waitStatus(task.ID, chat.StatusCompleted)

	reqs := h.server.Requests()
	require.Len(t, reqs, 6)
	after := lastMessages(reqs[3], 1)
	assert.True(t, contains(after, "notes.txt is not written yet"), "the issues are the next instruction: %v", after)
	assert.True(t, reqs[3].HasTool(ToolTaskComplete), "the task goes on with its tools")
	assert.Equal(t, 2, done.Reflections)
	assert.Equal(t, 6, done.StepCount, "reflection steps count toward the limits")
	assert.Equal(t, "wrote it, really", done.Summary)
	assert.Len(t, resultsOf(h.messages(conv), ToolReflect), 2, "both reflections are in the transcript")
}

func TestAfterTheLastReflectionRoundTheTaskCompletesListingWhatIsOpen(t *testing.T) {
	t.Parallel()
	h := newHarness(t, script(t,
		reply(planCall("Fix the bug=in_progress")),
		complete("fixed"),
		reflectReply(false, "the test still fails"),
		complete("fixed now"),
		reflectReply(false, "the test still fails", "no changelog entry"),
	), harnessOpts{})
	conv := h.conversation()
	task := h.start(conv, "Fix the bug")
	done := h.events.waitStatus(task.ID, chat.StatusCompleted)
	assert.Equal(t, 2, done.Reflections, "at most two rounds by default")
	assert.Contains(t, done.Summary, "fixed now")
	assert.Contains(t, done.Summary, "Still open:\n- the test still fails\n- no changelog entry")
}

func TestReflectionCanBeTurnedOff(t *testing.T) {
	t.Parallel()
	h := newHarness(t, script(t,
		reply(planCall("Only step=done")),
		complete("done"),
	), harnessOpts{})
	h.settings(func(s *chat.Settings) { s.ReflectionRounds = 0 })
	conv := h.conversation()
	task := h.start(conv, "Quick task")
	done := h.events.waitStatus(task.ID, chat.StatusCompleted)
	assert.Zero(t, done.Reflections)
	assert.NotNil(t, done.Plan)
}

// planAfterSummary plans, then reads big files for turns steps on a small
// model (so the history is summarised), then completes; it records the
// steps after the first summary whose request did not hold the plan.
type planAfterSummary struct {
	long     *longScript
	mu       sync.Mutex
	planned  bool
	after    int // steps after the first summary
	lostPlan int
}

func (s *planAfterSummary) reply(req *compat.Request) compat.Reply {
	if req.AsksForSummary() {
		return s.long.reply(req)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.planned {
		s.planned = true
		return reply(planCall("Audit plan-marker-42 files=in_progress", "Report=pending"))
	}
	if s.long.summaries.Load() > 0 {
		s.after++
		sys := req.Messages[0].Text()
		if !strings.Contains(sys, "### The current plan") || !strings.Contains(sys, "[in_progress] Audit plan-marker-42 files") ||
			!strings.Contains(sys, "Done when notes.txt exists.") {
			s.lostPlan++
		}
	}
	return s.long.reply(req)
}

func TestThePlanStaysInTheRequestAfterTheHistoryIsSummarised(t *testing.T) {
	t.Parallel()
	s := &planAfterSummary{long: &longScript{t: t, turns: twoRounds, mode: summaryGood}}
	h := newHarness(t, s.reply, harnessOpts{contextLength: 4096})
	h.settings(func(st *chat.Settings) {
		st.ContextLengths = map[string]int{"test-model": 4096}
		st.Limits = chat.Limits{MaxSteps: 10000, MaxMinutes: 600, MaxCostUSD: 10000}
		st.ReflectionRounds = 0
	})
	done := runLongTask(t, h, bigFiles)
	require.Equal(t, chat.StatusCompleted, done.Status, done.ErrorMessage)
	require.Positive(t, s.long.summaries.Load(), "the history was summarised")
	require.Positive(t, s.after, "the task went on after the summary")
	assert.Zero(t, s.lostPlan, "every request after the summary holds the plan and its criteria")
	require.NotNil(t, done.Plan)
	assert.Equal(t, 1, done.Plan.Revision)
}

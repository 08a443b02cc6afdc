package main

import (
	"strings"

	"github.com/errand-app/errand/backend/modelserver/compat"
)

// The plan and reflection scripts (see planScript):
//
//	[plan]     update_plan three steps (the first in progress), then the first done and the second in
//	           progress, then ask_user "Go on?" (Yes), then every step done, then task_complete;
//	           its reflection finds the goal achieved
//	[reflect]  update_plan "Write the report", then task_complete "First draft"; the first reflection
//	           finds "the report has no title", after which the step is done and task_complete "Added
//	           the title"; the second reflection finds the goal achieved
//
// Any other task's reflection (a request offering reflect and no
// task_complete) finds the goal achieved.
const (
	planMarker    = "[plan]"
	reflectMarker = "[reflect]"
	reflectIssue  = "the report has no title"
)

var planSteps = []string{"Gather the facts", "Draft the answer", "Check the answer"}

// planScript answers a reflection, or a [plan] or [reflect] task; ok is
// false for every other request.
func planScript(req *compat.Request) (compat.Reply, bool) {
	p := promptIndex(req.Messages)
	if p < 0 {
		return compat.Reply{}, false
	}
	prompt, tail := req.Messages[p].Text(), req.Messages[p+1:]
	switch {
	case req.HasTool("reflect") && !req.HasTool("task_complete"):
		achieved := !strings.Contains(prompt, reflectMarker) || count(tail, "reflect") > 0
		issues := []string{}
		if !achieved {
			issues = append(issues, reflectIssue)
		}
		return call("Checking the result.", "reflect", map[string]any{"goal_achieved": achieved, "issues": issues}), true
	case len(req.Tools) == 0:
		return compat.Reply{}, false
	case strings.Contains(prompt, planMarker):
		return planTask(tail), true
	case strings.Contains(prompt, reflectMarker):
		return reflectTask(tail), true
	}
	return compat.Reply{}, false
}

func planTask(tail []compat.Message) compat.Reply {
	plans := count(tail, "update_plan")
	if _, asked := askAnswer(tail); asked {
		if plans < 3 {
			return call("All steps are done.", "update_plan", planOf(3))
		}
		return call("Finished.", "task_complete", map[string]any{"summary": "Followed the plan"})
	}
	switch plans {
	case 0:
		return call("Here is my plan.", "update_plan", planOf(0))
	case 1:
		return call("The facts are in.", "update_plan", planOf(1))
	}
	return call("", "ask_user", map[string]any{"question": "Go on?", "choices": []string{"Yes"}})
}

func reflectTask(tail []compat.Message) compat.Reply {
	switch {
	case count(tail, "update_plan") == 0:
		return call("", "update_plan", map[string]any{
			"steps": []map[string]any{{"title": "Write the report", "status": "in_progress"}},
			"note":  "Done when the report has a title.",
		})
	case count(tail, "reflect") == 0:
		return call("Here is the report.", "task_complete", map[string]any{"summary": "First draft"})
	case count(tail, "update_plan") == 1:
		return call("Added a title.", "update_plan", map[string]any{
			"steps": []map[string]any{{"title": "Write the report", "status": "done"}},
			"note":  "Done when the report has a title.",
		})
	}
	return call("", "task_complete", map[string]any{"summary": "Added the title"})
}

// planOf is the [plan] plan with its first done steps done and the next in progress.
func planOf(done int) map[string]any {
	return compat.PlanArgs(planSteps, done, "Done when the answer is checked.")
}

// count counts the calls of tool among msgs.
func count(msgs []compat.Message, tool string) int {
	n := 0
	for _, m := range msgs {
		for _, tc := range m.ToolCalls {
			if tc.Function.Name == tool {
				n++
			}
		}
	}
	return n
}

package demo

import (
	"strings"

	"github.com/errand-app/errand/backend/modelserver/compat"
)

// The plan and reflection tools the demo uses when they are offered.
const (
	ToolUpdatePlan = "update_plan"
	ToolReflect    = "reflect"
)

// The demo's plan: three steps, and the criterion its reflection checks.
var demoSteps = []string{"Understand the request", "Ask how you want the result", "Write the answer"}

const demoCriteria = "Done when the answer has the shape you picked."

// planned reports whether the demo plans this task: the request offers
// update_plan.
func planned(req *compat.Request) bool { return req.HasTool(ToolUpdatePlan) }

// planArgs is the demo plan with its first done steps marked done and the
// next one in progress.
func planArgs(done int) map[string]any { return compat.PlanArgs(demoSteps, done, demoCriteria) }

// reflecting reports whether the request is a reflection: it offers
// reflect and nothing to work with.
func reflecting(req *compat.Request) bool {
	return req.HasTool(ToolReflect) && !req.HasTool(ToolTaskComplete)
}

// reflectReply checks the demo's one criterion: the answer before
// task_complete has a shape.
func reflectReply(req *compat.Request) compat.Reply {
	return withCall(req, "Checking the result against the plan: the answer has the shape you picked.", ToolReflect,
		map[string]any{"goal_achieved": true, "issues": []string{}})
}

// planCalls counts the update_plan calls among msgs.
func planCalls(msgs []compat.Message) int {
	n := 0
	for _, m := range msgs {
		for _, tc := range m.ToolCalls {
			if tc.Function.Name == ToolUpdatePlan {
				n++
			}
		}
	}
	return n
}

// afterPlan is the step after an update_plan result: the progress update
// after the first plan, task_complete after the last.
func afterPlan(req *compat.Request, prompt string, tail []compat.Message) compat.Reply {
	if planCalls(tail) == 1 {
		return withCall(req, "", ToolSendUpdate, map[string]any{"message": "Planning: " + echo(prompt)})
	}
	return withCall(req, "", ToolTaskComplete, map[string]any{"summary": "Demo task finished: answered “" + echo(prompt) + "” following the plan."})
}

// withPlanDone is step 3's answer followed by the plan with every step
// done, or by task_complete when update_plan is not offered.
func withPlanDone(req *compat.Request, text, prompt, shape string) compat.Reply {
	if planned(req) {
		return withCall(req, text, ToolUpdatePlan, planArgs(len(demoSteps)))
	}
	return withCall(req, text, ToolTaskComplete, map[string]any{
		"summary": "Demo task finished: answered “" + echo(prompt) + "” as " + shape + ".",
	})
}

func isNudge(prompt string) bool { return strings.HasPrefix(strings.TrimSpace(prompt), nudgePrefix) }

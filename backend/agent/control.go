package agent

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/errand-app/errand/backend/tools"
)

// The control tools: how the model tells the runner it is done, needs the
// user, or has news. The runner handles them itself.
const (
	ToolTaskComplete = "task_complete"
	ToolAskUser      = "ask_user"
	ToolSendUpdate   = "send_update"
)

func stringProp(desc string) map[string]any {
	return map[string]any{"type": "string", "description": desc}
}

// controlSpecs are the control tools as the model sees them.
var controlSpecs = []tools.Spec{
	{
		Name:        ToolTaskComplete,
		Description: "Call this when the task is fully finished. Include a summary of what was accomplished. Do not call it before the work is actually done.",
		Schema:      tools.Object(map[string]any{"summary": stringProp("What was accomplished, for the user.")}, "summary"),
	},
	{
		Name:        ToolAskUser,
		Description: "Ask the user a question and wait for the answer. Use it when you need information you cannot find yourself; do not guess.",
		Schema: tools.Object(map[string]any{
			"question": stringProp("One clear question."),
			"choices": map[string]any{
				"type":        "array",
				"items":       map[string]any{"type": "string"},
				"description": "Optional short answers the user can pick with one click.",
			},
		}, "question"),
	},
	{
		Name:        ToolSendUpdate,
		Description: "Send the user a short progress message and keep working.",
		Schema:      tools.Object(map[string]any{"message": stringProp("The progress message.")}, "message"),
	},
}

// controlChecks go beyond the schema: the texts must say something.
type taskCompleteArgs struct {
	Summary string `json:"summary"`
}

type askUserArgs struct {
	Question string   `json:"question"`
	Choices  []string `json:"choices"`
}

type sendUpdateArgs struct {
	Message string `json:"message"`
}

// parseControl decodes a control call's arguments, already validated
// against the schema, and checks that its text is not blank.
func parseControl(name string, args json.RawMessage) (any, error) {
	switch name {
	case ToolTaskComplete:
		var a taskCompleteArgs
		if err := json.Unmarshal(args, &a); err != nil {
			return nil, err
		}
		if a.Summary = strings.TrimSpace(a.Summary); a.Summary == "" {
			return nil, fmt.Errorf(`task_complete needs a non-empty "summary" string`)
		}
		return a, nil
	case ToolAskUser:
		var a askUserArgs
		if err := json.Unmarshal(args, &a); err != nil {
			return nil, err
		}
		if a.Question = strings.TrimSpace(a.Question); a.Question == "" {
			return nil, fmt.Errorf(`ask_user needs a non-empty "question" string`)
		}
		choices := a.Choices[:0]
		for _, c := range a.Choices {
			if c = strings.TrimSpace(c); c != "" {
				choices = append(choices, c)
			}
		}
		a.Choices = choices
		return a, nil
	case ToolSendUpdate:
		var a sendUpdateArgs
		if err := json.Unmarshal(args, &a); err != nil {
			return nil, err
		}
		if a.Message = strings.TrimSpace(a.Message); a.Message == "" {
			return nil, fmt.Errorf(`send_update needs a non-empty "message" string`)
		}
		return a, nil
	}
	return nil, nil
}

func isControl(name string) bool {
	return name == ToolTaskComplete || name == ToolAskUser || name == ToolSendUpdate
}

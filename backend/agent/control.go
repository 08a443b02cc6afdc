package agent

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/errand-app/errand/backend/chat"
	"github.com/errand-app/errand/backend/tools"
)

// The control tools: how the model tells the runner it is done, needs the
// user, or has news. The runner handles them itself.
const (
	ToolTaskComplete = "task_complete"
	ToolAskUser      = "ask_user"
	ToolSendUpdate   = "send_update"
	// ToolRemember and ToolForget keep and drop explicit facts; they are
	// offered only while memory is on.
	ToolRemember = "remember"
	ToolForget   = "forget"
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
	{
		Name:        ToolRemember,
		Description: "Remember a fact for later requests: a short key and its value. Remembering a key again replaces its value. The user can see, edit and delete every fact. Never remember passwords, API keys or other secrets.",
		Schema: tools.Object(map[string]any{
			"key":   stringProp("A short name for the fact, e.g. \"preferred language\"."),
			"value": stringProp("The fact itself."),
			"scope": map[string]any{
				"type":        "string",
				"enum":        []string{string(chat.ScopeConversation), string(chat.ScopeGlobal)},
				"description": "\"conversation\" (the default) keeps it for this conversation; \"global\" for every conversation.",
			},
		}, "key", "value"),
	},
	{
		Name:        ToolForget,
		Description: "Forget a remembered fact by its key: this conversation's if it has one, else the global one.",
		Schema:      tools.Object(map[string]any{"key": stringProp("The key of the fact to forget.")}, "key"),
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

type rememberArgs struct {
	Key   string         `json:"key"`
	Value string         `json:"value"`
	Scope chat.FactScope `json:"scope"`
}

type forgetArgs struct {
	Key string `json:"key"`
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
	case ToolRemember:
		var a rememberArgs
		if err := json.Unmarshal(args, &a); err != nil {
			return nil, err
		}
		scope, err := chat.ParseScope(string(a.Scope))
		if err != nil {
			return nil, err
		}
		a.Scope = scope
		return a, nil
	case ToolForget:
		var a forgetArgs
		if err := json.Unmarshal(args, &a); err != nil {
			return nil, err
		}
		if a.Key = strings.TrimSpace(a.Key); a.Key == "" {
			return nil, fmt.Errorf(`forget needs a non-empty "key" string`)
		}
		return a, nil
	}
	return nil, nil
}

func isControl(name string) bool {
	switch name {
	case ToolTaskComplete, ToolAskUser, ToolSendUpdate, ToolRemember, ToolForget:
		return true
	}
	return false
}

package agent

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/errand-app/errand/backend/llm"
)

// The control tools: how the model tells the runner it is done, needs the
// user, or has news. They are handled by the runner itself.
const (
	ToolTaskComplete = "task_complete"
	ToolAskUser      = "ask_user"
	ToolSendUpdate   = "send_update"
)

func stringProp(desc string) map[string]any {
	return map[string]any{"type": "string", "description": desc}
}

func objectSchema(props map[string]any, required ...string) map[string]any {
	return map[string]any{
		"type":                 "object",
		"properties":           props,
		"required":             required,
		"additionalProperties": false,
	}
}

// controlTools are the definitions the model sees.
var controlTools = []llm.Tool{
	{
		Name:        ToolTaskComplete,
		Description: "Call this when the task is fully finished. Include a summary of what was accomplished. Do not call it before the work is actually done.",
		Parameters:  objectSchema(map[string]any{"summary": stringProp("What was accomplished, for the user.")}, "summary"),
	},
	{
		Name:        ToolAskUser,
		Description: "Ask the user a question and wait for the answer. Use it when you need information you cannot find yourself; do not guess.",
		Parameters: objectSchema(map[string]any{
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
		Parameters:  objectSchema(map[string]any{"message": stringProp("The progress message.")}, "message"),
	},
}

func toolNames(tools []llm.Tool) string {
	names := make([]string, len(tools))
	for i, t := range tools {
		names[i] = t.Name
	}
	return strings.Join(names, ", ")
}

// decodeArgs parses a tool call's JSON arguments strictly into v. Its error
// is written for the model: what is wrong and what is expected.
func decodeArgs(tool, raw string, v any) error {
	if strings.TrimSpace(raw) == "" {
		raw = "{}"
	}
	dec := json.NewDecoder(bytes.NewReader([]byte(raw)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("the arguments of %s are not a valid JSON object for its schema (%v); send a JSON object with the documented fields", tool, err)
	}
	if dec.More() {
		return fmt.Errorf("the arguments of %s hold more than one JSON value; send exactly one JSON object", tool)
	}
	return nil
}

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

func parseTaskComplete(raw string) (taskCompleteArgs, error) {
	var a taskCompleteArgs
	if err := decodeArgs(ToolTaskComplete, raw, &a); err != nil {
		return a, err
	}
	a.Summary = strings.TrimSpace(a.Summary)
	if a.Summary == "" {
		return a, fmt.Errorf(`task_complete needs a non-empty "summary" string`)
	}
	return a, nil
}

func parseAskUser(raw string) (askUserArgs, error) {
	var a askUserArgs
	if err := decodeArgs(ToolAskUser, raw, &a); err != nil {
		return a, err
	}
	a.Question = strings.TrimSpace(a.Question)
	if a.Question == "" {
		return a, fmt.Errorf(`ask_user needs a non-empty "question" string`)
	}
	choices := a.Choices[:0]
	for _, c := range a.Choices {
		if c = strings.TrimSpace(c); c != "" {
			choices = append(choices, c)
		}
	}
	a.Choices = choices
	return a, nil
}

func parseSendUpdate(raw string) (sendUpdateArgs, error) {
	var a sendUpdateArgs
	if err := decodeArgs(ToolSendUpdate, raw, &a); err != nil {
		return a, err
	}
	a.Message = strings.TrimSpace(a.Message)
	if a.Message == "" {
		return a, fmt.Errorf(`send_update needs a non-empty "message" string`)
	}
	return a, nil
}

package agent

import (
	"context"
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
	// ToolUpdatePlan writes and revises the task's plan; ToolReflect is
	// the answer to a reflection, offered only then.
	ToolUpdatePlan = "update_plan"
	ToolReflect    = "reflect"
)

// outcome is what carrying out a control call gives the loop: the result
// for the model, and whether (and how) the task is done.
type outcome struct {
	res     tools.Result
	summary string
	done    bool
}

// act carries out a parsed control call; a Go error ends the task (Stop,
// storage), as for any tool.
type act func(ctx context.Context, rn *run, callID string) (outcome, error)

// control is one control tool: its spec as the model sees it, and parse,
// which decodes its arguments (already valid against the schema), refuses
// what the schema cannot (strict parsing: the error goes to the model as an
// invalid call) and returns what to do. The loop dispatches on this table:
// a new control tool is a row.
type control struct {
	spec  tools.Spec
	parse func(args json.RawMessage) (act, error)
}

var controls = []control{
	{
		spec: tools.Spec{
			Name:        ToolTaskComplete,
			Description: "Call this when the task is fully finished. Include a summary of what was accomplished. Do not call it before the work is actually done.",
			Schema:      tools.Object(map[string]any{"summary": stringProp("What was accomplished, for the user.")}, "summary"),
		},
		parse: parseTaskComplete,
	},
	{
		spec: tools.Spec{
			Name: ToolAskUser,
			Description: "Ask the user a question and wait for the answer; do not guess. " +
				"choices: one click answers (multiple: a JSON array of picks; allow_other: free text too). fields: a form, answered as a JSON object.",
			Schema: askUserSchema(),
		},
		parse: parseAskUser,
	},
	{
		spec: tools.Spec{
			Name:        ToolSendUpdate,
			Description: "Send the user a short progress message and keep working.",
			Schema:      tools.Object(map[string]any{"message": stringProp("The progress message."), "input": inputSchema()}, "message"),
		},
		parse: parseSendUpdate,
	},
	{
		spec: tools.Spec{
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
		parse: parseRemember,
	},
	{
		spec: tools.Spec{
			Name:        ToolForget,
			Description: "Forget a remembered fact by its key: this conversation's if it has one, else the global one.",
			Schema:      tools.Object(map[string]any{"key": stringProp("The key of the fact to forget.")}, "key"),
		},
		parse: parseForget,
	},
	{
		spec: tools.Spec{
			Name:        ToolUpdatePlan,
			Description: "Write or revise your plan (the whole plan each time), shown as a checklist. note: the success criteria.",
			Schema:      planSchema(),
		},
		parse: parseUpdatePlan,
	},
	{
		spec: tools.Spec{
			Name:        ToolReflect,
			Description: "Answer a reflection: whether the task's goal is achieved, and the issues still open. Only during a reflection.",
			Schema: tools.Object(map[string]any{
				"goal_achieved": map[string]any{"type": "boolean", "description": "True only when every success criterion is met."},
				"issues":        map[string]any{"type": "array", "items": map[string]any{"type": "string"}, "description": "What is still missing or wrong; empty when the goal is achieved."},
			}, "goal_achieved", "issues"),
		},
		parse: parseReflect,
	},
	endConversationControl,
}

func stringProp(desc string) map[string]any {
	return map[string]any{"type": "string", "description": desc}
}

func controlSpecs() []tools.Spec {
	out := make([]tools.Spec, len(controls))
	for i, c := range controls {
		out[i] = c.spec
	}
	return out
}

func controlFor(name string) (control, bool) {
	for _, c := range controls {
		if c.spec.Name == name {
			return c, true
		}
	}
	return control{}, false
}

func isControl(name string) bool {
	_, ok := controlFor(name)
	return ok
}

// inputSchema is the window's state a question or update asks for: the
// composer's, and whether the history before it and the End button show.
func inputSchema() map[string]any {
	flag := map[string]any{"type": "boolean"}
	return tools.Object(map[string]any{
		"disabled": flag, "placeholder": map[string]any{"type": "string"},
		"show_history": flag, "show_end_button": flag,
	})
}

func askUserSchema() map[string]any {
	types := make([]string, len(chat.FieldTypes))
	for i, t := range chat.FieldTypes {
		types[i] = string(t)
	}
	strs := map[string]any{"type": "array", "items": map[string]any{"type": "string"}}
	str, num, flag := map[string]any{"type": "string"}, map[string]any{"type": "number"}, map[string]any{"type": "boolean"}
	field := tools.Object(map[string]any{
		"name": str, "label": str, "type": map[string]any{"type": "string", "enum": types},
		"options": strs, "required": flag, "placeholder": str, "min": num, "max": num,
	}, "name", "label", "type")
	return tools.Object(map[string]any{
		"question": str, "choices": strs, "multiple": flag, "allow_other": flag,
		"fields": map[string]any{"type": "array", "items": field},
		"input":  inputSchema(),
	}, "question")
}

type askUserArgs struct {
	Question   string           `json:"question"`
	Choices    []string         `json:"choices"`
	Multiple   bool             `json:"multiple"`
	AllowOther bool             `json:"allow_other"`
	Fields     []chat.FormField `json:"fields"`
	Input      *chat.InputHint  `json:"input"`
}

type rememberArgs struct {
	Key   string         `json:"key"`
	Value string         `json:"value"`
	Scope chat.FactScope `json:"scope"`
}

type forgetArgs struct {
	Key string `json:"key"`
}

func parseTaskComplete(args json.RawMessage) (act, error) {
	var a struct {
		Summary string `json:"summary"`
	}
	if err := json.Unmarshal(args, &a); err != nil {
		return nil, err
	}
	if a.Summary = strings.TrimSpace(a.Summary); a.Summary == "" {
		return nil, fmt.Errorf(`task_complete needs a non-empty "summary" string`)
	}
	return func(_ context.Context, rn *run, _ string) (outcome, error) {
		res := "The task is marked complete."
		if rn.willReflect() {
			res = "Before the task is accepted, Errand checks the result against the plan."
		}
		return outcome{res: tools.Result{Content: res}, summary: a.Summary, done: true}, nil
	}, nil
}

// checkQuestion cleans and bounds a question to the person — ask_user's,
// or a tool's (an MCP server's elicitation) — so that it can be shown and
// answered: its text (CleanQuestion), its choices and its form's fields.
func checkQuestion(a *askUserArgs, who string) error {
	q, err := chat.CleanQuestion(a.Question)
	if err != nil {
		return fmt.Errorf("%s: %s", who, chat.ErrorMessage(err))
	}
	a.Question = q
	var choices []string
	for _, c := range a.Choices {
		if c = strings.TrimSpace(c); c != "" {
			choices = append(choices, c)
		}
	}
	a.Choices = choices
	if err := chat.CheckChoices(who+"'s choices", a.Choices, chat.MaxChoices); err != nil {
		return fmt.Errorf("%s", chat.ErrorMessage(err))
	}
	switch {
	case len(a.Fields) > 0 && len(a.Choices) > 0:
		return fmt.Errorf(`%s takes "choices" or "fields", not both`, who)
	case (a.Multiple || a.AllowOther) && len(a.Choices) == 0:
		return fmt.Errorf(`"multiple" and "allow_other" need "choices"`)
	}
	if err := chat.CheckFields(a.Fields); err != nil {
		return fmt.Errorf("%s's fields: %s", who, chat.ErrorMessage(err))
	}
	return nil
}

func parseAskUser(args json.RawMessage) (act, error) {
	var a askUserArgs
	if err := json.Unmarshal(args, &a); err != nil {
		return nil, err
	}
	if strings.TrimSpace(a.Question) == "" {
		return nil, fmt.Errorf(`ask_user needs a non-empty "question" string`)
	}
	if err := checkQuestion(&a, "ask_user"); err != nil {
		return nil, err
	}
	return func(ctx context.Context, rn *run, callID string) (outcome, error) {
		answer, err := rn.ask(ctx, callID, a)
		return outcome{res: tools.Result{Content: answer}}, err
	}, nil
}

func parseSendUpdate(args json.RawMessage) (act, error) {
	var a struct {
		Message string          `json:"message"`
		Input   *chat.InputHint `json:"input"`
	}
	if err := json.Unmarshal(args, &a); err != nil {
		return nil, err
	}
	if a.Message = strings.TrimSpace(a.Message); a.Message == "" {
		return nil, fmt.Errorf(`send_update needs a non-empty "message" string`)
	}
	return func(ctx context.Context, rn *run, _ string) (outcome, error) {
		// The input hint holds until the next update or question.
		err := rn.update(func(t *chat.Task) { t.Input = a.Input })
		return outcome{res: tools.Result{Content: "The update was shown to the user."}}, err
	}, nil
}

func parseRemember(args json.RawMessage) (act, error) {
	var a rememberArgs
	if err := json.Unmarshal(args, &a); err != nil {
		return nil, err
	}
	scope, err := chat.ParseScope(string(a.Scope))
	if err != nil {
		return nil, err
	}
	a.Scope = scope
	return func(ctx context.Context, rn *run, _ string) (outcome, error) {
		return outcome{res: rn.remember(ctx, a)}, nil
	}, nil
}

func parseForget(args json.RawMessage) (act, error) {
	var a forgetArgs
	if err := json.Unmarshal(args, &a); err != nil {
		return nil, err
	}
	if a.Key = strings.TrimSpace(a.Key); a.Key == "" {
		return nil, fmt.Errorf(`forget needs a non-empty "key" string`)
	}
	return func(ctx context.Context, rn *run, _ string) (outcome, error) {
		return outcome{res: rn.forget(ctx, a)}, nil
	}, nil
}

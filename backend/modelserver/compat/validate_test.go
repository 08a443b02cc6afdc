package compat

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/errand-app/errand/backend/contextwin"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Pieces of request bodies for the table below.
const (
	askTool  = `{"type":"function","function":{"name":"ask_user","description":"Ask the user.","parameters":{"type":"object","properties":{"question":{"type":"string"},"choices":{"type":"array","items":{"type":"string"}}},"required":["question"]}}}`
	doneTool = `{"type":"function","function":{"name":"task_complete","parameters":{"type":"object","properties":{"summary":{"type":"string"}},"required":["summary"]}}}`
	user     = `{"role":"user","content":"hi"}`
	callA    = `{"id":"call_a","type":"function","function":{"name":"ask_user","arguments":"{\"question\":\"?\"}"}}`
	callB    = `{"id":"call_b","type":"function","function":{"name":"task_complete","arguments":"{}"}}`
	calls    = `{"role":"assistant","content":null,"tool_calls":[` + callA + `,` + callB + `]}`
	resultA  = `{"role":"tool","tool_call_id":"call_a","content":"Red"}`
	resultB  = `{"role":"tool","tool_call_id":"call_b","content":"ok"}`
)

// body builds a request body from messages and extra top-level fields.
func body(msgs string, extra ...string) string {
	fields := append([]string{`"model":"m"`, `"messages":[` + msgs + `]`}, extra...)
	return "{" + strings.Join(fields, ",") + "}"
}

func withTools(tools ...string) string { return `"tools":[` + strings.Join(tools, ",") + `]` }

// toolWith returns a function tool with the given name and parameters.
func toolWith(name, params string) string {
	return fmt.Sprintf(`{"type":"function","function":{"name":%q,"parameters":%s}}`, name, params)
}

func join(msgs ...string) string { return strings.Join(msgs, ",") }

func TestValidateAccepts(t *testing.T) {
	cases := map[string]string{
		"minimal": body(user),
		"what openai-go sends for a streaming agent request": body(
			join(`{"role":"system","content":"You are Errand."}`, user),
			withTools(askTool, doneTool),
			`"stream":true`, `"stream_options":{"include_usage":true}`, `"tool_choice":"auto"`,
			`"parallel_tool_calls":false`, `"temperature":0.7`, `"top_p":1`, `"max_tokens":100`,
			`"max_completion_tokens":100`, `"user":"u"`, `"n":1`, `"stop":["\n\n"]`, `"seed":7`,
			`"response_format":{"type":"text"}`, `"metadata":{"k":"v"}`, `"store":false`),
		"content parts":                 body(`{"role":"system","content":[{"type":"text","text":"sys"}]},{"role":"user","content":[{"type":"text","text":"a"},{"type":"image_url","image_url":{"url":"http://x/y.png"}}]}`),
		"empty user content":            body(`{"role":"user","content":""}`),
		"developer role":                body(join(`{"role":"developer","content":"be brief"}`, user)),
		"tool round, results swapped":   body(join(user, calls, resultB, resultA, `{"role":"assistant","content":"Done."}`, user), withTools(askTool, doneTool)),
		"assistant text with calls":     body(join(user, `{"role":"assistant","content":"Let me ask.","tool_calls":[`+callA+`]}`, resultA), withTools(askTool)),
		"tool result as parts":          body(join(user, `{"role":"assistant","tool_calls":[`+callA+`]}`, `{"role":"tool","tool_call_id":"call_a","content":[{"type":"text","text":"Red"}]}`)),
		"empty tool result":             body(join(user, `{"role":"assistant","tool_calls":[`+callA+`]}`, `{"role":"tool","tool_call_id":"call_a","content":""}`)),
		"empty arguments string":        body(join(user, `{"role":"assistant","tool_calls":[{"id":"c","type":"function","function":{"name":"f","arguments":""}}]}`, `{"role":"tool","tool_call_id":"c","content":"x"}`)),
		"named tool choice":             body(user, withTools(askTool), `"tool_choice":{"type":"function","function":{"name":"ask_user"}}`),
		"tool without parameters":       body(user, withTools(`{"type":"function","function":{"name":"ping"}}`)),
		"parameters without properties": body(user, withTools(toolWith("ping", `{"type":"object"}`))),
		"message name":                  body(`{"role":"user","name":"ann","content":"hi"}`),
		"assistant refusal":             body(join(user, `{"role":"assistant","content":"no","refusal":null}`, user)),
		"stream false":                  body(user, `"stream":false`),
	}
	for name, b := range cases {
		t.Run(name, func(t *testing.T) {
			req, err := DecodeRequest(strings.NewReader(b))
			require.NoError(t, err)
			assert.NoError(t, Validate(req))
		})
	}
}

func TestValidateRejects(t *testing.T) {
	long := strings.Repeat("a", 65)
	cases := []struct {
		name, body string
		want       string // part of the error message
		param      string // the error's param, if the case checks it
	}{
		{"not JSON", `{"model":`, "could not parse the JSON body", ""},
		{"array body", `[]`, "could not parse the JSON body", ""},
		{"trailing data", body(user) + `{}`, "could not parse the JSON body", ""},
		{"unknown top-level field", body(user, `"foo":1`), "Unrecognized request argument supplied: foo", "foo"},
		{"camelCase field", body(user, `"maxTokens":1`), "Unrecognized request argument supplied: maxTokens", "maxTokens"},
		{"unknown message field", body(`{"role":"user","content":"hi","toolCalls":[]}`), `unknown field "toolCalls"`, ""},
		{"unknown tool field", body(user, withTools(`{"type":"function","function":{"name":"f","params":{}}}`)), `unknown field "params"`, ""},
		{"unknown tool call field", body(join(user, `{"role":"assistant","tool_calls":[{"id":"c","type":"function","function":{"name":"f","arguments":"{}","extra":1}}]}`)), `unknown field "extra"`, ""},
		{"missing model", `{"messages":[` + user + `]}`, "you must provide a model parameter", "model"},
		{"missing messages", `{"model":"m"}`, "Missing required parameter: 'messages'", "messages"},
		{"empty messages", `{"model":"m","messages":[]}`, "[] is too short - 'messages'", "messages"},
		{"missing role", body(`{"content":"hi"}`), "Missing required parameter", "messages[0].role"},
		{"unknown role", body(`{"role":"bot","content":"hi"}`), "Invalid value: 'bot'", "messages[0].role"},
		{"function role", body(`{"role":"function","content":"hi"}`), "Invalid value: 'function'", "messages[0].role"},
		{"numeric content", body(`{"role":"user","content":5}`), "expected one of a string or an array", "content"},
		{"null user content", body(`{"role":"user","content":null}`), "expected a string, got null", "messages[0].content"},
		{"missing user content", body(`{"role":"user"}`), "expected a string, got null", "messages[0].content"},
		{"image part in assistant", body(join(user, `{"role":"assistant","content":[{"type":"image_url","image_url":{"url":"x"}}]}`)), "Invalid value: 'image_url'", "messages[1].content[0].type"},
		{"unknown part type", body(`{"role":"user","content":[{"type":"video"}]}`), "Invalid value: 'video'", "messages[0].content[0].type"},
		{"assistant null content", body(join(user, `{"role":"assistant","content":null}`)), "needs non-empty content or tool_calls", "messages[1].content"},
		{"assistant empty content", body(join(user, `{"role":"assistant","content":""}`)), "needs non-empty content or tool_calls", "messages[1].content"},
		{"assistant empty tool_calls", body(join(user, `{"role":"assistant","tool_calls":[]}`)), "needs non-empty content or tool_calls", "messages[1].content"},
		{"tool message first", body(resultA), "must be a response to a preceeding message with 'tool_calls'", "messages.[0].role"},
		{"tool message after plain assistant", body(join(user, `{"role":"assistant","content":"hello"}`, resultA)), "must be a response to a preceeding message", "messages.[2].role"},
		{"tool message with unknown id", body(join(user, calls, resultA, `{"role":"tool","tool_call_id":"call_x","content":"?"}`)), `tool_call_id "call_x"`, "messages.[3].role"},
		{"duplicate tool result", body(join(user, calls, resultA, resultA, resultB)), `tool_call_id "call_a"`, "messages.[3].role"},
		{"extra tool result", body(join(user, calls, resultA, resultB, resultB)), "must be a response to a preceeding message", "messages.[4].role"},
		{"result after an intervening user message", body(join(user, calls, resultA, user, resultB)), "did not have response messages: call_b", "messages.[1].role"},
		{"calls followed by user", body(join(user, calls, user)), "must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: call_a, call_b", "messages.[1].role"},
		{"calls at the end", body(join(user, calls)), "did not have response messages: call_a, call_b", "messages.[1].role"},
		{"calls partly answered then assistant", body(join(user, calls, resultB, `{"role":"assistant","content":"x"}`)), "did not have response messages: call_a", "messages.[1].role"},
		{"answers of an older assistant message", body(join(user, `{"role":"assistant","tool_calls":[`+callA+`]}`, resultA, `{"role":"assistant","tool_calls":[`+callB+`]}`, resultB, resultA)), "must be a response to a preceeding message", "messages.[5].role"},
		{"tool message without id", body(join(user, calls, `{"role":"tool","content":"x"}`)), "Missing required parameter: 'messages[2].tool_call_id'", "messages[2].tool_call_id"},
		{"tool message without content", body(join(user, `{"role":"assistant","tool_calls":[`+callA+`]}`, `{"role":"tool","tool_call_id":"call_a"}`)), "expected a string, got null", "messages[2].content"},
		{"tool call without id", body(join(user, `{"role":"assistant","tool_calls":[{"type":"function","function":{"name":"f","arguments":"{}"}}]}`)), "Missing required parameter", "messages[1].tool_calls[0].id"},
		{"tool call without type", body(join(user, `{"role":"assistant","tool_calls":[{"id":"c","function":{"name":"f","arguments":"{}"}}]}`)), "Invalid value: ''", "messages[1].tool_calls[0].type"},
		{"tool call without name", body(join(user, `{"role":"assistant","tool_calls":[{"id":"c","type":"function","function":{"arguments":"{}"}}]}`)), "Missing required parameter", "messages[1].tool_calls[0].function.name"},
		{"tool call without arguments", body(join(user, `{"role":"assistant","tool_calls":[{"id":"c","type":"function","function":{"name":"f"}}]}`)), "function.arguments", "function.arguments"},
		{"tool call with null arguments", body(join(user, `{"role":"assistant","tool_calls":[{"id":"c","type":"function","function":{"name":"f","arguments":null}}]}`)), "function.arguments", "function.arguments"},
		{"tool call with object arguments", body(join(user, `{"role":"assistant","tool_calls":[{"id":"c","type":"function","function":{"name":"f","arguments":{}}}]}`)), "cannot unmarshal object", ""},
		{"duplicate call ids", body(join(user, `{"role":"assistant","tool_calls":[`+callA+`,`+callA+`]}`, resultA, resultA)), "Duplicate value", "messages[1].tool_calls[1].id"},
		{"tool_calls on a user message", body(`{"role":"user","content":"x","tool_calls":[` + callA + `]}`), "'tool_calls' was unexpected", "messages[0].tool_calls"},
		{"tool_call_id on a user message", body(`{"role":"user","content":"x","tool_call_id":"c"}`), "'tool_call_id' was unexpected", "messages[0].tool_call_id"},
		{"empty tools", body(user, `"tools":[]`), "[] is too short - 'tools'", "tools"},
		{"custom tool", body(user, withTools(`{"type":"custom","custom":{"name":"x"}}`)), "Invalid value: 'custom'", "tools[0].type"},
		{"tool without type", body(user, withTools(`{"function":{"name":"x"}}`)), "Invalid value: ''", "tools[0].type"},
		{"tool without function", body(user, withTools(`{"type":"function"}`)), "Missing required parameter", "tools[0].function"},
		{"tool name with space", body(user, withTools(toolWith("ask user", `{"type":"object"}`))), "does not match pattern", "tools[0].function.name"},
		{"tool name too long", body(user, withTools(toolWith(long, `{"type":"object"}`))), "does not match pattern", "tools[0].function.name"},
		{"empty tool name", body(user, withTools(toolWith("", `{"type":"object"}`))), "does not match pattern", "tools[0].function.name"},
		{"duplicate tool names", body(user, withTools(askTool, doneTool, askTool)), "Duplicate function name 'ask_user'", "tools[2].function.name"},
		{"parameters of type array", body(user, withTools(toolWith("f", `{"type":"array"}`))), `'type: "object"', got 'type: "array"'`, "tools[0].function.parameters"},
		{"parameters without type", body(user, withTools(toolWith("f", `{"properties":{}}`))), `schema must be a JSON Schema of 'type: "object"'`, "tools[0].function.parameters"},
		{"parameters not an object", body(user, withTools(toolWith("f", `"object"`))), "cannot unmarshal string", ""},
		{"properties not an object", body(user, withTools(toolWith("f", `{"type":"object","properties":[]}`))), "'properties' must be an object", "tools[0].function.parameters"},
		{"property schema not an object", body(user, withTools(toolWith("f", `{"type":"object","properties":{"a":"string"}}`))), "property 'a' must be an object", "tools[0].function.parameters"},
		{"required not a list", body(user, withTools(toolWith("f", `{"type":"object","properties":{"a":{}},"required":"a"}`))), "'required' must be an array", "tools[0].function.parameters"},
		{"required names a missing property", body(user, withTools(toolWith("f", `{"type":"object","properties":{"a":{}},"required":["a","b"]}`))), "'required' lists 'b'", "tools[0].function.parameters"},
		{"required without properties", body(user, withTools(toolWith("f", `{"type":"object","required":["a"]}`))), "'required' lists 'a'", "tools[0].function.parameters"},
		{"stream_options without stream", body(user, `"stream_options":{"include_usage":true}`), "only allowed when 'stream' is enabled", "stream_options"},
		{"stream_options with stream false", body(user, `"stream":false`, `"stream_options":{"include_usage":true}`), "only allowed when 'stream' is enabled", "stream_options"},
		{"unknown stream option", body(user, `"stream":true`, `"stream_options":{"usage":true}`), `unknown field "usage"`, ""},
		{"tool_choice without tools", body(user, `"tool_choice":"auto"`), "only allowed when 'tools' are specified", "tool_choice"},
		{"tool_choice bad mode", body(user, withTools(askTool), `"tool_choice":"always"`), "Invalid value: 'always'", "tool_choice"},
		{"tool_choice unknown function", body(user, withTools(askTool), `"tool_choice":{"type":"function","function":{"name":"nope"}}`), "function 'nope' is not in 'tools'", "tool_choice"},
		{"parallel_tool_calls without tools", body(user, `"parallel_tool_calls":true`), "only allowed when 'tools' are specified", "parallel_tool_calls"},
		{"temperature too high", body(user, `"temperature":2.5`), "Expected a value between 0 and 2", "temperature"},
		{"top_p too high", body(user, `"top_p":1.5`), "Expected a value between 0 and 1", "top_p"},
		{"max_tokens zero", body(user, `"max_tokens":0`), "Expected a value >= 1", "max_tokens"},
		{"max_completion_tokens negative", body(user, `"max_completion_tokens":-1`), "Expected a value >= 1", "max_completion_tokens"},
		{"several choices", body(user, `"n":2`), "exactly one choice", "n"},
		{"stream as a string", body(user, `"stream":"yes"`), "cannot unmarshal string", ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			req, err := DecodeRequest(strings.NewReader(tc.body))
			if err == nil {
				err = Validate(req)
			}
			require.Error(t, err)
			var apiErr *APIError
			require.ErrorAs(t, err, &apiErr)
			assert.Equal(t, 400, apiErr.Status)
			assert.Equal(t, "invalid_request_error", apiErr.Type)
			assert.Contains(t, apiErr.Message, tc.want)
			if tc.param != "" {
				assert.Equal(t, tc.param, apiErr.Param)
			}
		})
	}
}

func TestValidateNil(t *testing.T) {
	assert.Error(t, Validate(nil))
}

func TestContentForms(t *testing.T) {
	req, err := DecodeRequest(strings.NewReader(body(join(
		`{"role":"user","content":[{"type":"text","text":"Hello, "},{"type":"image_url","image_url":{"url":"u"}},{"type":"text","text":"world"}]}`,
		`{"role":"assistant","tool_calls":[`+callA+`]}`,
		resultA,
	))))
	require.NoError(t, err)
	assert.Equal(t, "Hello, world", req.Messages[0].Text())
	assert.Len(t, req.Messages[0].Content.Parts, 3)
	assert.True(t, req.Messages[0].Content.Set)
	assert.False(t, req.Messages[1].Content.Set, "absent content is not set")
	assert.Equal(t, "Red", req.Messages[2].Text())
	assert.Nil(t, req.Messages[2].Content.Parts)
	assert.Equal(t, `{"question":"?"}`, req.Messages[1].ToolCalls[0].Function.Arguments)

	// Content is written back in the form it came in.
	for _, form := range []string{`"hi"`, `null`, `[{"type":"text","text":"hi"}]`} {
		var c Content
		require.NoError(t, c.UnmarshalJSON([]byte(form)))
		out, err := c.MarshalJSON()
		require.NoError(t, err)
		assert.JSONEq(t, form, string(out))
	}
}

func TestHasTool(t *testing.T) {
	req, err := DecodeRequest(strings.NewReader(body(user, withTools(askTool, doneTool))))
	require.NoError(t, err)
	assert.True(t, req.HasTool("ask_user"))
	assert.True(t, req.HasTool("task_complete"))
	assert.False(t, req.HasTool("send_update"))
}

// A script tells the context window's summary request by its system prompt,
// sent as a string or as text parts; another system prompt is a turn.
func TestAsksForSummary(t *testing.T) {
	instruction, err := json.Marshal(contextwin.SummaryInstruction)
	require.NoError(t, err)
	system := `{"role":"system","content":` + string(instruction) + `}`
	parts := `{"role":"system","content":[{"type":"text","text":` + string(instruction) + `}]}`
	for _, c := range []struct {
		msgs string
		want bool
	}{
		{system + "," + user, true},
		{parts + "," + user, true},
		{`{"role":"system","content":"You are Errand."},` + user, false},
	} {
		req, err := DecodeRequest(strings.NewReader(body(c.msgs)))
		require.NoError(t, err)
		assert.Equal(t, c.want, req.AsksForSummary(), c.msgs)
	}
	assert.False(t, (&Request{}).AsksForSummary(), "no messages")
}

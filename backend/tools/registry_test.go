package tools

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fakeTool is a Tool whose name, risk and schema a test chooses.
type fakeTool struct {
	name   string
	risk   Risk
	schema map[string]any
}

func (f fakeTool) Name() string           { return f.name }
func (f fakeTool) Description() string    { return "fake " + f.name }
func (f fakeTool) Schema() map[string]any { return f.schema }
func (f fakeTool) Risk() Risk             { return f.risk }
func (f fakeTool) Run(context.Context, Env, json.RawMessage) (Result, error) {
	return Result{Content: "ran " + f.name}, nil
}

func controlSpecs() []Spec {
	return []Spec{
		{Name: "finish", Description: "End the task.", Schema: Object(map[string]any{"summary": str("What was done.")}, "summary")},
		{Name: "ask_user", Description: "Ask a question.", Schema: Object(map[string]any{"question": str("The question.")}, "question")},
	}
}

func TestRiskValid(t *testing.T) {
	for _, r := range []Risk{RiskRead, RiskWrite, RiskDestructive} {
		assert.True(t, r.Valid(), r)
	}
	for _, r := range []Risk{"", "read", "READ_ONLY", "yolo", "destructive "} {
		assert.False(t, r.Valid(), "%q", r)
	}
}

func TestDefinitionsKeepOrderSpecsFirst(t *testing.T) {
	r, err := NewRegistry(controlSpecs(), Builtin())
	require.NoError(t, err)

	defs := r.Definitions()
	var names []string
	for _, d := range defs {
		names = append(names, d.Name)
	}
	want := []string{"finish", "ask_user", "list_files", "read_file", "search_text", "write_file", "edit_file", "run_command", "fetch_url"}
	assert.Equal(t, want, names)
	assert.Equal(t, strings.Join(want, ", "), r.Names())

	// Each definition carries the spec's description and schema unchanged.
	assert.Equal(t, "End the task.", defs[0].Description)
	assert.Equal(t, controlSpecs()[0].Schema, defs[0].Parameters)
	for i, tool := range Builtin() {
		d := defs[i+2]
		assert.Equal(t, tool.Description(), d.Description, tool.Name())
		assert.Equal(t, tool.Schema(), d.Parameters, tool.Name())
	}

	// Definitions are a copy: changing one does not change the registry.
	defs[0].Name = "changed"
	assert.Equal(t, "finish", r.Definitions()[0].Name)
}

func TestEmptyRegistry(t *testing.T) {
	r, err := NewRegistry(nil, nil)
	require.NoError(t, err)
	assert.Empty(t, r.Definitions())
	assert.Equal(t, "", r.Names())
	assert.Nil(t, r.Tool("read_file"))
	_, err = r.Validate("read_file", "{}")
	require.ErrorIs(t, err, ErrInvalidCall)
}

func TestToolLookup(t *testing.T) {
	r, err := NewRegistry(controlSpecs(), Builtin())
	require.NoError(t, err)
	assert.Nil(t, r.Tool("finish"), "a Spec-only entry has no Tool")
	assert.Nil(t, r.Tool("ask_user"), "a Spec-only entry has no Tool")
	assert.Nil(t, r.Tool("nope"))
	assert.Nil(t, r.Tool(""))
	for _, tool := range Builtin() {
		got := r.Tool(tool.Name())
		require.NotNil(t, got, tool.Name())
		assert.Equal(t, tool.Name(), got.Name())
	}
	assert.IsType(t, RunCommand{}, r.Tool("run_command"))

	// A Spec-only entry is still validated against its schema.
	_, err = r.Validate("finish", `{"summary":"done"}`)
	assert.NoError(t, err)
	_, err = r.Validate("finish", `{}`)
	require.ErrorIs(t, err, ErrInvalidCall)
	assert.Contains(t, err.Error(), "summary")
}

func TestBuiltinToolsDeclareRiskAndStrictSchemas(t *testing.T) {
	wantRisk := map[string]Risk{
		"list_files": RiskRead, "read_file": RiskRead, "search_text": RiskRead, "fetch_url": RiskRead,
		"write_file": RiskWrite, "edit_file": RiskWrite,
		"run_command": RiskDestructive,
	}
	wantPreview := map[string]bool{"write_file": true, "edit_file": true}
	tools := Builtin()
	require.Len(t, tools, len(wantRisk))
	for _, tool := range tools {
		assert.Equal(t, wantRisk[tool.Name()], tool.Risk(), tool.Name())
		assert.NotEmpty(t, tool.Description(), tool.Name())
		s := tool.Schema()
		assert.Equal(t, "object", s["type"], tool.Name())
		assert.Equal(t, false, s["additionalProperties"], tool.Name())
		assert.NotNil(t, s["required"], tool.Name())
		_, isPreviewer := tool.(Previewer)
		assert.Equal(t, wantPreview[tool.Name()], isPreviewer, tool.Name())
	}
}

func TestValidateUnknownToolNamesItAndListsTheTools(t *testing.T) {
	r, err := NewRegistry(controlSpecs(), Builtin())
	require.NoError(t, err)
	_, err = r.Validate("delete_everything", `{}`)
	require.Error(t, err)
	assert.ErrorIs(t, err, ErrInvalidCall)
	msg := err.Error()
	assert.Contains(t, msg, `"delete_everything"`)
	assert.Contains(t, msg, "unknown tool")
	assert.Contains(t, msg, r.Names(), "the message lists every tool, in order")

	// Names are case-sensitive: no fuzzy matching onto a real tool.
	_, err = r.Validate("Read_File", `{"path":"a"}`)
	require.ErrorIs(t, err, ErrInvalidCall)
	assert.Contains(t, err.Error(), `"Read_File"`)
}

func TestValidateRejectsInvalidJSON(t *testing.T) {
	r := builtinRegistry(t)
	for _, args := range []string{
		`{"path":`,
		`not json`,
		`{'path':'a.txt'}`,
		`{"path":"a.txt",}`,
		`{path:"a.txt"}`,
		`{}}`, // trailing garbage that json.Decoder.More does not see
	} {
		_, err := r.Validate("read_file", args)
		require.Error(t, err, args)
		assert.ErrorIs(t, err, ErrInvalidCall, args)
		assert.Contains(t, err.Error(), "read_file", args)
		assert.Contains(t, err.Error(), "not valid JSON", args)
	}
}

func TestValidateRejectsNonObjects(t *testing.T) {
	r := builtinRegistry(t)
	for _, args := range []string{`[]`, `[{"path":"a.txt"}]`, `"a.txt"`, `42`, `true`, `null`} {
		_, err := r.Validate("read_file", args)
		require.Error(t, err, args)
		assert.ErrorIs(t, err, ErrInvalidCall, args)
		assert.Contains(t, err.Error(), "must be a JSON object", args)
		assert.Contains(t, err.Error(), "read_file", args)
	}
}

func TestValidateRejectsMoreThanOneValue(t *testing.T) {
	r := builtinRegistry(t)
	for _, args := range []string{
		`{"path":"a"} {"path":"b"}`,
		`{"path":"a"}{"path":"b"}`,
		"{\"path\":\"a\"}\n{\"path\":\"b\"}",
		`{"path":"a"} 1`,
		`{"path":"a"} "x"`,
	} {
		_, err := r.Validate("read_file", args)
		require.Error(t, err, args)
		assert.ErrorIs(t, err, ErrInvalidCall, args)
		assert.Contains(t, err.Error(), "more than one JSON value", args)
	}
}

func TestValidateSchemaViolations(t *testing.T) {
	r, err := NewRegistry(controlSpecs(), Builtin())
	require.NoError(t, err)
	cases := []struct {
		name, tool, args string
		want             []string
	}{
		{"missing required", "read_file", `{}`, []string{"missing property 'path'"}},
		{"empty args still need required", "read_file", ``, []string{"missing property 'path'"}},
		{"missing one of several required", "edit_file", `{"path":"a","old_text":"x"}`, []string{"new_text"}},
		{"wrong type string", "read_file", `{"path":1}`, []string{"/path", "want string"}},
		{"wrong type boolean", "list_files", `{"recursive":"yes"}`, []string{"/recursive", "want boolean"}},
		{"null is a wrong type", "read_file", `{"path":null}`, []string{"/path", "want string"}},
		{"additional property", "read_file", `{"path":"a","mode":"rw"}`, []string{"additional properties", "'mode'"}},
		{"integer below minimum", "run_command", `{"command":"ls","timeout_seconds":0}`, []string{"/timeout_seconds", "minimum", "got 0", "want 1"}},
		{"integer above maximum", "run_command", `{"command":"ls","timeout_seconds":601}`, []string{"/timeout_seconds", "maximum", "got 601", "want 600"}},
		{"negative integer", "run_command", `{"command":"ls","timeout_seconds":-5}`, []string{"minimum"}},
		{"fraction for integer", "run_command", `{"command":"ls","timeout_seconds":1.5}`, []string{"/timeout_seconds", "want integer"}},
		{"string for integer", "run_command", `{"command":"ls","timeout_seconds":"10"}`, []string{"want integer"}},
		{"two problems at once", "read_file", `{"path":1,"extra":2}`, []string{"want string", "'extra'"}},
		{"spec-only tool", "ask_user", `{"question":["a"]}`, []string{"/question", "want string"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := r.Validate(c.tool, c.args)
			require.Error(t, err)
			assert.ErrorIs(t, err, ErrInvalidCall)
			msg := err.Error()
			assert.Contains(t, msg, c.tool)
			assert.Contains(t, msg, "do not match its schema")
			for _, w := range c.want {
				assert.Contains(t, msg, w)
			}
			assert.NotContains(t, msg, "mem://")
			assert.NotContains(t, msg, "jsonschema validation failed")
			assert.NotContains(t, msg, "\n", "the problems are on one line")
		})
	}
}

func TestValidateNestedSchemaErrorsHideTheInternalAddress(t *testing.T) {
	r, err := NewRegistry([]Spec{
		{Name: "ref", Schema: map[string]any{
			"type":       "object",
			"properties": map[string]any{"n": map[string]any{"$ref": "#/$defs/pos"}},
			"$defs":      map[string]any{"pos": map[string]any{"type": "integer", "minimum": 1}},
		}},
		{Name: "any", Schema: Object(map[string]any{"v": map[string]any{"anyOf": []any{
			map[string]any{"type": "integer"}, map[string]any{"type": "boolean"},
		}}})},
		{Name: "nested", Schema: Object(map[string]any{"o": Object(map[string]any{"n": integer("n", 1, 5)}, "n")})},
	}, nil)
	require.NoError(t, err)
	for _, c := range []struct{ tool, args, want string }{
		{"ref", `{"n":0}`, "minimum"},
		{"any", `{"v":"x"}`, "anyOf"},
		{"nested", `{"o":{"n":9,"z":1}}`, "/o/n"},
	} {
		_, err := r.Validate(c.tool, c.args)
		require.Error(t, err, c.tool)
		assert.Contains(t, err.Error(), c.want, c.tool)
		assert.NotContains(t, err.Error(), "mem://", c.tool)
	}
}

func TestValidatePassesValidArgs(t *testing.T) {
	r, err := NewRegistry(controlSpecs(), Builtin())
	require.NoError(t, err)
	for _, c := range []struct{ tool, args string }{
		{"read_file", `{"path":"a.txt"}`},
		{"read_file", "  {\"path\" : \"a.txt\"}\n"},
		{"list_files", `{}`},
		{"list_files", `{"path":"sub","recursive":true}`},
		{"search_text", `{"pattern":"x","regex":false,"path":""}`},
		{"edit_file", `{"path":"a","old_text":"x","new_text":""}`},
		{"run_command", `{"command":"ls","timeout_seconds":1}`},
		{"run_command", `{"command":"ls","timeout_seconds":600}`},
		{"run_command", `{"command":"ls","timeout_seconds":5.0}`},
		{"fetch_url", `{"url":"https://example.com/"}`},
		{"finish", `{"summary":"done"}`},
	} {
		got, err := r.Validate(c.tool, c.args)
		require.NoError(t, err, "%s %s", c.tool, c.args)
		assert.Equal(t, c.args, string(got), "valid arguments come back unchanged")
		assert.True(t, json.Valid(got))
	}

	for _, empty := range []string{"", "   ", "\n\t"} {
		got, err := r.Validate("list_files", empty)
		require.NoError(t, err, "%q", empty)
		assert.Equal(t, "{}", string(got), "%q becomes {}", empty)
	}
}

func TestNewRegistryRefusesDuplicates(t *testing.T) {
	schema := Object(map[string]any{})
	cases := map[string]struct {
		specs []Spec
		tools []Tool
	}{
		"two tools":     {nil, []Tool{ReadFile{}, fakeTool{name: "read_file", risk: RiskRead, schema: schema}}},
		"spec and tool": {[]Spec{{Name: "read_file", Schema: schema}}, []Tool{ReadFile{}}},
		"two specs":     {[]Spec{{Name: "read_file", Schema: schema}, {Name: "read_file", Schema: schema}}, nil},
		"builtin twice": {nil, append(Builtin(), ReadFile{})},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			r, err := NewRegistry(c.specs, c.tools)
			require.Error(t, err)
			assert.Nil(t, r)
			assert.Contains(t, err.Error(), `"read_file"`)
			assert.Contains(t, err.Error(), "twice")
		})
	}
}

func TestNewRegistryRefusesInvalidRisk(t *testing.T) {
	for _, risk := range []Risk{"", "harmless", "Read_Only"} {
		r, err := NewRegistry(nil, []Tool{ReadFile{}, fakeTool{name: "shady", risk: risk, schema: Object(map[string]any{})}})
		require.Error(t, err, "%q", risk)
		assert.Nil(t, r)
		assert.Contains(t, err.Error(), `"shady"`)
		assert.Contains(t, err.Error(), "risk")
	}
}

func TestNewRegistryRefusesBadSchemas(t *testing.T) {
	for name, schema := range map[string]map[string]any{
		"type not a string": {"type": 12},
		"unknown type":      {"type": "banana"},
		"nil":               nil,
		"bad minimum":       {"type": "integer", "minimum": "one"},
	} {
		t.Run(name, func(t *testing.T) {
			r, err := NewRegistry([]Spec{{Name: "broken", Schema: schema}}, nil)
			require.Error(t, err)
			assert.Nil(t, r)
			assert.Contains(t, err.Error(), "broken")

			r, err = NewRegistry(nil, []Tool{fakeTool{name: "broken_tool", risk: RiskRead, schema: schema}})
			require.Error(t, err)
			assert.Nil(t, r)
			assert.Contains(t, err.Error(), "broken_tool")
		})
	}
}

func TestRegistryIsSafeForConcurrentUse(t *testing.T) {
	r, err := NewRegistry(controlSpecs(), Builtin())
	require.NoError(t, err)
	var wg sync.WaitGroup
	for i := 0; i < 16; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			for j := 0; j < 50; j++ {
				_, err := r.Validate("read_file", `{"path":"a.txt"}`)
				assert.NoError(t, err)
				_, err = r.Validate("read_file", `{"path":1}`)
				assert.Error(t, err)
				_ = r.Definitions()
				_ = r.Tool("run_command")
			}
		}(i)
	}
	wg.Wait()
}

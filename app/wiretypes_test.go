package app

import (
	"fmt"
	"os"
	"reflect"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/errand-app/errand/backend/agent"
	"github.com/errand-app/errand/backend/chat"
	"github.com/errand-app/errand/backend/mcp"
	"github.com/errand-app/errand/backend/providers"
)

// typesFile holds the TypeScript declarations of the JSON that Go sends.
const typesFile = "../frontend/src/api/types.ts"

// wireTypes maps each interface in types.ts to the Go type whose JSON it
// declares. Go is the source: a field added, renamed or removed there must
// be mirrored in types.ts, and types.ts declares nothing Go does not send.
var wireTypes = map[string]reflect.Type{
	"Conversation":        reflect.TypeOf(chat.Conversation{}),
	"ConversationSummary": reflect.TypeOf(chat.ConversationSummary{}),
	"ToolCall":            reflect.TypeOf(chat.ToolCall{}),
	"Message":             reflect.TypeOf(chat.Message{}),
	"Usage":               reflect.TypeOf(chat.Usage{}),
	"Task":                reflect.TypeOf(chat.Task{}),
	"Approval":            reflect.TypeOf(chat.Approval{}),
	"Limits":              reflect.TypeOf(chat.Limits{}),
	"Price":               reflect.TypeOf(chat.Price{}),
	"Settings":            reflect.TypeOf(chat.Settings{}),
	"ProviderConfig":      reflect.TypeOf(chat.ProviderConfig{}),
	"ConversationView":    reflect.TypeOf(chat.ConversationView{}),
	"ConversationPage":    reflect.TypeOf(chat.ConversationPage{}),
	"MessagePage":         reflect.TypeOf(chat.MessagePage{}),
	"Summary":             reflect.TypeOf(chat.Summary{}),
	"StopResult":          reflect.TypeOf(agent.StopResult{}),
	"MessageDeltaEvent":   reflect.TypeOf(agent.Delta{}),
	"ToolOutputEvent":     reflect.TypeOf(agent.ToolOutput{}),
	"ProviderPreset":      reflect.TypeOf(providers.Preset{}),
	"Verdict":             reflect.TypeOf(providers.Verdict{}),
	"HealthStatus":        reflect.TypeOf(Status{}),
	"ModelInfo":           reflect.TypeOf(ModelInfo{}),
	"WorkspaceInfo":       reflect.TypeOf(WorkspaceInfo{}),
	"ProviderView":        reflect.TypeOf(ProviderView{}),
	"ProviderInput":       reflect.TypeOf(ProviderInput{}),
	"TaskMessageEvent":    reflect.TypeOf(TaskMessage{}),
	"FrontendError":       reflect.TypeOf(FrontendError{}),
	"Fact":                reflect.TypeOf(chat.Fact{}),
	"Plan":                reflect.TypeOf(chat.Plan{}),
	"PlanStep":            reflect.TypeOf(chat.PlanStep{}),
	"ModeDecision":        reflect.TypeOf(chat.ModeDecision{}),
	"FactsChangedEvent":   reflect.TypeOf(FactsChanged{}),
	"SearchHit":           reflect.TypeOf(chat.SearchHit{}),
	"SnippetPart":         reflect.TypeOf(chat.SnippetPart{}),
	"MCPServer":           reflect.TypeOf(chat.MCPServer{}),
	"MCPToolInfo":         reflect.TypeOf(mcp.ToolInfo{}),
	"MCPServerState":      reflect.TypeOf(mcp.State{}),
	"AgentDefinition":     reflect.TypeOf(chat.AgentDefinition{}),
	"FormField":           reflect.TypeOf(chat.FormField{}),
	"InputHint":           reflect.TypeOf(chat.InputHint{}),
	"ChangedFile":         reflect.TypeOf(chat.ChangedFile{}),
	"FilesChanged":        reflect.TypeOf(chat.FilesChanged{}),
	"UndoOutcome":         reflect.TypeOf(chat.UndoOutcome{}),
	"CheckpointStorage":   reflect.TypeOf(CheckpointStorage{}),
}

// frontendOnly lists interfaces in types.ts that no Go type sends. Each
// entry needs a reason; there are none.
var frontendOnly = map[string]string{}

// TestWireTypesMatchTypeScript checks every field's JSON name both ways,
// and that a field Go omits when empty is optional in TypeScript.
func TestWireTypesMatchTypeScript(t *testing.T) {
	t.Parallel()
	src, err := os.ReadFile(typesFile)
	if err != nil {
		t.Fatalf("read %s: %v", typesFile, err)
	}
	ts, err := parseInterfaces(string(src))
	if err != nil {
		t.Fatal(err)
	}
	for name := range ts {
		if _, ok := wireTypes[name]; !ok && frontendOnly[name] == "" {
			t.Errorf("types.ts: interface %s has no Go type in wireTypes", name)
		}
	}
	names := make([]string, 0, len(wireTypes))
	for name := range wireTypes {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		goType := wireTypes[name]
		tsFields, err := resolveFields(ts, name)
		if err != nil {
			t.Errorf("types.ts: %v", err)
			continue
		}
		for _, problem := range compareFields(jsonFields(goType), tsFields) {
			t.Errorf("types.ts %s vs Go %s: %s", name, goType, problem)
		}
	}
}

// compareFields lists the differences between Go's fields and TypeScript's
// (name → optional).
func compareFields(goFields, tsFields map[string]bool) []string {
	var problems []string
	for f, omitEmpty := range goFields {
		tsOptional, ok := tsFields[f]
		switch {
		case !ok:
			problems = append(problems, fmt.Sprintf("field %q is sent by Go but missing in TypeScript", f))
		case omitEmpty && !tsOptional:
			problems = append(problems, fmt.Sprintf("field %q is omitempty in Go but required in TypeScript", f))
		}
	}
	for f := range tsFields {
		if _, ok := goFields[f]; !ok {
			problems = append(problems, fmt.Sprintf("field %q is declared in TypeScript but Go never sends it", f))
		}
	}
	sort.Strings(problems)
	return problems
}

// jsonFields lists the JSON names encoding/json gives t's fields, each
// with whether it is omitted when empty. Embedded structs without a name
// are flattened, as encoding/json does.
func jsonFields(t reflect.Type) map[string]bool {
	out := map[string]bool{}
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		ft := f.Type
		if ft.Kind() == reflect.Pointer {
			ft = ft.Elem()
		}
		if f.Anonymous && name == "" && ft.Kind() == reflect.Struct {
			for k, v := range jsonFields(ft) {
				out[k] = v
			}
			continue
		}
		if !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		out[name] = strings.Contains(","+opts+",", ",omitempty,")
	}
	return out
}

// tsInterface is one `export interface` of types.ts.
type tsInterface struct {
	extends []string
	fields  map[string]bool // name → optional
}

var (
	blockComment = regexp.MustCompile(`(?s)/\*.*?\*/`)
	lineComment  = regexp.MustCompile(`(?m)(^|\s)//.*$`)
	interfaceRe  = regexp.MustCompile(`export\s+interface\s+(\w+)\s*(?:extends\s+([\w\s,]+?))?\s*\{`)
	fieldRe      = regexp.MustCompile(`^(?:readonly\s+)?(\w+)(\?)?\s*:`)
)

// parseInterfaces reads the exported interfaces of a TypeScript file: their
// names, what they extend, and their fields with optionality. Index
// signatures ([key: string]: T) are skipped.
func parseInterfaces(src string) (map[string]tsInterface, error) {
	src = lineComment.ReplaceAllString(blockComment.ReplaceAllString(src, ""), "$1")
	out := map[string]tsInterface{}
	for _, m := range interfaceRe.FindAllStringSubmatchIndex(src, -1) {
		name := src[m[2]:m[3]]
		body, err := braceBody(src, m[1])
		if err != nil {
			return nil, fmt.Errorf("interface %s: %w", name, err)
		}
		it := tsInterface{fields: map[string]bool{}}
		if m[4] >= 0 {
			for _, e := range strings.Split(src[m[4]:m[5]], ",") {
				it.extends = append(it.extends, strings.TrimSpace(e))
			}
		}
		for _, member := range topLevelMembers(body) {
			if strings.HasPrefix(member, "[") {
				continue
			}
			fm := fieldRe.FindStringSubmatch(member)
			if fm == nil {
				return nil, fmt.Errorf("interface %s: cannot read member %q", name, member)
			}
			it.fields[fm[1]] = fm[2] == "?"
		}
		out[name] = it
	}
	return out, nil
}

// braceBody returns the text between the '{' just before start and its
// matching '}'.
func braceBody(src string, start int) (string, error) {
	depth := 1
	for i := start; i < len(src); i++ {
		switch src[i] {
		case '{':
			depth++
		case '}':
			depth--
			if depth == 0 {
				return src[start:i], nil
			}
		}
	}
	return "", fmt.Errorf("no closing brace")
}

// topLevelMembers splits an interface body on the ';' that are not inside
// a nested object type.
func topLevelMembers(body string) []string {
	var out []string
	depth, from := 0, 0
	add := func(s string) {
		if s = strings.TrimSpace(s); s != "" {
			out = append(out, s)
		}
	}
	for i, c := range body {
		switch c {
		case '{':
			depth++
		case '}':
			depth--
		case ';':
			if depth == 0 {
				add(body[from:i])
				from = i + 1
			}
		}
	}
	add(body[from:])
	return out
}

// resolveFields is an interface's own fields plus those it extends.
func resolveFields(ts map[string]tsInterface, name string) (map[string]bool, error) {
	it, ok := ts[name]
	if !ok {
		return nil, fmt.Errorf("no interface %s", name)
	}
	out := map[string]bool{}
	for _, parent := range it.extends {
		pf, err := resolveFields(ts, parent)
		if err != nil {
			return nil, fmt.Errorf("%s extends %s: %w", name, parent, err)
		}
		for k, v := range pf {
			out[k] = v
		}
	}
	for k, v := range it.fields {
		out[k] = v
	}
	return out, nil
}

// TestParseInterfaces pins the parser on the shapes types.ts uses.
func TestParseInterfaces(t *testing.T) {
	t.Parallel()
	src := `
/** A doc comment { with a brace }. */
export interface A {
  id: string; // a line comment: x?: number;
  /** optional */
  note?: string;
  nested: { inner: number; other?: string };
  [extra: string]: unknown;
}
export interface B extends A {
  url: 'http://x' | string;
}
`
	ts, err := parseInterfaces(src)
	if err != nil {
		t.Fatal(err)
	}
	got, err := resolveFields(ts, "B")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]bool{"id": false, "note": true, "nested": false, "url": false}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("fields = %v, want %v", got, want)
	}
	type inner struct {
		X string `json:"x,omitempty"`
	}
	type outer struct {
		inner
		Y    int `json:"y"`
		Z    int `json:"-"`
		skip int
	}
	if got := jsonFields(reflect.TypeOf(outer{})); !reflect.DeepEqual(got, map[string]bool{"x": true, "y": false}) {
		t.Fatalf("jsonFields = %v", got)
	}
}

package tools

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"time"

	"github.com/errand-app/errand/backend/llm"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// Spec declares a tool the model may call without a Tool behind it: the
// agent's own control tools, which the runner handles itself.
type Spec struct {
	Name        string
	Description string
	Schema      map[string]any
}

type entry struct {
	spec   Spec
	tool   Tool // nil for a Spec-only entry
	schema *jsonschema.Schema
}

// Registry holds the tools the model is offered, in order. It is immutable
// once built and safe for concurrent use.
type Registry struct {
	id      uint64
	entries []entry
	byName  map[string]int
}

// registries numbers the registries built, so that no two share an ID.
var registries atomic.Uint64

// ID names the registry among every one built while Errand runs: the same
// ID, the same tools (a registry never changes once built).
func (r *Registry) ID() uint64 { return r.id }

// NewRegistry compiles every tool's schema; a schema that does not compile
// or a duplicate name is a programming error, returned as such.
func NewRegistry(specs []Spec, tools []Tool) (*Registry, error) {
	r := &Registry{id: registries.Add(1), byName: map[string]int{}}
	for _, s := range specs {
		if err := r.add(s, nil); err != nil {
			return nil, err
		}
	}
	for _, t := range tools {
		if err := r.add(Spec{Name: t.Name(), Description: t.Description(), Schema: t.Schema()}, t); err != nil {
			return nil, err
		}
	}
	return r, nil
}

// add compiles a tool's schema and adds it; a tool without a valid risk, a
// taken name or a schema that does not compile is refused.
func (r *Registry) add(s Spec, t Tool) error {
	if t != nil && !t.Risk().Valid() {
		return fmt.Errorf("tool %q declares no valid risk", s.Name)
	}
	if _, dup := r.byName[s.Name]; dup {
		return fmt.Errorf("tool %q registered twice", s.Name)
	}
	sch, err := compile(s.Name, s.Schema)
	if err != nil {
		return err
	}
	r.byName[s.Name] = len(r.entries)
	r.entries = append(r.entries, entry{spec: s, tool: t, schema: sch})
	return nil
}

// Bounds of a tool's input schema: an MCP server sends whatever it likes.
const (
	maxSchemaBytes = 256 << 10
	compileTimeout = 5 * time.Second
)

func compile(name string, schema map[string]any) (*jsonschema.Schema, error) {
	// The compiler wants plain decoded JSON ([]any, not []string).
	raw, err := json.Marshal(schema)
	if err != nil {
		return nil, fmt.Errorf("tool %s schema: %w", name, err)
	}
	if len(raw) > maxSchemaBytes {
		return nil, fmt.Errorf("tool %s schema: it is %d KiB, over the limit of %d KiB", name, len(raw)>>10, maxSchemaBytes>>10)
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return nil, fmt.Errorf("tool %s schema: %w", name, err)
	}
	c := jsonschema.NewCompiler()
	c.UseLoader(noLoader{})
	url := "mem://tools/" + name + ".json"
	if err := c.AddResource(url, doc); err != nil {
		return nil, fmt.Errorf("tool %s schema: %w", name, err)
	}
	type compiled struct {
		sch *jsonschema.Schema
		err error
	}
	done := make(chan compiled, 1)
	go func() {
		defer func() {
			if p := recover(); p != nil {
				done <- compiled{err: fmt.Errorf("the compiler failed: %v", p)}
			}
		}()
		sch, err := c.Compile(url)
		done <- compiled{sch, err}
	}()
	timer := time.NewTimer(compileTimeout)
	defer timer.Stop()
	select {
	case r := <-done:
		if r.err != nil {
			return nil, fmt.Errorf("tool %s schema: %w", name, r.err)
		}
		return r.sch, nil
	case <-timer.C:
		return nil, fmt.Errorf("tool %s schema: it took longer than %s to compile", name, compileTimeout)
	}
}

// noLoader refuses every URL a schema refers to: a schema is read from
// nothing but itself (a file:// reference could read, or block on, any
// file Errand can open; an http:// one would reach the network).
type noLoader struct{}

func (noLoader) Load(url string) (any, error) {
	return nil, fmt.Errorf("it refers to %s; a schema may refer only to itself", url)
}

// Definitions are the tools as the model is told about them.
func (r *Registry) Definitions() []llm.Tool {
	out := make([]llm.Tool, len(r.entries))
	for i, e := range r.entries {
		out[i] = llm.Tool{Name: e.spec.Name, Description: e.spec.Description, Parameters: e.spec.Schema}
	}
	return out
}

// Names lists the tools, comma-separated, for messages to the model.
func (r *Registry) Names() string {
	return strings.Join(r.NameList(), ", ")
}

// NameList is every entry's name, in the registry's order.
func (r *Registry) NameList() []string {
	names := make([]string, len(r.entries))
	for i, e := range r.entries {
		names[i] = e.spec.Name
	}
	return names
}

// Has reports whether an entry (a Tool or a Spec only) is named name.
func (r *Registry) Has(name string) bool {
	_, ok := r.byName[name]
	return ok
}

// Tool returns the Tool behind name (nil for a Spec-only entry).
func (r *Registry) Tool(name string) Tool {
	if i, ok := r.byName[name]; ok {
		return r.entries[i].tool
	}
	return nil
}

// ErrInvalidCall is wrapped by every error Validate returns.
var ErrInvalidCall = errors.New("invalid tool call")

// Validate checks a call the model made: the tool must exist, the arguments
// must be one JSON object, and that object must satisfy the tool's schema.
// It returns the arguments, normalised ("" becomes {}), or an error written
// for the model: what is wrong, and which tools exist.
func (r *Registry) Validate(name, args string) (json.RawMessage, error) {
	i, ok := r.byName[name]
	if !ok {
		return nil, fmt.Errorf("%w: unknown tool %q. The tools that exist are: %s", ErrInvalidCall, name, r.Names())
	}
	if strings.TrimSpace(args) == "" {
		args = "{}"
	}
	dec := json.NewDecoder(strings.NewReader(args))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, fmt.Errorf("%w: the arguments of %s are not valid JSON (%v); send one JSON object that matches its schema", ErrInvalidCall, name, err)
	}
	if dec.More() {
		return nil, fmt.Errorf("%w: the arguments of %s hold more than one JSON value; send exactly one JSON object", ErrInvalidCall, name)
	}
	if _, isObj := v.(map[string]any); !isObj {
		return nil, fmt.Errorf("%w: the arguments of %s must be a JSON object", ErrInvalidCall, name)
	}
	doc, err := jsonschema.UnmarshalJSON(strings.NewReader(args))
	if err != nil {
		return nil, fmt.Errorf("%w: the arguments of %s are not valid JSON (%v)", ErrInvalidCall, name, err)
	}
	if err := r.entries[i].schema.Validate(doc); err != nil {
		return nil, fmt.Errorf("%w: the arguments of %s do not match its schema: %s", ErrInvalidCall, name, schemaProblem(err))
	}
	return json.RawMessage(args), nil
}

// schemaProblem keeps the lines of a validation error that say what is
// wrong, without the schema's internal address.
func schemaProblem(err error) string {
	var lines []string
	for _, l := range strings.Split(err.Error(), "\n") {
		l = strings.TrimSpace(l)
		if l == "" || strings.HasPrefix(l, "jsonschema validation failed") {
			continue
		}
		lines = append(lines, strings.TrimPrefix(l, "- "))
	}
	if len(lines) == 0 {
		return err.Error()
	}
	return strings.Join(lines, "; ")
}

package tools

import (
	"context"
	"fmt"
	"log/slog"
	"sync"

	"github.com/errand-app/errand/backend/chat"
)

// Source offers tools that come and go while Errand runs: the tools of the
// MCP servers that are ready. Generation changes whenever the list does.
type Source interface {
	Tools() (list []Tool, generation uint64)
	// Generation is Tools' generation alone, cheap to ask at every step.
	Generation() uint64
}

// Asker asks the person a question on behalf of a running tool (an MCP
// server's elicitation) and waits for the answer, or for Stop.
type Asker func(ctx context.Context, q Question) (string, error)

// Question is what a running tool asks: text, one-click choices, or a
// form (then the answer is a JSON object of the fields' values, checked
// against them before it comes back).
type Question struct {
	Text    string
	Choices []string
	Fields  []chat.FormField
}

// Live is the registry a task's step uses: the fixed tools and the control
// tools, then whatever the Source offers now. The registry is rebuilt only
// when the Source's generation changes.
type Live struct {
	specs []Spec
	fixed []Tool
	src   Source
	first sync.Once // Prepare's

	mu  sync.Mutex
	gen uint64
	reg *Registry
}

// NewLive builds nothing yet: the registry of the fixed tools is made on
// first use (Registry, or Prepare beforehand). Making it compiles every
// schema and reads RunCommand's description, which tries the sandbox once
// (it runs bwrap): work a program's start need not wait for.
func NewLive(specs []Spec, fixed []Tool, src Source) *Live {
	return &Live{specs: specs, fixed: fixed, src: src}
}

// Prepare builds the registry of the fixed tools, the first time it is
// called. A schema that does not compile or a duplicate name among them is
// a programming error: it panics.
func (l *Live) Prepare() {
	l.first.Do(func() {
		reg, err := NewRegistry(l.specs, l.fixed)
		if err != nil {
			panic(err)
		}
		l.reg = reg
	})
}

// Registry is the registry as of now. It is built outside the lock, so
// that a slow build holds no one else up: a task asking meanwhile gets the
// registry as it was.
func (l *Live) Registry() *Registry {
	l.Prepare()
	if l.src == nil {
		return l.reg
	}
	l.mu.Lock()
	if l.src.Generation() == l.gen {
		defer l.mu.Unlock()
		return l.reg
	}
	l.mu.Unlock()
	extra, gen := l.src.Tools()
	reg := l.build(extra)
	l.mu.Lock()
	defer l.mu.Unlock()
	if gen > l.gen {
		l.gen, l.reg = gen, reg
	}
	return l.reg
}

// build makes the registry of the fixed tools and the source's, in one
// pass: a source's tool that cannot be offered (its schema, or a name
// already taken) is left out, and the built-ins never go with it.
func (l *Live) build(extra []Tool) *Registry {
	r, _ := NewRegistry(l.specs, l.fixed) // checked by Prepare
	for _, t := range extra {
		if err := r.add(Spec{Name: t.Name(), Description: t.Description(), Schema: t.Schema()}, t); err != nil {
			slog.Warn("a tool cannot be offered", "err", err)
		}
	}
	return r
}

// CheckSchema tells whether a tool's input schema can be offered: a JSON
// schema of type "object" that compiles.
func CheckSchema(name string, schema map[string]any) error {
	if schema == nil {
		return fmt.Errorf("it declares no input schema")
	}
	if t, _ := schema["type"].(string); t != "object" {
		return fmt.Errorf("its input schema is not an object (type %v)", schema["type"])
	}
	_, err := compile(name, schema)
	return err
}

// Package tools holds what the agent can do besides talking: a registry of
// tools, each declaring its name, description, JSON schema and risk, and
// the built-in tools that work on files in a workspace folder, run shell
// commands and fetch web pages.
//
// Risk is set by the tool, never by the model. Arguments are validated
// against the tool's schema before it runs. A failure the model can recover
// from (a missing file, a command that exits 1) is a Result with IsError; a
// Go error is for the machinery, and the context being cancelled (Stop).
package tools

import (
	"context"
	"encoding/json"
)

// Risk says what a tool can do to the person's machine.
type Risk string

const (
	// RiskRead tools only look: list, read, search, fetch.
	RiskRead Risk = "read_only"
	// RiskWrite tools change files in the workspace.
	RiskWrite Risk = "writes"
	// RiskDestructive tools can do anything the user can: run commands.
	RiskDestructive Risk = "destructive"
)

// Valid reports whether r is one of the three risks.
func (r Risk) Valid() bool { return r == RiskRead || r == RiskWrite || r == RiskDestructive }

// Env is what a tool works in.
type Env struct {
	// Workspace is the folder the tool may touch; nil means none was set.
	Workspace *Workspace
	// AllowLocal lists the local network addresses (ip:port, as in
	// LocalAccessError.Address) the person approved for this one call.
	AllowLocal []string
	// Network lets a sandboxed command reach the network: the person
	// allowed it for the task.
	Network bool
	// Ask puts a question to the person while the tool runs; nil where
	// nobody can answer.
	Ask Asker
	// Output, when set, gets a command's output as it arrives, from
	// another goroutine (the result still holds all of it).
	Output func(text string)
	// Checkpoints, when set, keeps what the tools change in the workspace
	// so the task's changes can be undone.
	Checkpoints Checkpoints
}

// Checkpoints keeps the state of workspace files around a tool's change.
// Paths are relative to the workspace, with forward slashes. A tool whose
// before-state cannot be kept changes nothing: a change that could not be
// undone is refused rather than made silently.
type Checkpoints interface {
	// BeforeWrite keeps the file's state before the tool changes it.
	BeforeWrite(ctx context.Context, rel string) error
	// AfterWrite keeps its state after the change (also after a failed one).
	AfterWrite(ctx context.Context, rel string) error
	// BeforeCommand keeps the workspace's files before a command that may
	// change any of them; the returned func records what changed and must
	// be called once the command is over, whatever its outcome.
	BeforeCommand(ctx context.Context) (after func(ctx context.Context) (string, error), err error)
	// NotUndoable records that a tool whose changes cannot be kept (an
	// MCP server's tool that may write) was called, so Undo names it.
	NotUndoable(ctx context.Context, tool string) error
}

// Sandboxer is a Tool that runs in a sandbox where the platform has one.
type Sandboxer interface {
	// Sandboxed reports whether its calls run in the sandbox here.
	Sandboxed() bool
	// WantsNetwork reports whether a call asks for the network, which the
	// sandbox keeps off unless Env.Network allows it.
	WantsNetwork(args json.RawMessage) bool
}

// Result is what the model is told.
type Result struct {
	Content string
	IsError bool
}

// Tool is one action the agent can take.
type Tool interface {
	Name() string
	Description() string
	// Schema is the JSON schema (type "object") of the arguments.
	Schema() map[string]any
	Risk() Risk
	// Run does the work. args has been validated against Schema.
	Run(ctx context.Context, env Env, args json.RawMessage) (Result, error)
}

// Previewer is a Tool that can show what it would do before it runs, for
// the person deciding whether to approve it (a diff, say).
type Previewer interface {
	Preview(ctx context.Context, env Env, args json.RawMessage) (string, error)
}

func errorResult(format string, args ...any) (Result, error) {
	return Result{Content: sprintf(format, args...), IsError: true}, nil
}

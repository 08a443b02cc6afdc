package agent

import (
	"context"
	"fmt"
	"log/slog"
	"sort"
	"strings"

	"github.com/errand-app/errand/backend/chat"
	"github.com/errand-app/errand/backend/contextwin"
	"github.com/errand-app/errand/backend/tools"
)

// Facts is the memory of explicit facts (remember and forget): the
// store implements it. See store.Store for what each method refuses.
type Facts interface {
	// Facts returns the facts the agent sees in a conversation: its own
	// first, then the global ones, each most recently updated first.
	Facts(ctx context.Context, conversationID string) ([]chat.Fact, error)
	// RememberFact stores a fact, or updates the one its owner has with
	// the same key.
	RememberFact(ctx context.Context, f chat.Fact) (chat.Fact, error)
	// ForgetFact deletes the fact with key: the conversation's own, else
	// the global one.
	ForgetFact(ctx context.Context, conversationID, key string) (chat.Fact, error)
}

// memoryMaxBytes bounds the facts shown to the model in one request.
const memoryMaxBytes = 4096

// memoryTools are the control tools that exist only while memory is on.
var memoryTools = map[string]bool{ToolRemember: true, ToolForget: true}

// memoryOn reports whether the agent may read and keep facts now.
func (r *Runner) memoryOn(s chat.Settings) bool { return r.opts.Facts != nil && s.MemoryEnabled }

// agentTools are the tools offered to an agent's model: the control tools
// and the agent's own.
func (r *Runner) agentTools(s chat.Settings, def chat.AgentDefinition) toolSet {
	return r.toolsWhere(s, func(name string) bool {
		// reflect is offered only in a reflection (see run.reflect).
		return name != ToolReflect && offeredTo(def, name) && (isControl(name) || def.Allows(name))
	})
}

// toolsWhere are the tools offered to the model that keep says to keep:
// never remember and forget while memory is off.
func (r *Runner) toolsWhere(s chat.Settings, keep func(name string) bool) toolSet {
	reg := r.tools.Registry()
	defs := reg.Definitions()
	out := defs[:0:0]
	for _, d := range defs {
		if keep(d.Name) && (r.memoryOn(s) || !memoryTools[d.Name]) {
			out = append(out, d)
		}
	}
	return newToolSet(reg.ID(), out)
}

// withMemory is the system prompt followed by the memory section: how to
// use remember and forget (in agent mode) and the facts of the
// conversation, read afresh for every request so that a fact remembered or
// edited a moment ago is there.
func (rn *run) withMemory(ctx context.Context, system string, s chat.Settings, agentMode bool) string {
	if !rn.r.memoryOn(s) {
		return system
	}
	var b strings.Builder
	b.WriteString(system)
	switch {
	case agentMode && rn.small(s):
		b.WriteString("\n\n### Memory\n" + compactMemoryHowTo)
	case agentMode:
		b.WriteString("\n\n### Memory\n" + memoryHowTo)
	}
	facts, err := rn.r.opts.Facts.Facts(ctx, rn.snapshot().ConversationID)
	if err != nil {
		slog.Warn("read facts", "task", rn.snapshot().ID, "err", err)
		return b.String()
	}
	if block := memoryBlock(facts, rn.memoryRoom(s)); block != "" {
		b.WriteString("\n\n" + block)
	}
	return b.String()
}

// memoryRoom is how many bytes of facts a request may carry: at most
// memoryMaxBytes, and an eighth of the model's input budget (at about four
// bytes a token), so that facts never crowd out the conversation of a
// small model.
func (rn *run) memoryRoom(s chat.Settings) int {
	return min(memoryMaxBytes, contextwin.NewBudget(rn.contextLength(s)).Input()/8*4)
}

// memoryHowTo tells the model about remember and forget.
const memoryHowTo = `- remember: keep a fact the user asks you to remember (or clearly wants kept): a short key and its value; scope "conversation" (the default) or "global" for every conversation. Remembering a key again replaces its value. Never remember passwords, API keys or other secrets.
- forget: remove a fact by its key when the user asks.`

// memoryHeader starts the list of facts in the system prompt.
const memoryHeader = "Facts you were asked to remember (the person can edit them):"

// memoryBlock lists facts as "- key: value" lines under memoryHeader, the
// conversation's first, then the global ones, each most recently updated
// first, in at most maxBytes: a fact that does not fit is left out, and a
// note says how many were. No facts give "".
func memoryBlock(facts []chat.Fact, maxBytes int) string {
	// Room is kept for the note, which is short.
	const noteRoom = 120
	if len(facts) == 0 || maxBytes < len(memoryHeader)+noteRoom {
		return ""
	}
	sorted := append([]chat.Fact(nil), facts...)
	sort.SliceStable(sorted, func(i, j int) bool {
		gi, gj := sorted[i].Scope == chat.ScopeGlobal, sorted[j].Scope == chat.ScopeGlobal
		if gi != gj {
			return !gi
		}
		return sorted[i].UpdatedAt.After(sorted[j].UpdatedAt)
	})
	var b strings.Builder
	b.WriteString(memoryHeader)
	left := 0
	for _, f := range sorted {
		line := "\n- " + f.Key + ": " + strings.ReplaceAll(f.Value, "\n", "\n  ")
		if f.Scope == chat.ScopeGlobal {
			line += " (global)"
		}
		if b.Len()+len(line)+noteRoom > maxBytes {
			left++
			continue
		}
		b.WriteString(line)
	}
	if left > 0 {
		fmt.Fprintf(&b, "\n(%d more %s left out to keep this short; the person can see all of them in Settings → Memory.)", left, plural(left, "fact was", "facts were"))
	}
	return b.String()
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// remember carries out a remember call: the fact is stored, or the model
// is told why not (bad input, a secret-looking value, memory off).
func (rn *run) remember(ctx context.Context, a rememberArgs) tools.Result {
	if res, off := rn.memoryOff(ctx); off {
		return res
	}
	t := rn.snapshot()
	f := chat.Fact{Key: a.Key, Value: a.Value, Scope: a.Scope}
	if f.Scope == chat.ScopeConversation {
		f.ConversationID = t.ConversationID
	}
	f, err := rn.r.opts.Facts.RememberFact(ctx, f)
	if err != nil {
		return rn.factError("remember", err)
	}
	rn.r.opts.Events.FactsChanged(f.ConversationID)
	where := "this conversation"
	if f.Scope == chat.ScopeGlobal {
		where = "every conversation"
	}
	return tools.Result{Content: fmt.Sprintf("Remembered %s for %s. The user can see and edit it in Settings → Memory.", chat.Quote(f.Key), where)}
}

// forget carries out a forget call.
func (rn *run) forget(ctx context.Context, a forgetArgs) tools.Result {
	if res, off := rn.memoryOff(ctx); off {
		return res
	}
	f, err := rn.r.opts.Facts.ForgetFact(ctx, rn.snapshot().ConversationID, a.Key)
	if err != nil {
		return rn.factError("forget", err)
	}
	rn.r.opts.Events.FactsChanged(f.ConversationID)
	return tools.Result{Content: fmt.Sprintf("Forgot %s.", chat.Quote(f.Key))}
}

// memoryOff answers a memory call made while memory is off (the tools are
// not offered then, but a model may still call them).
func (rn *run) memoryOff(ctx context.Context) (tools.Result, bool) {
	if rn.r.memoryOn(rn.r.settings(ctx)) {
		return tools.Result{}, false
	}
	return tools.Result{Content: "Memory is turned off in the settings: nothing can be remembered or forgotten.", IsError: true}, true
}

// factError tells the model why a memory call failed; a failure of the
// storage is logged too.
func (rn *run) factError(what string, err error) tools.Result {
	switch chat.ErrorCode(err) {
	case chat.CodeInvalid, chat.CodeNotFound, chat.CodeConflict:
	default:
		slog.Error("memory call failed", "tool", what, "task", rn.snapshot().ID, "err", err)
	}
	return tools.Result{Content: fmt.Sprintf("%s failed: %s. Nothing was changed.", what, chat.ErrorMessage(err)), IsError: true}
}

// ToolNames lists the built-in tools (not the control tools) an agent can
// be given.
func (r *Runner) ToolNames() []string {
	var out []string
	for _, t := range r.tools.Registry().Definitions() {
		if !isControl(t.Name) {
			out = append(out, t.Name)
		}
	}
	return out
}

// HasTool reports whether name is a built-in tool an agent can be given.
func (r *Runner) HasTool(name string) bool {
	return !isControl(name) && r.tools.Registry().Tool(name) != nil
}

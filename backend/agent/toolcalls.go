package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/errand-app/errand/backend/chat"
	"github.com/errand-app/errand/backend/tools"
)

// runToolCalls answers every tool call of one reply, in order, with exactly
// one stored result each. It reports whether task_complete was called (and
// its summary); calls after it are answered as not run.
func (rn *run) runToolCalls(ctx context.Context, st *loopState, calls []chat.ToolCall) (summary string, done bool, err error) {
	for _, call := range calls {
		if err := ctx.Err(); err != nil {
			return "", false, err
		}
		var res tools.Result
		completes := false
		if done {
			res = tools.Result{Content: "Not run: the task was already marked complete.", IsError: true}
		} else {
			res, summary, completes, err = rn.runToolCall(ctx, st, call)
			if err != nil {
				return "", false, err
			}
			done = completes
		}
		m := rn.newMessage(chat.RoleTool, res.Content)
		m.ToolCallID, m.ToolName, m.IsError = call.ID, call.Name, res.IsError
		if st.denied {
			m.Outcome, st.denied = chat.OutcomeDenied, false
		}
		if completes && rn.willReflect() {
			// No completion card until the reflection accepts it.
			m.Outcome = chat.OutcomeChecking
		}
		if completes {
			st.completion = m
		}
		// The result and the end of the call are stored together.
		worked := st.toolTime
		st.toolTime = 0
		if err := rn.record(func(t *chat.Task) {
			if t.Status == chat.StatusToolExecuting {
				t.Status = chat.StatusRunning
			}
			t.CurrentTool, t.CurrentCallID = "", ""
			t.ActiveMS += worked.Milliseconds()
		}, m); err != nil {
			return "", false, err
		}
		if st.invalidCalls >= maxInvalidCalls {
			return "", false, chat.Errorf(chat.CodeModel,
				"The model made %d invalid tool calls in a row; the last: %s", maxInvalidCalls, res.Content)
		}
	}
	return summary, done, nil
}

// runToolCall validates and carries out one call. A Go error means the task
// must end (Stop, storage); everything the model can recover from is in the
// Result.
func (rn *run) runToolCall(ctx context.Context, st *loopState, call chat.ToolCall) (res tools.Result, summary string, done bool, err error) {
	reg := rn.r.tools.Registry()
	ctl, isCtl := controlFor(call.Name)
	var args json.RawMessage
	var do act
	verr := rn.offered(call.Name)
	if verr == nil {
		args, verr = reg.Validate(call.Name, call.Arguments)
	}
	if verr == nil && isCtl {
		do, verr = ctl.parse(args)
	}
	if verr != nil {
		st.invalidCalls++
		return tools.Result{Content: strings.TrimPrefix(verr.Error(), tools.ErrInvalidCall.Error()+": "), IsError: true}, "", false, nil
	}
	st.invalidCalls = 0

	// The same call over and over is a loop: nudge, then pause.
	sig := call.Name + "\x00" + compactJSON(args)
	if sig == st.lastCall {
		st.repeats++
	} else {
		st.lastCall, st.repeats = sig, 1
	}
	if st.repeats >= pauseRepeats {
		q := fmt.Sprintf("The agent made the same %s call %d times in a row. Let it continue, or stop?", call.Name, st.repeats)
		if err := rn.pause(ctx, chat.PauseRepeat, q); err != nil {
			return res, "", false, err
		}
		st.repeats = 0
	}
	defer func() {
		if err == nil && st.repeats >= nudgeRepeats {
			res.Content += fmt.Sprintf("\n\nNote: you have made this exact call %d times in a row with the same arguments. Its result will not change; try something different, or finish with task_complete.", st.repeats)
		}
	}()

	if do != nil {
		o, err := do(ctx, rn, call.ID)
		return o.res, o.summary, o.done, err
	}
	res, err = rn.runTool(ctx, st, call, reg.Tool(call.Name), args)
	return res, "", false, err
}

// offered refuses a call to a tool the task's agent does not have, as the
// registry refuses an unknown tool: the model is told which tools it can use.
func (rn *run) offered(name string) error {
	if rn.snapshot().Reflecting && name != ToolReflect {
		return fmt.Errorf("%w: during a reflection only reflect can be called; %s was not run", tools.ErrInvalidCall, name)
	}
	if reg := rn.r.tools.Registry(); !reg.Has(name) {
		return rn.unknownTool(reg, name)
	}
	if offeredTo(rn.def, name) && (isControl(name) || rn.def.Allows(name)) {
		return nil
	}
	var names []string
	for _, t := range rn.r.agentTools(rn.r.settings(rn.ctx), rn.def).list {
		names = append(names, t.Name)
	}
	return fmt.Errorf("%w: unknown tool %q. The tools you can use are: %s", tools.ErrInvalidCall, name, strings.Join(names, ", "))
}

// unknownTool is the registry's refusal of a tool nobody has, naming the
// tools that exist for this task's agent (end_conversation only where its
// definition offers it).
func (rn *run) unknownTool(reg *tools.Registry, name string) error {
	var names []string
	for _, n := range reg.NameList() {
		if offeredTo(rn.def, n) {
			names = append(names, n)
		}
	}
	return fmt.Errorf("%w: unknown tool %q. The tools that exist are: %s", tools.ErrInvalidCall, name, strings.Join(names, ", "))
}

// runTool asks for approval when the tool's risk needs it, then runs it.
func (rn *run) runTool(ctx context.Context, st *loopState, call chat.ToolCall, tool tools.Tool, args json.RawMessage) (tools.Result, error) {
	ws, err := rn.workspace(ctx)
	if err != nil {
		slog.Warn("workspace unavailable", "tool", tool.Name(), "task", rn.snapshot().ID, "err", err)
		return tools.Result{Content: "The workspace folder cannot be used: " + chat.ErrorMessage(err), IsError: true}, nil
	}
	env := tools.Env{Workspace: ws, Ask: rn.toolAsker(call)}
	if ws != nil && rn.r.opts.Checkpoints != nil {
		env.Checkpoints = rn.r.opts.Checkpoints(rn.snapshot().ID, ws.Dir())
	}
	if rn.needsApproval(ctx, tool) {
		ok, reason, res, err := rn.approve(ctx, call, tool, env, args)
		if err != nil || !ok {
			if err == nil && res.Content == "" {
				res, st.denied = denied(reason), true
			}
			return res, err
		}
	}
	if network, asked := rn.networkFor(tool, args); asked && !network {
		ok, reason, err := rn.approveNetwork(ctx, call, tool)
		if err != nil || !ok {
			st.denied = err == nil
			return denied(reason), err
		}
	}
	env.Network = rn.networkAllowed()
	for {
		res, err := rn.execute(ctx, st, call, tool, env, args)
		var local *tools.LocalAccessError
		if !errors.As(err, &local) {
			return res, err
		}
		// A local network address needs the person's say, every time.
		ok, reason, err := rn.approveLocal(ctx, call, tool, local)
		if err != nil || !ok {
			st.denied = err == nil
			return denied(reason), err
		}
		env.AllowLocal = append(env.AllowLocal, local.Address)
	}
}

// toolAsker lets a running tool ask the person (an MCP server's
// elicitation): the question waits like ask_user's, and when it is
// answered the call is shown as running again.
func (rn *run) toolAsker(call chat.ToolCall) tools.Asker {
	n := 0
	return func(ctx context.Context, q tools.Question) (string, error) {
		n++
		a := askUserArgs{Question: q.Text, Choices: q.Choices, Fields: q.Fields}
		if err := checkQuestion(&a, call.Name); err != nil {
			return "", err
		}
		answer, err := rn.ask(ctx, fmt.Sprintf("%s#ask%d", call.ID, n), a)
		if err != nil {
			return "", err
		}
		return answer, rn.update(func(t *chat.Task) {
			t.Status = chat.StatusToolExecuting
			t.CurrentTool, t.CurrentCallID = call.Name, call.ID
		})
	}
}

func denied(reason string) tools.Result {
	res := tools.Result{Content: "The user denied this call.", IsError: true}
	if reason != "" {
		res.Content += " Their reason: " + reason
	}
	return res
}

// execute runs an approved call. The call is stored as running before it
// starts: after a crash it is known to have been cut off, and never re-run
// silently. The only Go errors are the task's end and a
// *tools.LocalAccessError, which the caller asks the person about.
func (rn *run) execute(ctx context.Context, st *loopState, call chat.ToolCall, tool tools.Tool, env tools.Env, args json.RawMessage) (tools.Result, error) {
	if err := rn.update(func(t *chat.Task) {
		t.Status = chat.StatusToolExecuting
		t.CurrentTool = tool.Name()
		t.CurrentCallID = call.ID
	}); err != nil {
		return tools.Result{}, err
	}
	env.Output = rn.liveOutput(call.ID)
	start := time.Now()
	res, err := tool.Run(ctx, env, args)
	st.toolTime += time.Since(start)
	var local *tools.LocalAccessError
	switch {
	case err == nil:
		return res, nil
	case ctx.Err() != nil:
		return res, ctx.Err()
	case errors.As(err, &local):
		return res, err
	}
	// A failure of the machinery, told to the model all the same.
	slog.Warn("tool failed", "tool", tool.Name(), "task", rn.snapshot().ID, "err", err)
	return tools.Result{Content: fmt.Sprintf("%s failed: %s", tool.Name(), err), IsError: true}, nil
}

// maxLiveOutput is the most of one call's output shown live; the result
// holds the rest.
const maxLiveOutput = 256 << 10

// liveOutput publishes a call's output as it arrives.
func (rn *run) liveOutput(callID string) func(string) {
	ev := rn.r.opts.Events
	t := rn.snapshot()
	var mu sync.Mutex
	sent := 0
	return func(text string) {
		mu.Lock()
		defer mu.Unlock()
		if sent >= maxLiveOutput {
			return
		}
		if sent+len(text) > maxLiveOutput {
			text = text[:maxLiveOutput-sent]
		}
		sent += len(text)
		ev.ToolOutput(ToolOutput{ConversationID: t.ConversationID, TaskID: t.ID, CallID: callID, Text: text})
	}
}

// approveLocal asks the person whether the call may reach a local network
// address: this computer or the local network, never approved in advance.
func (rn *run) approveLocal(ctx context.Context, call chat.ToolCall, tool tools.Tool, local *tools.LocalAccessError) (ok bool, reason string, err error) {
	id := call.ID + "@" + local.Address
	d, err := rn.waitFor(ctx, &wait{kind: waitApproval, id: id}, func(t *chat.Task) {
		t.Status = chat.StatusWaitingApproval
		t.CurrentTool = tool.Name()
		t.PendingApproval = &chat.Approval{
			CallID: id, Tool: tool.Name(), Risk: chat.RiskLocalNetwork, Address: local.Address,
			Arguments: local.URL,
			Preview: fmt.Sprintf("%s wants to reach %s, an address on this computer or your local network (%s). "+
				"Local services are not meant for the internet; allow it only if you expect this.", tool.Name(), local.Address, local.URL),
		}
	})
	return d.approved, d.text, err
}

// networkFor reports whether a sandboxed call asks for the network
// (asked), and whether the person allowed it for the task already.
func (rn *run) networkFor(tool tools.Tool, args json.RawMessage) (allowed, asked bool) {
	sb, ok := tool.(tools.Sandboxer)
	if !ok || !sb.Sandboxed() || !sb.WantsNetwork(args) {
		return false, false
	}
	return rn.networkAllowed(), true
}

func (rn *run) networkAllowed() bool {
	rn.mu.Lock()
	defer rn.mu.Unlock()
	return rn.task.NetworkAllowed
}

// approveNetwork asks the person whether sandboxed commands may reach the
// network for the rest of the task.
func (rn *run) approveNetwork(ctx context.Context, call chat.ToolCall, tool tools.Tool) (ok bool, reason string, err error) {
	id := call.ID + "@network"
	d, err := rn.waitFor(ctx, &wait{kind: waitApproval, id: id}, func(t *chat.Task) {
		t.Status = chat.StatusWaitingApproval
		t.CurrentTool = tool.Name()
		t.PendingApproval = &chat.Approval{
			CallID: id, Tool: tool.Name(), Risk: chat.RiskNetwork, Sandbox: chat.SandboxOn,
			Preview: fmt.Sprintf("%s runs commands in a sandbox without the network. This command asks for it "+
				"(to download or install, say). Allowing it lets this task's commands reach the internet "+
				"and your local network until the task ends.", tool.Name()),
		}
	})
	// An approval stored the grant with it (see grantOf).
	return d.approved, d.text, err
}

// needsApproval: a tool that writes or is destructive waits for the person,
// unless the settings approve its risk or the person approved the tool for
// this task. The settings are read now, so a change applies at once.
func (rn *run) needsApproval(ctx context.Context, tool tools.Tool) bool {
	if rn.r.settings(ctx).AutoApprove[string(tool.Risk())] {
		return false
	}
	rn.mu.Lock()
	defer rn.mu.Unlock()
	return !slices.Contains(rn.task.ApprovedTools, tool.Name())
}

// approve shows the call (and what it would change) and waits for the
// person. A call whose preview fails is not shown: it could not succeed, and
// the model is told why instead.
func (rn *run) approve(ctx context.Context, call chat.ToolCall, tool tools.Tool, env tools.Env, args json.RawMessage) (ok bool, reason string, res tools.Result, err error) {
	var preview string
	if p, can := tool.(tools.Previewer); can {
		preview, err = p.Preview(ctx, env, args)
		if err != nil {
			if ctx.Err() != nil {
				return false, "", res, ctx.Err()
			}
			return false, "", tools.Result{Content: err.Error(), IsError: true}, nil
		}
	}
	d, err := rn.waitFor(ctx, &wait{kind: waitApproval, id: call.ID, tool: tool.Name()}, func(t *chat.Task) {
		t.Status = chat.StatusWaitingApproval
		t.CurrentTool = tool.Name()
		t.PendingApproval = &chat.Approval{
			CallID: call.ID, Tool: tool.Name(), Risk: string(tool.Risk()),
			Arguments: prettyJSON(args), Preview: preview, Sandbox: sandboxNote(tool),
		}
	})
	return d.approved, d.text, res, err
}

// sandboxNote says whether a tool that can run in a sandbox would.
func sandboxNote(tool tools.Tool) string {
	sb, ok := tool.(tools.Sandboxer)
	switch {
	case !ok:
		return ""
	case sb.Sandboxed():
		return chat.SandboxOn
	}
	return chat.SandboxOff
}

// workspace opens the conversation's workspace folder once per run.
func (rn *run) workspace(ctx context.Context) (*tools.Workspace, error) {
	if rn.ws != nil || rn.r.opts.Workspace == nil {
		return rn.ws, nil
	}
	ws, err := rn.r.opts.Workspace(ctx, rn.snapshot().ConversationID)
	if err != nil {
		return nil, err
	}
	rn.ws = ws
	return ws, nil
}

func (rn *run) closeWorkspace() {
	if rn.ws != nil {
		rn.ws.Close()
		rn.ws = nil
	}
}

func compactJSON(raw json.RawMessage) string {
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return string(raw)
	}
	b, _ := json.Marshal(v) // map keys come out sorted
	return string(b)
}

func prettyJSON(raw json.RawMessage) string {
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return string(raw)
	}
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return string(raw)
	}
	return string(b)
}

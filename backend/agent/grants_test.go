package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/errand-app/errand/backend/chat"
	"github.com/errand-app/errand/backend/modelserver/compat"
	"github.com/errand-app/errand/backend/tools"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// sandboxedTool stands for run_command in a sandbox: every call asks for
// the network, and its result says whether it got it. It runs nothing, so
// the test needs no bwrap.
type sandboxedTool struct{}

func (sandboxedTool) Name() string                      { return "fetch_deps" }
func (sandboxedTool) Description() string               { return "Downloads the dependencies." }
func (sandboxedTool) Schema() map[string]any            { return map[string]any{"type": "object"} }
func (sandboxedTool) Risk() tools.Risk                  { return tools.RiskRead }
func (sandboxedTool) Sandboxed() bool                   { return true }
func (sandboxedTool) WantsNetwork(json.RawMessage) bool { return true }
func (sandboxedTool) Run(_ context.Context, env tools.Env, _ json.RawMessage) (tools.Result, error) {
	return tools.Result{Content: fmt.Sprintf("network=%v", env.Network)}, nil
}

func askCity() compat.Reply {
	return compat.Reply{ToolCalls: []chat.ToolCall{call(ToolAskUser, `{"question":"Which city?","choices":["Lisbon","Porto"]}`)}}
}

func TestTheNetworkAllowedForATaskSurvivesARestartAndNoOtherTaskGetsIt(t *testing.T) {
	t.Parallel()
	fetch := compat.Reply{ToolCalls: []chat.ToolCall{call("fetch_deps", `{}`)}}
	h := newHarness(t, script(t,
		fetch, askCity(), fetch, complete("fetched twice"), // the first task
		fetch, complete("asked"), // the second
	), harnessOpts{toolSource: oneTool{sandboxedTool{}}})
	ctx := context.Background()
	conv := h.conversation()
	first := h.start(conv, "Fetch the dependencies")

	a := h.events.waitStatus(first.ID, chat.StatusWaitingApproval).PendingApproval
	require.NotNil(t, a)
	require.Equal(t, chat.RiskNetwork, a.Risk)
	require.NoError(t, h.runner.Approve(ctx, first.ID, a.CallID, false))
	h.events.waitStatus(first.ID, chat.StatusWaitingUser)
	assert.True(t, h.task(first.ID).NetworkAllowed, "the allowance is stored with the task")

	// Errand quits while the task waits on a question; the next start
	// resumes it, and its next command gets the network without asking
	// (were it asked, the task would wait on the card and never complete).
	_, waiting := h.restart()
	require.Equal(t, 1, waiting)
	require.NoError(t, h.runner.Respond(ctx, first.ID, "Porto"))
	done := h.events.waitStatus(first.ID, chat.StatusCompleted)
	assert.Equal(t, "fetched twice", done.Summary)
	assert.False(t, h.task(first.ID).NetworkAllowed, "the allowance ends with its task")

	// Another task in the same conversation asks again.
	second := h.start(conv, "Fetch them again")
	b := h.events.waitStatus(second.ID, chat.StatusWaitingApproval).PendingApproval
	require.NotNil(t, b)
	assert.Equal(t, chat.RiskNetwork, b.Risk, "the first task's allowance does not reach the second")
	require.NoError(t, h.runner.Deny(ctx, second.ID, b.CallID, "not now"))
	h.events.waitStatus(second.ID, chat.StatusCompleted)

	reqs := h.server.Requests()
	require.Len(t, reqs, 6)
	assert.Equal(t, "tool: network=true", lastMessages(reqs[1], 1)[0])
	assert.Equal(t, "tool: network=true", lastMessages(reqs[3], 1)[0], "after the restart")
	assert.Contains(t, lastMessages(reqs[5], 1)[0], "The user denied this call.")
}

func TestAToolApprovedForATaskStaysApprovedAfterARestartAndOnlyForThatTask(t *testing.T) {
	t.Parallel()
	h := newHarness(t, script(t,
		writeFile("a.txt", "one"), askCity(), writeFile("a.txt", "two"), complete("written twice"), // the first task
		writeFile("a.txt", "three"), complete("asked"), // the second
	), harnessOpts{})
	ctx := context.Background()
	conv := h.conversation()
	first := h.start(conv, "Write it")

	a := h.events.waitStatus(first.ID, chat.StatusWaitingApproval).PendingApproval
	require.NotNil(t, a)
	require.NoError(t, h.runner.Approve(ctx, first.ID, a.CallID, true))
	h.events.waitStatus(first.ID, chat.StatusWaitingUser)
	assert.Equal(t, []string{"write_file"}, h.task(first.ID).ApprovedTools)

	_, waiting := h.restart()
	require.Equal(t, 1, waiting)
	require.NoError(t, h.runner.Respond(ctx, first.ID, "Porto"))
	assert.Equal(t, "written twice", h.events.waitStatus(first.ID, chat.StatusCompleted).Summary)
	assert.Empty(t, h.task(first.ID).ApprovedTools, "the approval ends with its task")

	second := h.start(conv, "Write it again")
	b := h.events.waitStatus(second.ID, chat.StatusWaitingApproval).PendingApproval
	require.NotNil(t, b)
	assert.Equal(t, "write_file", b.Tool, "the first task's approval does not reach the second")
	require.NoError(t, h.runner.Deny(ctx, second.ID, b.CallID, ""))
	h.events.waitStatus(second.ID, chat.StatusCompleted)
}

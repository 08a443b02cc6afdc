package agent

import (
	"context"
	"fmt"
	"net"
	"testing"

	"github.com/errand-app/errand/backend/chat"
	"github.com/errand-app/errand/backend/modelserver/compat"
	"github.com/errand-app/errand/backend/tools"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func command(args string) compat.Reply {
	return compat.Reply{ToolCalls: []chat.ToolCall{call("run_command", args)}}
}

func TestACommandsApprovalCardSaysWhetherItIsSandboxed(t *testing.T) {
	t.Parallel()
	h := newHarness(t, script(t, command(`{"command":"echo hi"}`), complete("done")), harnessOpts{})
	task := h.start(h.conversation(), "Run it")
	a := h.events.waitStatus(task.ID, chat.StatusWaitingApproval).PendingApproval
	require.NotNil(t, a)
	want := chat.SandboxOff
	if tools.SandboxAvailable() {
		want = chat.SandboxOn
	}
	assert.Equal(t, want, a.Sandbox)
	require.NoError(t, h.runner.Approve(context.Background(), task.ID, a.CallID, false))
	h.events.waitStatus(task.ID, chat.StatusCompleted)
}

// listen accepts and closes connections on a local port until the test ends.
func listen(t *testing.T) int {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			c.Close()
		}
	}()
	return ln.Addr().(*net.TCPAddr).Port
}

func TestASandboxedCommandGetsTheNetworkOnlyOnceThePersonAllowsIt(t *testing.T) {
	t.Parallel()
	if !tools.SandboxAvailable() {
		t.Skip("no sandbox here")
	}
	port := listen(t)
	reach := fmt.Sprintf(`{"command":"exec 3<>/dev/tcp/127.0.0.1/%d && echo connected","network":true}`, port)
	h := newHarness(t, script(t, command(reach), command(reach), command(reach), complete("done")), harnessOpts{})
	h.settings(func(s *chat.Settings) { s.AutoApprove = map[string]bool{string(tools.RiskDestructive): true} })
	ctx := context.Background()
	task := h.start(h.conversation(), "Download it")

	// The first asks, and is denied: the command does not run.
	a := h.events.waitStatus(task.ID, chat.StatusWaitingApproval).PendingApproval
	require.NotNil(t, a)
	assert.Equal(t, chat.RiskNetwork, a.Risk, "auto-approved commands still ask for the network")
	require.NoError(t, h.runner.Deny(ctx, task.ID, a.CallID, "no downloads"))

	// The second asks again and is allowed; the third runs without asking.
	h.events.wait("the second call to ask", func() bool {
		p := h.events.last[task.ID].PendingApproval
		return p != nil && p.CallID != a.CallID
	})
	b := h.task(task.ID).PendingApproval
	assert.Equal(t, chat.RiskNetwork, b.Risk)
	require.NoError(t, h.runner.Approve(ctx, task.ID, b.CallID, false))
	h.events.waitStatus(task.ID, chat.StatusCompleted)

	reqs := h.server.Requests()
	require.Len(t, reqs, 4)
	assert.Contains(t, lastMessages(reqs[1], 1)[0], "The user denied this call. Their reason: no downloads")
	assert.Contains(t, lastMessages(reqs[2], 1)[0], "connected")
	assert.Contains(t, lastMessages(reqs[3], 1)[0], "connected")
}

func TestASandboxedCommandWithoutTheNetworkCannotReachIt(t *testing.T) {
	t.Parallel()
	if !tools.SandboxAvailable() {
		t.Skip("no sandbox here")
	}
	port := listen(t)
	h := newHarness(t, script(t, command(fmt.Sprintf(`{"command":"exec 3<>/dev/tcp/127.0.0.1/%d && echo connected"}`, port)), complete("done")), harnessOpts{})
	h.settings(func(s *chat.Settings) { s.AutoApprove = map[string]bool{string(tools.RiskDestructive): true} })
	task := h.start(h.conversation(), "Reach it")
	h.events.waitStatus(task.ID, chat.StatusCompleted)
	out := lastMessages(h.server.Requests()[1], 1)[0]
	assert.Contains(t, out, "Exit code 1")
	assert.NotContains(t, out, "connected\n")
}

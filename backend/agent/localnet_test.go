package agent

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/errand-app/errand/backend/chat"
	"github.com/errand-app/errand/backend/modelserver/compat"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func fetch(url string) compat.Reply {
	return compat.Reply{ToolCalls: []chat.ToolCall{call("fetch_url", `{"url":"`+url+`"}`)}}
}

func TestFetchingALocalAddressAsksEveryTime(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		_, _ = w.Write([]byte("local secret page"))
	}))
	defer srv.Close()
	h := newHarness(t, script(t, fetch(srv.URL), fetch(srv.URL), complete("fetched")), harnessOpts{})
	ctx := context.Background()
	conv := h.conversation()
	task := h.start(conv, "Fetch it")

	a := h.events.waitStatus(task.ID, chat.StatusWaitingApproval).PendingApproval
	require.NotNil(t, a)
	assert.Equal(t, chat.RiskLocalNetwork, a.Risk, "read-only fetch_url still asks for a local address")
	assert.Equal(t, strings.TrimPrefix(srv.URL, "http://"), a.Address)
	assert.Contains(t, a.Preview, a.Address)
	require.NoError(t, h.runner.Approve(ctx, task.ID, a.CallID, true))

	// Approving "for this task" does not cover the next local fetch.
	h.events.wait("the second fetch to ask again", func() bool {
		p := h.events.last[task.ID].PendingApproval
		return p != nil && p.CallID != a.CallID
	})
	second := h.task(task.ID).PendingApproval
	require.NoError(t, h.runner.Approve(ctx, task.ID, second.CallID, false))
	h.events.waitStatus(task.ID, chat.StatusCompleted)
	reqs := h.server.Requests()
	require.Len(t, reqs, 3)
	assert.Contains(t, lastMessages(reqs[1], 1)[0], "local secret page")
}

func TestARedirectToALocalAddressAsksForThatAddress(t *testing.T) {
	t.Parallel()
	target := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		t.Error("the redirect target was reached without approval")
	}))
	defer target.Close()
	first := httptest.NewServer(http.RedirectHandler(target.URL+"/admin", http.StatusFound))
	defer first.Close()
	h := newHarness(t, script(t, fetch(first.URL), complete("denied")), harnessOpts{})
	ctx := context.Background()
	conv := h.conversation()
	task := h.start(conv, "Fetch it")

	a := h.events.waitStatus(task.ID, chat.StatusWaitingApproval).PendingApproval
	assert.Equal(t, strings.TrimPrefix(first.URL, "http://"), a.Address)
	require.NoError(t, h.runner.Approve(ctx, task.ID, a.CallID, false))
	h.events.wait("the redirect to ask for its own address", func() bool {
		p := h.events.last[task.ID].PendingApproval
		return p != nil && p.CallID != a.CallID
	})
	b := h.task(task.ID).PendingApproval
	assert.Equal(t, strings.TrimPrefix(target.URL, "http://"), b.Address)
	assert.Contains(t, b.Arguments, "/admin")
	require.NoError(t, h.runner.Deny(ctx, task.ID, b.CallID, "not that one"))
	h.events.waitStatus(task.ID, chat.StatusCompleted)
	assert.Contains(t, lastMessages(h.server.Requests()[1], 1)[0], "The user denied this call.")
}

func TestAPrivateAddressAsksBeforeAnyConnection(t *testing.T) {
	t.Parallel()
	h := newHarness(t, script(t, fetch("http://10.255.255.1:9/"), complete("stopped")), harnessOpts{})
	conv := h.conversation()
	task := h.start(conv, "Fetch it")
	a := h.events.waitStatus(task.ID, chat.StatusWaitingApproval).PendingApproval
	assert.Equal(t, chat.RiskLocalNetwork, a.Risk)
	assert.Equal(t, "10.255.255.1:9", a.Address)
	_, err := h.runner.Stop(context.Background(), task.ID)
	require.NoError(t, err)
}

package mcp_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/errand-app/errand/backend/chat"
	"github.com/errand-app/errand/backend/mcp"
	"github.com/errand-app/errand/backend/mcp/mcptest"
	"github.com/errand-app/errand/backend/tools"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// watcher records the states a Manager publishes and lets a test wait for one.
type watcher struct {
	mu      sync.Mutex
	changed chan struct{}
	last    map[string]mcp.State
}

func newWatcher() *watcher {
	return &watcher{changed: make(chan struct{}), last: map[string]mcp.State{}}
}

func (w *watcher) publish(s mcp.State) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.last[s.Server.ID] = s
	close(w.changed)
	w.changed = make(chan struct{})
}

// wait waits until the server's last published state satisfies cond.
func (w *watcher) wait(t *testing.T, id string, what string, cond func(mcp.State) bool) mcp.State {
	t.Helper()
	deadline := time.After(60 * time.Second)
	for {
		w.mu.Lock()
		s, ch := w.last[id], w.changed
		w.mu.Unlock()
		if cond(s) {
			return s
		}
		select {
		case <-ch:
		case <-deadline:
			t.Fatalf("timed out waiting for %s; last state: %+v", what, s)
		}
	}
}

type images struct {
	mu   sync.Mutex
	kept map[string][]byte
}

func (i *images) SaveToolImage(_ context.Context, mime string, data []byte) (string, error) {
	i.mu.Lock()
	defer i.mu.Unlock()
	if i.kept == nil {
		i.kept = map[string][]byte{}
	}
	id := "00000000-0000-0000-0000-00000000000" + string(rune('0'+len(i.kept)))
	i.kept[id] = data
	return id, nil
}

func newManager(t *testing.T, o mcp.Options) (*mcp.Manager, *watcher) {
	w := newWatcher()
	o.Changed = w.publish
	m := mcp.NewManager(o)
	t.Cleanup(m.Close)
	return m, w
}

func hasTool(name string) func(mcp.State) bool {
	return func(s mcp.State) bool {
		if s.Status != mcp.StatusReady {
			return false
		}
		for _, t := range s.Tools {
			if t.Name == name {
				return true
			}
		}
		return false
	}
}

func offered(m *mcp.Manager, full string) tools.Tool {
	list, _ := m.Tools()
	for _, t := range list {
		if t.Name() == full {
			return t
		}
	}
	return nil
}

func run(t *testing.T, tool tools.Tool, args string, env tools.Env) tools.Result {
	t.Helper()
	require.NotNil(t, tool)
	res, err := tool.Run(context.Background(), env, json.RawMessage(args))
	require.NoError(t, err)
	return res
}

func TestEverythingOverStdioListsAndCallsItsTools(t *testing.T) {
	imgs := &images{}
	m, w := newManager(t, mcp.Options{Images: imgs})
	cfg := mcptest.Everything(t, "everything")
	cfg.ID = "s1"
	m.Set([]chat.MCPServer{cfg})
	st := w.wait(t, "s1", "echo listed", hasTool("echo"))
	var echo mcp.ToolInfo
	for _, ti := range st.Tools {
		if ti.Name == "echo" {
			echo = ti
		}
	}
	assert.Equal(t, "everything__echo", echo.FullName)
	assert.Equal(t, "read_only", echo.Risk, "readOnlyHint makes it read-only")

	res := run(t, offered(m, "everything__echo"), `{"message":"hello from Errand"}`, tools.Env{})
	assert.False(t, res.IsError)
	assert.Contains(t, res.Content, "hello from Errand")

	res = run(t, offered(m, "everything__get-sum"), `{"a":2,"b":40}`, tools.Env{})
	assert.Contains(t, res.Content, "42")

	res = run(t, offered(m, "everything__get-tiny-image"), `{}`, tools.Env{})
	assert.Contains(t, res.Content, mcp.ImageRef)
	require.Len(t, imgs.kept, 1)
	for _, data := range imgs.kept {
		assert.True(t, strings.HasPrefix(string(data), "\x89PNG"), "the image is kept decoded")
	}

	// The person's override wins over the annotation.
	cfg.ToolRisks = map[string]string{"echo": "writes"}
	m.Set([]chat.MCPServer{cfg})
	assert.Equal(t, tools.RiskWrite, offered(m, "everything__echo").Risk())
	assert.Equal(t, mcp.StatusReady, m.States()[0].Status, "an override needs no restart")
}

func alive(pgid int) bool {
	return syscall.Kill(-pgid, 0) == nil
}

// waitGone waits until no process of the group is left.
func waitGone(t *testing.T, pgid int) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for alive(pgid) {
		if time.Now().After(deadline) {
			t.Fatalf("process group %d is still alive", pgid)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func TestDisablingKillsTheServerWithItsChildren(t *testing.T) {
	m, w := newManager(t, mcp.Options{})
	cfg := mcptest.Everything(t, "everything")
	// bash stays as the parent, node is its child: a process tree.
	cfg.ID, cfg.Args, cfg.Command = "s1", []string{"-c", `"$0" "$@"; true`, cfg.Command, cfg.Args[0], cfg.Args[1]}, "bash"
	m.Set([]chat.MCPServer{cfg})
	w.wait(t, "s1", "ready", hasTool("echo"))
	pgid := mcp.PID(m, "s1")
	require.NotZero(t, pgid)
	require.True(t, alive(pgid))

	cfg.Enabled = false
	m.Set([]chat.MCPServer{cfg})
	waitGone(t, pgid)
	assert.Equal(t, mcp.StatusDisabled, m.States()[0].Status)
	assert.Nil(t, offered(m, "everything__echo"), "a disabled server offers no tools")
}

func TestClosingKillsEveryServer(t *testing.T) {
	m := mcp.NewManager(mcp.Options{})
	cfg := mcptest.Everything(t, "everything")
	cfg.ID = "s1"
	m.Set([]chat.MCPServer{cfg})
	_, err := m.Wait(context.Background(), "s1")
	require.NoError(t, err)
	pgid := mcp.PID(m, "s1")
	require.NotZero(t, pgid)
	m.Close()
	waitGone(t, pgid)
}

func TestACrashedServerShowsFailedAndRestartsOnNextUse(t *testing.T) {
	m, w := newManager(t, mcp.Options{})
	cfg := mcptest.Everything(t, "everything")
	cfg.ID = "s1"
	m.Set([]chat.MCPServer{cfg})
	w.wait(t, "s1", "ready", hasTool("echo"))
	echo := offered(m, "everything__echo")
	pgid := mcp.PID(m, "s1")
	require.NoError(t, syscall.Kill(-pgid, syscall.SIGKILL))
	failed := w.wait(t, "s1", "failed", func(s mcp.State) bool { return s.Status == mcp.StatusFailed })
	assert.Contains(t, failed.Reason, "stopped")

	res := run(t, echo, `{"message":"again"}`, tools.Env{})
	assert.False(t, res.IsError, res.Content)
	assert.Contains(t, res.Content, "again")
	assert.Equal(t, mcp.StatusReady, m.States()[0].Status)
	assert.NotEqual(t, pgid, mcp.PID(m, "s1"), "a new process")
}

func TestBadServersFailWithAClearReasonAndBreakNothing(t *testing.T) {
	cases := []struct {
		name, command string
		args          []string
		reason        string
	}{
		{"missing", "errand-no-such-command", nil, `the command "errand-no-such-command" was not found`},
		{"exits", "bash", []string{"-c", "echo cannot start: no config >&2; exit 3"}, "exited before it was ready; it wrote: cannot start: no config"},
		{"floods-stdout", "bash", []string{"-c", "yes flood"}, "something other than MCP messages"},
		{"floods-stderr", "bash", []string{"-c", "yes noise >&2"}, "did not answer in time"},
	}
	configs := func(names ...string) []chat.MCPServer {
		var cfgs []chat.MCPServer
		for _, c := range cases {
			if slices.Contains(names, c.name) {
				cfgs = append(cfgs, chat.MCPServer{ID: c.name, Name: c.name, Transport: chat.MCPStdio, Command: c.command, Args: c.args, Enabled: true})
			}
		}
		return cfgs
	}
	// No race with the start bound: every server but the one that never
	// answers has the default 30 s to start or fail for its own reason; the
	// one that never answers fails by the bound, however small, on a
	// manager of its own. It floods next to the good server too, which
	// keeps working.
	m, w := newManager(t, mcp.Options{})
	impatient, iw := newManager(t, mcp.Options{StartTimeout: time.Second})
	good := mcptest.Everything(t, "everything")
	good.ID = "good"
	m.Set(append(configs("missing", "exits", "floods-stdout", "floods-stderr"), good))
	impatient.Set(configs("floods-stderr"))
	for _, c := range cases {
		watcher := w
		if c.name == "floods-stderr" {
			watcher = iw
		}
		st := watcher.wait(t, c.name, "failed", func(s mcp.State) bool { return s.Status == mcp.StatusFailed })
		assert.Contains(t, st.Reason, c.reason, c.name)
		assert.Less(t, len(st.Reason), 1500, "the reason is bounded however much it wrote")
	}
	w.wait(t, "good", "the good server still ready", hasTool("echo"))
	res := run(t, offered(m, "everything__echo"), `{"message":"fine"}`, tools.Env{})
	assert.Contains(t, res.Content, "fine")
}

func TestASlowCallTimesOut(t *testing.T) {
	m, w := newManager(t, mcp.Options{CallTimeout: func() time.Duration { return 300 * time.Millisecond }})
	cfg := mcptest.Everything(t, "everything")
	cfg.ID = "s1"
	m.Set([]chat.MCPServer{cfg})
	w.wait(t, "s1", "ready", hasTool("trigger-long-running-operation"))
	// The operation lasts an hour: a minute is a bound only a call that
	// was not cut by its timeout reaches.
	start := time.Now()
	res := run(t, offered(m, "everything__trigger-long-running-operation"), `{"duration":3600,"steps":1}`, tools.Env{})
	assert.True(t, res.IsError)
	assert.Contains(t, res.Content, "timed out")
	assert.Less(t, time.Since(start), time.Minute)
	// The server is still there for the next call.
	res = run(t, offered(m, "everything__echo"), `{"message":"after"}`, tools.Env{})
	assert.Contains(t, res.Content, "after")
}

func TestElicitationIsAskedAndAnswered(t *testing.T) {
	m, w := newManager(t, mcp.Options{})
	cfg := mcptest.Everything(t, "everything")
	cfg.ID = "s1"
	m.Set([]chat.MCPServer{cfg})
	w.wait(t, "s1", "elicitation tool listed", hasTool("trigger-elicitation-request"))
	var asked []tools.Question
	env := tools.Env{Ask: func(_ context.Context, q tools.Question) (string, error) {
		asked = append(asked, q)
		// The window's form answers with a JSON object of the values.
		return `{"name": "Ada Lovelace", "check": true, "legacyTitledEnum": "Dogs", "untitledMultipleSelectEnum": "Piano, Drums"}`, nil
	}}
	res := run(t, offered(m, "everything__trigger-elicitation-request"), `{}`, env)
	require.Len(t, asked, 1)
	assert.Contains(t, asked[0].Text, "Please provide inputs")
	byName := map[string]chat.FormField{}
	for _, f := range asked[0].Fields {
		byName[f.Name] = f
	}
	assert.True(t, byName["name"].Required, "the elicitation is a form: %+v", asked[0].Fields)
	assert.Equal(t, chat.FieldBoolean, byName["check"].Type)
	assert.Equal(t, chat.FieldSelect, byName["legacyTitledEnum"].Type)
	assert.Contains(t, byName["legacyTitledEnum"].Options, "Dogs")
	assert.NoError(t, chat.CheckFields(asked[0].Fields), "a form the window can show")
	assert.Contains(t, res.Content, "Name: Ada Lovelace")
}

func TestFilesystemServerIsConfinedToItsFolder(t *testing.T) {
	inside, outside := t.TempDir(), t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(outside, "secret.txt"), []byte("top secret"), 0o600))
	m, w := newManager(t, mcp.Options{})
	cfg := mcptest.Filesystem(t, "fs", inside)
	cfg.ID = "fs"
	m.Set([]chat.MCPServer{cfg})
	st := w.wait(t, "fs", "ready", hasTool("write_file"))
	for _, ti := range st.Tools {
		if ti.Name == "write_file" {
			assert.NotEqual(t, "read_only", ti.Risk)
		}
	}
	args, _ := json.Marshal(map[string]string{"path": filepath.Join(inside, "note.txt"), "content": "written by Errand"})
	res := run(t, offered(m, "fs__write_file"), string(args), tools.Env{})
	assert.False(t, res.IsError, res.Content)
	b, err := os.ReadFile(filepath.Join(inside, "note.txt"))
	require.NoError(t, err)
	assert.Equal(t, "written by Errand", string(b))

	args, _ = json.Marshal(map[string]string{"path": filepath.Join(outside, "secret.txt")})
	res = run(t, offered(m, "fs__read_text_file"), string(args), tools.Env{})
	assert.True(t, res.IsError)
	assert.NotContains(t, res.Content, "top secret")
}

func TestStopDuringACallReturnsAtOnce(t *testing.T) {
	m, w := newManager(t, mcp.Options{})
	cfg := mcptest.Everything(t, "everything")
	cfg.ID = "s1"
	m.Set([]chat.MCPServer{cfg})
	w.wait(t, "s1", "ready", hasTool("trigger-long-running-operation"))
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := offered(m, "everything__trigger-long-running-operation").Run(ctx, tools.Env{}, json.RawMessage(`{"duration":3600,"steps":1}`))
		done <- err
	}()
	// Give the call time to reach the server, then cancel it.
	res := run(t, offered(m, "everything__echo"), `{"message":"in parallel"}`, tools.Env{})
	require.Contains(t, res.Content, "in parallel")
	cancel()
	select {
	case err := <-done:
		assert.True(t, errors.Is(err, context.Canceled))
	case <-time.After(time.Minute): // the operation lasts an hour
		t.Fatal("the call did not return when cancelled")
	}
}

func TestDisablingAServerThatIsStillStartingKillsIt(t *testing.T) {
	m, w := newManager(t, mcp.Options{StartTimeout: time.Minute})
	pidFile := filepath.Join(t.TempDir(), "pid")
	cfg := chat.MCPServer{ID: "slow", Name: "slow", Transport: chat.MCPStdio, Command: "bash",
		Args: []string{"-c", `echo $$ > "$0"; sleep 300 & wait`, pidFile}, Enabled: true}
	m.Set([]chat.MCPServer{cfg})
	w.wait(t, "slow", "starting", func(s mcp.State) bool { return s.Status == mcp.StatusStarting })
	var pid int
	deadline := time.Now().Add(time.Minute)
	for pid == 0 {
		b, _ := os.ReadFile(pidFile)
		pid, _ = strconv.Atoi(strings.TrimSpace(string(b)))
		if time.Now().After(deadline) {
			t.Fatal("the server did not start")
		}
		time.Sleep(10 * time.Millisecond)
	}
	cfg.Enabled = false
	m.Set([]chat.MCPServer{cfg})
	waitGone(t, pid)
	assert.Equal(t, mcp.StatusDisabled, m.States()[0].Status)
}

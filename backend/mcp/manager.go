package mcp

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/errand-app/errand/backend/chat"
	"github.com/errand-app/errand/backend/logfile"
	"github.com/errand-app/errand/backend/secrets"
	"github.com/errand-app/errand/backend/tools"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// Status is where a server is.
type Status string

// The statuses a server shows.
const (
	StatusDisabled Status = "disabled"
	StatusStarting Status = "starting"
	StatusReady    Status = "ready"
	StatusFailed   Status = "failed"
)

// ToolInfo is one of a server's tools as the person sees it.
type ToolInfo struct {
	// Name is the tool's name on its server; FullName the model's.
	Name        string `json:"name"`
	FullName    string `json:"fullName"`
	Description string `json:"description"`
	// Risk is the one in force; HintRisk what the server's annotations say.
	Risk     string `json:"risk"`
	HintRisk string `json:"hintRisk"`
	// Refused says why the tool is not offered to the model.
	Refused string `json:"refused,omitempty"`
}

// State is a server's configuration, status and tools.
type State struct {
	Server chat.MCPServer `json:"server"`
	Status Status         `json:"status"`
	// Reason says why a server failed.
	Reason string     `json:"reason,omitempty"`
	Tools  []ToolInfo `json:"tools"`
}

// Images keeps the images tools return, for the window to show.
type Images interface {
	SaveToolImage(ctx context.Context, mime string, data []byte) (string, error)
}

// Options configures a Manager.
type Options struct {
	// Changed is told of every change of a server's status or tools,
	// after it happened. It must not block for long.
	Changed func(State)
	// CallTimeout is how long one tool call may take; read at each call.
	CallTimeout func() time.Duration
	// StartTimeout bounds a server's start (default 30 s).
	StartTimeout time.Duration
	// Images keeps the images tools return; without it they are described.
	Images Images
}

// Manager runs the configured MCP servers and offers their tools. It is
// safe for concurrent use.
type Manager struct {
	opts    Options
	gen     atomic.Uint64
	mu      sync.Mutex
	servers []*server
	closed  bool
}

// NewManager returns a Manager with no servers; Set gives it some.
func NewManager(opts Options) *Manager {
	if opts.StartTimeout <= 0 {
		opts.StartTimeout = 30 * time.Second
	}
	if opts.CallTimeout == nil {
		opts.CallTimeout = func() time.Duration { return 2 * time.Minute }
	}
	if opts.Changed == nil {
		opts.Changed = func(State) {}
	}
	m := &Manager{opts: opts}
	m.gen.Store(1)
	return m
}

// Set makes the running servers match the configuration: a server that
// is new or enabled starts, one disabled or gone stops with its process
// tree, one whose command or address changed restarts, and a change of
// name or of a tool's risk applies at once.
func (m *Manager) Set(cfgs []chat.MCPServer) {
	m.mu.Lock()
	if m.closed {
		m.mu.Unlock()
		return
	}
	old := m.servers
	next := make([]*server, 0, len(cfgs))
	var start, stop []*server
	for _, c := range cfgs {
		i := slices.IndexFunc(old, func(s *server) bool { return s.id == c.ID })
		if i < 0 {
			s := &server{m: m, id: c.ID, cfg: c}
			next = append(next, s)
			start = append(start, s)
			continue
		}
		s := old[i]
		old = slices.Delete(old, i, i+1)
		next = append(next, s)
		if s.reconfigure(c) {
			stop, start = append(stop, s), append(start, s)
		}
	}
	m.servers = next
	m.mu.Unlock()
	for _, s := range old {
		s.stop(true)
	}
	for _, s := range stop {
		s.stop(false)
	}
	for _, s := range start {
		s.begin()
	}
	m.gen.Add(1)
}

// States returns every server's state, in the configuration's order.
func (m *Manager) States() []State {
	m.mu.Lock()
	servers := slices.Clone(m.servers)
	m.mu.Unlock()
	out := make([]State, 0, len(servers))
	for _, s := range servers {
		out = append(out, s.state())
	}
	return out
}

// Tools offers the tools of the servers that are enabled: a tools.Source.
// A failed server's tools stay on offer, so that the next call restarts it.
// Generation changes whenever the list Tools returns does.
func (m *Manager) Generation() uint64 { return m.gen.Load() }

func (m *Manager) Tools() ([]tools.Tool, uint64) {
	gen := m.gen.Load()
	m.mu.Lock()
	servers := slices.Clone(m.servers)
	m.mu.Unlock()
	var out []tools.Tool
	for _, s := range servers {
		s.mu.Lock()
		if s.cfg.Enabled {
			out = append(out, s.offered...)
		}
		s.mu.Unlock()
	}
	return out, gen
}

// Close stops every server and its process tree; the Manager starts no
// more. Errand calls it when it quits.
func (m *Manager) Close() {
	m.mu.Lock()
	m.closed = true
	servers := m.servers
	m.servers = nil
	m.mu.Unlock()
	var wg sync.WaitGroup
	for _, s := range servers {
		wg.Add(1)
		go func() { defer wg.Done(); s.stop(true) }()
	}
	wg.Wait()
	m.gen.Add(1)
}

// Wait waits until the server is no longer starting, or ctx ends, and
// returns its state.
func (m *Manager) Wait(ctx context.Context, id string) (State, error) {
	s := m.find(id)
	if s == nil {
		return State{}, chat.Errorf(chat.CodeNotFound, "no MCP server has the id %s", chat.Quote(id))
	}
	s.mu.Lock()
	ready := s.ready
	s.mu.Unlock()
	if ready != nil {
		select {
		case <-ready:
		case <-ctx.Done():
			return s.state(), ctx.Err()
		}
	}
	return s.state(), nil
}

// Restart stops a server and starts it again.
func (m *Manager) Restart(id string) error {
	s := m.find(id)
	if s == nil {
		return chat.Errorf(chat.CodeNotFound, "no MCP server has the id %s", chat.Quote(id))
	}
	s.stop(false)
	s.begin()
	return nil
}

func (m *Manager) find(id string) *server {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, s := range m.servers {
		if s.id == id {
			return s
		}
	}
	return nil
}

func (m *Manager) changed(s *server) {
	m.gen.Add(1)
	m.opts.Changed(s.state())
}

// server is one configured server and its connection.
type server struct {
	m  *Manager
	id string

	mu     sync.Mutex
	cfg    chat.MCPServer
	status Status
	reason string
	epoch  int           // counts the starts; a stale connection's news is dropped
	ready  chan struct{} // closed when the current start has ended
	// cancelStart gives up the current start (a stop while it starts).
	cancelStart context.CancelFunc
	conn        *sdk.ClientSession
	cmd         *exec.Cmd
	raw         []*sdk.Tool
	schemaErrs  map[*sdk.Tool]error // each raw tool's schema check, made outside the lock
	infos       []ToolInfo
	offered     []tools.Tool
	askers      []*asker
}

// reconfigure takes a new configuration and reports whether the server
// must restart for it.
func (s *server) reconfigure(c chat.MCPServer) (restart bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	old := s.cfg
	s.cfg = c
	restart = c.Enabled != old.Enabled || c.Transport != old.Transport || c.Command != old.Command ||
		!slices.Equal(c.Args, old.Args) || !mapsEqual(c.Env, old.Env) || c.URL != old.URL
	if !restart {
		s.rebuildLocked()
		go s.m.changed(s)
	}
	return restart
}

func mapsEqual(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

func (s *server) state() State {
	s.mu.Lock()
	defer s.mu.Unlock()
	st := State{Server: s.cfg, Status: s.status, Reason: s.reason, Tools: slices.Clone(s.infos)}
	if !s.cfg.Enabled {
		st.Status, st.Reason = StatusDisabled, ""
	}
	if st.Tools == nil {
		st.Tools = []ToolInfo{}
	}
	return st
}

// begin starts connecting, when the server is enabled.
func (s *server) begin() {
	s.mu.Lock()
	if !s.cfg.Enabled {
		s.status = StatusDisabled
		s.mu.Unlock()
		s.m.changed(s)
		return
	}
	s.beginLocked()
	s.mu.Unlock()
	s.m.changed(s)
}

func (s *server) beginLocked() {
	s.epoch++
	s.status, s.reason = StatusStarting, ""
	s.ready = make(chan struct{})
	ctx, cancel := context.WithTimeout(context.Background(), s.m.opts.StartTimeout)
	s.cancelStart = cancel
	go s.connect(ctx, cancel, s.epoch, s.cfg, s.ready)
}

// connect starts the server (or reaches it), initialises the connection and
// lists the tools; the server is ready, or failed with the reason.
func (s *server) connect(ctx context.Context, cancel context.CancelFunc, epoch int, cfg chat.MCPServer, ready chan struct{}) {
	defer close(ready)
	defer cancel()
	var transport sdk.Transport
	var cmd *exec.Cmd
	stderr := newTail(4096)
	switch cfg.Transport {
	case chat.MCPHTTP:
		transport = &sdk.StreamableClientTransport{Endpoint: cfg.URL, MaxRetries: -1}
	default:
		cmd = exec.Command(cfg.Command, cfg.Args...)
		cmd.Env = serverEnv(cfg.Env)
		cmd.Stderr = stderr
		ownProcessGroup(cmd)
		transport = &sdk.CommandTransport{Command: cmd, TerminateDuration: 200 * time.Millisecond}
	}
	client := sdk.NewClient(&sdk.Implementation{Name: "errand", Version: "1"}, &sdk.ClientOptions{
		ElicitationHandler: s.elicit,
		ToolListChangedHandler: func(ctx context.Context, _ *sdk.ToolListChangedRequest) {
			go s.refresh(epoch)
		},
	})
	conn, err := client.Connect(ctx, transport, nil)
	var list []*sdk.Tool
	var checked map[*sdk.Tool]error
	if err == nil {
		list, err = listTools(ctx, conn)
		checked = checkSchemas(list)
	}
	s.mu.Lock()
	current := s.epoch == epoch
	if current {
		s.cmd = cmd
	}
	s.mu.Unlock()
	if err != nil || !current {
		if cmd != nil {
			killProcessGroup(cmd)
		}
		if conn != nil {
			conn.Close()
		}
		if current {
			s.fail(epoch, startFailure(cfg, err, stderr))
		}
		return
	}
	s.mu.Lock()
	s.conn, s.raw, s.schemaErrs, s.status = conn, list, checked, StatusReady
	s.rebuildLocked()
	s.mu.Unlock()
	s.m.changed(s)
	go s.watch(epoch, conn, stderr)
}

// serverEnv is a stdio server's environment: Errand's, without its
// secrets, and the server's own. Each value of the server's own is a
// secret (a token, usually): the log, the status and every other child
// are kept from it.
func serverEnv(own map[string]string) []string {
	var extra []string
	for k, v := range own {
		logfile.Secrets.Add(v)
		extra = append(extra, k+"="+v)
	}
	return secrets.ChildEnv(extra...)
}

// Bounds of a server's tool list: an endless cursor, or a list no model
// could take, ends the listing with the reason.
const (
	maxToolPages   = 100
	MaxServerTools = 1000
)

func listTools(ctx context.Context, conn *sdk.ClientSession) ([]*sdk.Tool, error) {
	var list []*sdk.Tool
	params := &sdk.ListToolsParams{}
	for page := 1; ; page++ {
		res, err := conn.ListTools(ctx, params)
		if err != nil {
			return nil, fmt.Errorf("listing its tools failed: %w", err)
		}
		list = append(list, res.Tools...)
		switch {
		case len(list) > MaxServerTools:
			return nil, fmt.Errorf("it lists more than %d tools, more than Errand offers a model from one server", MaxServerTools)
		case res.NextCursor == "":
			return list, nil
		case page == maxToolPages:
			return nil, fmt.Errorf("its tool list did not end after %d pages", maxToolPages)
		}
		params.Cursor = res.NextCursor
	}
}

// startFailure says why a server did not start, with the end of what it
// wrote to its standard error.
func startFailure(cfg chat.MCPServer, err error, stderr *tailBuffer) string {
	var msg string
	var exitErr *exec.ExitError
	switch {
	case errors.Is(err, exec.ErrNotFound), errors.Is(err, os.ErrNotExist):
		msg = fmt.Sprintf("the command %q was not found", cfg.Command)
	case errors.Is(err, context.DeadlineExceeded):
		msg = "it did not answer in time"
	case errors.As(err, &exitErr):
		msg = "it exited at once (" + exitErr.String() + ")"
	case cfg.Transport == chat.MCPStdio && exitedEarly(err):
		msg = "it exited before it was ready"
	case cfg.Transport == chat.MCPStdio && strings.Contains(err.Error(), "invalid character"):
		msg = "it wrote something other than MCP messages to its standard output"
	case cfg.Transport == chat.MCPStdio:
		msg = "it stopped before it was ready: " + err.Error()
	default:
		msg = "it could not be reached: " + err.Error()
	}
	if tail := stderr.last(); tail != "" {
		msg += "; it wrote: " + lastLines(tail, 3)
	}
	return msg
}

// exitedEarly tells a server gone before the handshake ended: its output
// ended (EOF), or, when it exited before Errand wrote to it, the write
// found the pipe closed — which of the two comes first is a race.
func exitedEarly(err error) bool {
	e := err.Error()
	return strings.HasSuffix(e, "EOF") || strings.Contains(e, "broken pipe") || strings.Contains(e, "file already closed")
}

func lastLines(s string, n int) string {
	var lines []string
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			if len(l) > 300 {
				l = l[:300] + "…"
			}
			lines = append(lines, l)
		}
	}
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, " / ")
}

// watch marks the server failed when its connection ends without being
// stopped: the process crashed or the connection broke.
func (s *server) watch(epoch int, conn *sdk.ClientSession, stderr *tailBuffer) {
	err := conn.Wait()
	reason := "it stopped"
	if err != nil && !errors.Is(err, sdk.ErrConnectionClosed) {
		reason += ": " + err.Error()
	}
	if tail := stderr.last(); tail != "" {
		reason += "; it wrote: " + lastLines(tail, 3)
	}
	s.fail(epoch, reason)
}

// name is the server's name now (a rename applies at once, under the lock).
func (s *server) name() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.cfg.Name
}

// fail marks the current start as failed and stops what is left of it.
func (s *server) fail(epoch int, reason string) {
	s.mu.Lock()
	if s.epoch != epoch {
		s.mu.Unlock()
		return
	}
	reason = logfile.Secrets.Redact(reason)
	s.status, s.reason = StatusFailed, reason
	conn, cmd, name := s.conn, s.cmd, s.cfg.Name
	s.conn, s.cmd = nil, nil
	s.mu.Unlock()
	release(conn, cmd)
	slog.Warn("MCP server failed", "server", name, "reason", reason)
	s.m.changed(s)
}

// release kills a server's process group and closes its connection.
func release(conn *sdk.ClientSession, cmd *exec.Cmd) {
	if cmd != nil {
		killProcessGroup(cmd)
	}
	if conn != nil {
		conn.Close()
	}
}

// stop ends the server's connection and kills its process tree. A removed
// server's tools are gone; a disabled one shows as disabled.
func (s *server) stop(removed bool) {
	s.mu.Lock()
	s.epoch++
	if s.cancelStart != nil {
		s.cancelStart()
	}
	conn, cmd := s.conn, s.cmd
	s.conn, s.cmd = nil, nil
	s.status, s.reason = StatusDisabled, ""
	if removed || !s.cfg.Enabled {
		s.raw, s.schemaErrs = nil, nil
		s.rebuildLocked()
	}
	if s.ready != nil {
		// Whoever waits for the start hears of the stop through status.
		s.ready = nil
	}
	s.mu.Unlock()
	release(conn, cmd)
	if !removed {
		s.m.changed(s)
	}
}

// refresh lists the tools again after the server said they changed.
func (s *server) refresh(epoch int) {
	s.mu.Lock()
	conn := s.conn
	current := s.epoch == epoch
	s.mu.Unlock()
	if conn == nil || !current {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), s.m.opts.StartTimeout)
	defer cancel()
	list, err := listTools(ctx, conn)
	if err != nil {
		slog.Warn("MCP tools not listed", "server", s.name(), "err", err)
		return
	}
	checked := checkSchemas(list)
	s.mu.Lock()
	if s.epoch != epoch {
		s.mu.Unlock()
		return
	}
	s.raw, s.schemaErrs = list, checked
	s.rebuildLocked()
	s.mu.Unlock()
	s.m.changed(s)
}

// rebuildLocked makes the tools offered from the tools listed and the
// configuration (name, risk overrides).
func (s *server) rebuildLocked() {
	s.infos, s.offered = nil, nil
	for _, t := range s.raw {
		full := s.cfg.Name + Separator + t.Name
		info := ToolInfo{
			Name: t.Name, FullName: full, Description: t.Description,
			Risk: string(RiskOf(t.Annotations, s.cfg.ToolRisks[t.Name])), HintRisk: string(HintRisk(t.Annotations)),
		}
		schema, err := offerable(s.cfg.Name, t, s.schemaErrs)
		if err != nil {
			info.Refused = "not offered: " + err.Error()
		} else {
			s.offered = append(s.offered, &tool{s: s, name: t.Name, full: full, desc: t.Description, schema: schema, risk: tools.Risk(info.Risk)})
		}
		s.infos = append(s.infos, info)
	}
}

// connection returns the ready connection, restarting a failed server first.
func (s *server) connection(ctx context.Context) (*sdk.ClientSession, error) {
	s.mu.Lock()
	if !s.cfg.Enabled {
		s.mu.Unlock()
		return nil, fmt.Errorf("the MCP server %s is disabled", s.cfg.Name)
	}
	restarted := false
	if s.status == StatusFailed || s.status == StatusDisabled {
		s.beginLocked()
		restarted = true
	}
	ready := s.ready
	s.mu.Unlock()
	if restarted {
		s.m.changed(s)
	}
	if ready != nil {
		select {
		case <-ready:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.status != StatusReady || s.conn == nil {
		return nil, fmt.Errorf("the MCP server %s is not available: %s", s.cfg.Name, s.reason)
	}
	return s.conn, nil
}

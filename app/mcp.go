package app

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"log/slog"
	"strings"
	"time"

	"github.com/errand-app/errand/backend/chat"
	"github.com/errand-app/errand/backend/mcp"
	"github.com/errand-app/errand/backend/secrets"
	"github.com/errand-app/errand/backend/tools"
)

// mcpStore is what the MCP service needs of the store.
type mcpStore interface {
	MCPServers(ctx context.Context) ([]chat.MCPServer, error)
	MCPServer(ctx context.Context, id string) (chat.MCPServer, error)
	SaveMCPServers(ctx context.Context, servers []chat.MCPServer) ([]chat.MCPServer, error)
	DeleteMCPServer(ctx context.Context, id string) (chat.MCPServer, error)
	ToolImage(ctx context.Context, id string) (mime string, data []byte, err error)
}

// MCP is the bound service for MCP servers: the person adds, edits,
// removes, enables and disables them, sets a tool's risk, and imports
// Claude Desktop's configuration. Every change is stored first, then the
// running servers follow it.
type MCP struct {
	store   mcpStore
	manager *mcp.Manager
	// late starts the stored servers, if the window's late start has
	// not yet (see lateMCP).
	late *lateMCP
	// env keeps each server's environment, which often holds tokens,
	// with the API keys (keyring or 0600 file), never in the database.
	env *secrets.Store
}

// envName is the name of a server's environment among the secrets.
func envName(serverID string) string { return "mcp-env:" + serverID }

// withEnv gives the stored servers their environment back.
func withEnv(servers []chat.MCPServer, env *secrets.Store) []chat.MCPServer {
	for i := range servers {
		raw, err := env.Get(envName(servers[i].ID))
		if err != nil {
			slog.Error("read an MCP server's environment", "server", servers[i].Name, "err", err)
			continue
		}
		if raw != "" {
			_ = json.Unmarshal([]byte(raw), &servers[i].Env)
		}
	}
	return servers
}

// saveServers stores the servers and then their environments.
func (s *MCP) saveServers(ctx context.Context, servers []chat.MCPServer) ([]chat.MCPServer, error) {
	envs := make([]string, len(servers))
	for i, srv := range servers {
		if len(srv.Env) > 0 {
			b, _ := json.Marshal(srv.Env)
			envs[i] = string(b)
		}
		if len(envs[i]) > chat.MaxKeyLen {
			return nil, chat.Invalidf("env", "The environment of %s is longer than %d bytes.", chat.Quote(srv.Name), chat.MaxKeyLen)
		}
	}
	saved, err := s.store.SaveMCPServers(ctx, servers)
	if err != nil {
		return nil, err
	}
	for i := range saved {
		if err := s.env.Set(envName(saved[i].ID), envs[i]); err != nil {
			return nil, err
		}
	}
	return saved, nil
}

// newMCPManager is the manager of the MCP servers, with none yet: the
// stored ones start after the window's first screen (lateMCP).
func newMCPManager(st interface {
	mcp.Images
	Settings(ctx context.Context) (chat.Settings, error)
}, events *bridge) *mcp.Manager {
	m := mcp.NewManager(mcp.Options{
		Changed: events.MCPServer,
		Images:  st,
		CallTimeout: func() time.Duration {
			ctx, cancel := callCtx()
			defer cancel()
			s, err := st.Settings(ctx)
			if err != nil || s.MCPCallTimeoutSec <= 0 {
				return time.Duration(chat.DefaultSettings().MCPCallTimeoutSec) * time.Second
			}
			return time.Duration(s.MCPCallTimeoutSec) * time.Second
		},
	})
	return m
}

// ListServers returns every server with its status and tools.
func (s *MCP) ListServers() []mcp.State {
	s.late.start()
	return s.manager.States()
}

// SaveServer adds a server (no id) or changes one; a bad name, command or
// address, or a name another server has, is refused and nothing changes.
func (s *MCP) SaveServer(srv chat.MCPServer) (_ mcp.State, err error) {
	defer recovered(&err)
	if srv.ID != "" {
		if err := requireID("MCP server", srv.ID); err != nil {
			return mcp.State{}, err
		}
	}
	ctx, cancel := callCtx()
	defer cancel()
	if srv.ID != "" {
		old, err := s.store.MCPServer(ctx, srv.ID)
		if err != nil {
			return mcp.State{}, err
		}
		if srv.ToolRisks == nil {
			srv.ToolRisks = old.ToolRisks
		}
	}
	saved, err := s.saveServers(ctx, []chat.MCPServer{srv})
	if err != nil {
		return mcp.State{}, err
	}
	return s.apply(ctx, saved[0].ID)
}

// SetEnabled turns a server on (it starts) or off (it stops, with every
// process it started).
func (s *MCP) SetEnabled(id string, enabled bool) (_ mcp.State, err error) {
	defer recovered(&err)
	return s.change(id, func(srv *chat.MCPServer) error {
		srv.Enabled = enabled
		return nil
	})
}

// SetToolRisk overrides the risk of one of a server's tools ("read_only",
// "writes" or "destructive"); an empty risk goes back to what the server
// declares.
func (s *MCP) SetToolRisk(id, tool, risk string) (_ mcp.State, err error) {
	defer recovered(&err)
	return s.change(id, func(srv *chat.MCPServer) error {
		if risk == "" {
			delete(srv.ToolRisks, tool)
			return nil
		}
		if !tools.Risk(risk).Valid() {
			return chat.Invalidf("toolRisks", "%s is an unknown risk level.", chat.Quote(risk))
		}
		if srv.ToolRisks == nil {
			srv.ToolRisks = map[string]string{}
		}
		srv.ToolRisks[tool] = risk
		return nil
	})
}

// RestartServer stops a server and starts it again.
func (s *MCP) RestartServer(id string) (_ mcp.State, err error) {
	defer recovered(&err)
	if err := requireID("MCP server", id); err != nil {
		return mcp.State{}, err
	}
	s.late.start()
	if err := s.manager.Restart(id); err != nil {
		return mcp.State{}, err
	}
	return s.state(id)
}

// RemoveServer deletes a server; it stops with its process tree.
func (s *MCP) RemoveServer(id string) (err error) {
	defer recovered(&err)
	if err := requireID("MCP server", id); err != nil {
		return err
	}
	ctx, cancel := callCtx()
	defer cancel()
	if _, err := s.store.DeleteMCPServer(ctx, id); err != nil {
		return err
	}
	if err := s.env.Delete(envName(id)); err != nil {
		slog.Warn("forget a removed MCP server's environment", "err", err)
	}
	_, err = s.sync(ctx)
	return err
}

// ClaudeConfigPath is where Claude Desktop keeps its configuration here.
func (s *MCP) ClaudeConfigPath() string {
	p, _ := mcp.ClaudeConfigPath()
	return p
}

// ImportClaudeConfig adds the servers of Claude Desktop's configuration:
// the JSON pasted, or, when text is empty, the file at its usual place. A
// server with the name of one already here replaces its command. A broken
// configuration is refused whole: nothing is saved.
func (s *MCP) ImportClaudeConfig(text string) (_ []mcp.State, err error) {
	defer recovered(&err)
	var servers []chat.MCPServer
	if strings.TrimSpace(text) == "" {
		servers, err = mcp.ReadClaudeConfig()
	} else {
		servers, err = mcp.ParseClaudeConfig([]byte(text))
	}
	if err != nil {
		return nil, err
	}
	if len(servers) == 0 {
		return nil, chat.Errorf(chat.CodeInvalid, "the configuration lists no MCP servers")
	}
	ctx, cancel := callCtx()
	defer cancel()
	have, err := s.store.MCPServers(ctx)
	if err != nil {
		return nil, err
	}
	for i := range servers {
		for _, h := range have {
			if strings.EqualFold(h.Name, servers[i].Name) {
				servers[i].ID, servers[i].ToolRisks = h.ID, h.ToolRisks
			}
		}
	}
	if _, err := s.saveServers(ctx, servers); err != nil {
		return nil, err
	}
	return s.sync(ctx)
}

// Image returns an image a tool returned, as a data: URL for an <img>.
func (s *MCP) Image(id string) (_ string, err error) {
	defer recovered(&err)
	if err := requireID("image", id); err != nil {
		return "", err
	}
	ctx, cancel := callCtx()
	defer cancel()
	mime, data, err := s.store.ToolImage(ctx, id)
	if err != nil {
		return "", err
	}
	switch mime {
	case "image/png", "image/jpeg", "image/gif", "image/webp":
	default:
		return "", chat.Errorf(chat.CodeInvalid, "the image's type %s is not one Errand shows", chat.Quote(mime))
	}
	return "data:" + mime + ";base64," + base64.StdEncoding.EncodeToString(data), nil
}

// change reads a server, changes it, stores it and applies it.
func (s *MCP) change(id string, fn func(*chat.MCPServer) error) (mcp.State, error) {
	if err := requireID("MCP server", id); err != nil {
		return mcp.State{}, err
	}
	ctx, cancel := callCtx()
	defer cancel()
	srv, err := s.store.MCPServer(ctx, id)
	if err != nil {
		return mcp.State{}, err
	}
	srv.Env = withEnv([]chat.MCPServer{srv}, s.env)[0].Env
	if err := fn(&srv); err != nil {
		return mcp.State{}, err
	}
	if _, err := s.saveServers(ctx, []chat.MCPServer{srv}); err != nil {
		return mcp.State{}, err
	}
	return s.apply(ctx, id)
}

// apply makes the running servers follow the store and returns one's state.
func (s *MCP) apply(ctx context.Context, id string) (mcp.State, error) {
	if _, err := s.sync(ctx); err != nil {
		return mcp.State{}, err
	}
	return s.state(id)
}

func (s *MCP) sync(ctx context.Context) ([]mcp.State, error) {
	s.late.start()
	servers, err := s.store.MCPServers(ctx)
	if err != nil {
		return nil, err
	}
	s.manager.Set(withEnv(servers, s.env))
	return s.manager.States(), nil
}

func (s *MCP) state(id string) (mcp.State, error) {
	for _, st := range s.manager.States() {
		if st.Server.ID == id {
			return st, nil
		}
	}
	return mcp.State{}, chat.Errorf(chat.CodeNotFound, "no MCP server has the id %s", chat.Quote(id))
}

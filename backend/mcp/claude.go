package mcp

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"sort"

	"github.com/errand-app/errand/backend/chat"
)

// maxClaudeConfig bounds the configuration read or pasted.
const maxClaudeConfig = 1 << 20

// claudeServer is one entry of Claude Desktop's mcpServers: a command with
// its arguments and environment, or (as some clients write) a URL.
type claudeServer struct {
	Command  string            `json:"command"`
	Args     []string          `json:"args"`
	Env      map[string]string `json:"env"`
	URL      string            `json:"url"`
	Disabled bool              `json:"disabled"`
}

// ParseClaudeConfig reads Claude Desktop's configuration,
// {"mcpServers": {"name": {"command": ..., "args": [...], "env": {...}}}},
// into servers, each checked as Errand stores it; a broken file or any bad
// entry is an error that says what is wrong, and nothing is returned.
func ParseClaudeConfig(data []byte) ([]chat.MCPServer, error) {
	if len(data) > maxClaudeConfig {
		return nil, chat.Errorf(chat.CodeInvalid, "the configuration is larger than %d KB", maxClaudeConfig>>10)
	}
	var doc struct {
		MCPServers map[string]json.RawMessage `json:"mcpServers"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		return nil, chat.Errorf(chat.CodeInvalid, "the configuration is not valid JSON: %s", jsonProblem(data, err))
	}
	if doc.MCPServers == nil {
		return nil, chat.Errorf(chat.CodeInvalid, `the configuration has no "mcpServers" object`)
	}
	names := make([]string, 0, len(doc.MCPServers))
	for n := range doc.MCPServers {
		names = append(names, n)
	}
	sort.Strings(names)
	out := make([]chat.MCPServer, 0, len(names))
	for _, n := range names {
		var c claudeServer
		dec := json.NewDecoder(bytes.NewReader(doc.MCPServers[n]))
		if err := dec.Decode(&c); err != nil {
			return nil, chat.Errorf(chat.CodeInvalid, "the server %s is not an object with a command, args and env: %v", chat.Quote(n), err)
		}
		s := chat.MCPServer{Name: n, Transport: chat.MCPStdio, Command: c.Command, Args: c.Args, Env: c.Env, Enabled: !c.Disabled}
		if c.Command == "" && c.URL != "" {
			s.Transport, s.URL = chat.MCPHTTP, c.URL
		}
		s, err := chat.CleanMCPServer(s)
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, nil
}

// jsonProblem says where a JSON document breaks.
func jsonProblem(data []byte, err error) string {
	var syn *json.SyntaxError
	if errors.As(err, &syn) {
		line := 1 + bytes.Count(data[:min(int(syn.Offset), len(data))], []byte("\n"))
		return fmt.Sprintf("%v (line %d)", syn, line)
	}
	return err.Error()
}

// ClaudeConfigPath is where Claude Desktop keeps its configuration on this
// system: ~/Library/Application Support/Claude on macOS, %APPDATA%\Claude
// on Windows, ~/.config/Claude elsewhere.
func ClaudeConfigPath() (string, error) {
	if runtime.GOOS == "darwin" {
		home, err := os.UserHomeDir()
		if err != nil {
			return "", err
		}
		return filepath.Join(home, "Library", "Application Support", "Claude", "claude_desktop_config.json"), nil
	}
	dir, err := os.UserConfigDir() // %APPDATA% on Windows, $XDG_CONFIG_HOME or ~/.config elsewhere
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, "Claude", "claude_desktop_config.json"), nil
}

// ReadClaudeConfig reads Claude Desktop's configuration from its usual place.
func ReadClaudeConfig() ([]chat.MCPServer, error) {
	path, err := ClaudeConfigPath()
	if err != nil {
		return nil, chat.Errorf(chat.CodeNotFound, "Claude Desktop's configuration folder is unknown here: %v", err)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, chat.Errorf(chat.CodeNotFound, "no Claude Desktop configuration at %s; paste it instead", path)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxClaudeConfig+1))
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	return ParseClaudeConfig(data)
}

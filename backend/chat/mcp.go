package chat

import (
	"net/url"
	"regexp"
	"strings"
	"sync"
	"time"
)

// MCPTransport is how Errand talks to an MCP server.
type MCPTransport string

// The transports: a command Errand starts and talks to over its standard
// input and output, or a Streamable HTTP endpoint.
const (
	MCPStdio MCPTransport = "stdio"
	MCPHTTP  MCPTransport = "http"
)

// MCPServer is an MCP server the person configured: its tools are offered
// to the agent, named server__tool, while it is enabled.
type MCPServer struct {
	ID string `json:"id"`
	// Name is the tools' namespace: letters, digits, "-" and "_", no "__",
	// not ending in "_" (x_ + __ + y would be x + __ + _y).
	Name      string            `json:"name"`
	Transport MCPTransport      `json:"transport"`
	Command   string            `json:"command,omitempty"`
	Args      []string          `json:"args,omitempty"`
	Env       map[string]string `json:"env,omitempty"`
	URL       string            `json:"url,omitempty"`
	Enabled   bool              `json:"enabled"`
	// ToolRisks are the person's overrides of a tool's risk, by the
	// tool's name on the server: "read_only", "writes" or "destructive".
	ToolRisks map[string]string `json:"toolRisks,omitempty"`
	CreatedAt time.Time         `json:"createdAt" ts_type:"string"`
	UpdatedAt time.Time         `json:"updatedAt" ts_type:"string"`
}

// MaxMCPServers bounds how many servers Errand keeps.
const MaxMCPServers = 50

var mcpNameRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9_-]{1,32}$`) })

// CleanMCPServer returns the server as Errand stores it, trimmed, or a
// CodeInvalid error that says what is wrong.
func CleanMCPServer(s MCPServer) (MCPServer, error) {
	s.Name = strings.TrimSpace(s.Name)
	if !mcpNameRe().MatchString(s.Name) || strings.Contains(s.Name, "__") || strings.HasSuffix(s.Name, "_") {
		return s, Invalidf("name", "The server name %s must be 1 to 32 letters, digits, \"-\" or \"_\" (no \"__\", not ending in \"_\"): it starts the names of its tools.", Quote(s.Name))
	}
	switch s.Transport {
	case MCPStdio:
		s.Command, s.URL = strings.TrimSpace(s.Command), ""
		if s.Command == "" {
			return s, Invalidf("command", "The server %s needs a command to run.", s.Name)
		}
		for _, v := range append(append([]string{s.Command}, s.Args...), envPairs(s.Env)...) {
			if strings.ContainsRune(v, 0) {
				return s, Invalidf("command", "The command, arguments and environment of %s must not hold a NUL character.", s.Name)
			}
		}
		for k := range s.Env {
			if k == "" || strings.ContainsAny(k, "=\x00") {
				return s, Invalidf("env", "The environment variable name %s of %s is not valid.", Quote(k), s.Name)
			}
		}
	case MCPHTTP:
		s.URL, s.Command, s.Args, s.Env = strings.TrimSpace(s.URL), "", nil, nil
		u, err := url.Parse(s.URL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return s, Invalidf("url", "The address of %s must be an http:// or https:// URL, not %s.", s.Name, Quote(s.URL))
		}
	default:
		return s, Invalidf("transport", "Unknown transport %s; it is %q or %q.", Quote(string(s.Transport)), MCPStdio, MCPHTTP)
	}
	for tool, risk := range s.ToolRisks {
		switch risk {
		case "read_only", "writes", "destructive":
		default:
			return s, Invalidf("toolRisks", "The risk of %s must be read_only, writes or destructive, not %s.", Quote(tool), Quote(risk))
		}
	}
	return s, nil
}

func envPairs(env map[string]string) []string {
	out := make([]string, 0, len(env))
	for k, v := range env {
		out = append(out, k+"="+v)
	}
	return out
}

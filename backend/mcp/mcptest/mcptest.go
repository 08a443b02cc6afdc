// Package mcptest finds the real MCP servers the tests run against: the
// npm packages `make deps` installs into e2e/mcp-servers.
package mcptest

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/errand-app/errand/backend/chat"
)

// Everything is @modelcontextprotocol/server-everything over stdio.
func Everything(t testing.TB, name string) chat.MCPServer {
	return chat.MCPServer{Name: name, Transport: chat.MCPStdio, Command: node(t),
		Args: []string{script(t, "server-everything"), "stdio"}, Enabled: true}
}

// Filesystem is @modelcontextprotocol/server-filesystem confined to dir.
func Filesystem(t testing.TB, name, dir string) chat.MCPServer {
	return chat.MCPServer{Name: name, Transport: chat.MCPStdio, Command: node(t),
		Args: []string{script(t, "server-filesystem"), dir}, Enabled: true}
}

// Script is the entry point of one of the installed servers.
func script(t testing.TB, pkg string) string {
	t.Helper()
	path := filepath.Join(root(t), "e2e", "mcp-servers", "node_modules", "@modelcontextprotocol", pkg, "dist", "index.js")
	if _, err := os.Stat(path); err != nil {
		missing(t, "the MCP server "+pkg+" is not installed ("+path+")")
	}
	return path
}

func node(t testing.TB) string {
	t.Helper()
	path, err := exec.LookPath("node")
	if err != nil {
		missing(t, "node is not installed")
	}
	return path
}

func missing(t testing.TB, what string) {
	t.Helper()
	if testing.Short() {
		t.Skip(what)
	}
	t.Fatal(what + ": run `make deps` first")
}

// root is the repository's root: the folder above that holds go.mod.
func root(t testing.TB) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("the repository's root (go.mod) was not found")
		}
		dir = parent
	}
}

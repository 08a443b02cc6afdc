package mcp_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"testing"
	"time"

	"github.com/errand-app/errand/backend/chat"
	"github.com/errand-app/errand/backend/mcp"
	"github.com/errand-app/errand/backend/mcp/mcptest"
	"github.com/errand-app/errand/backend/tools"
)

// BenchmarkToolCallOverhead compares one call as the agent makes it —
// validated against the tool's schema by the registry, then run — of a
// built-in tool (read_file on a small file) with one of an MCP tool that
// does as little (echo): over stdio to the real server-everything, and over
// Streamable HTTP to the SDK's own server in this process. Each reports its
// p50 and p99; the difference is what going through MCP costs a call.
func BenchmarkToolCallOverhead(b *testing.B) {
	ws, err := tools.OpenWorkspace(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	defer ws.Close()
	if err := os.WriteFile(filepath.Join(ws.Dir(), "note.txt"), []byte("hello\n"), 0o600); err != nil {
		b.Fatal(err)
	}
	builtin := tools.NewLive(nil, tools.Builtin(), nil)
	b.Run("builtin-read_file", func(b *testing.B) {
		measure(b, "mcp.call.builtin", builtin.Registry(), "read_file", `{"path":"note.txt"}`, tools.Env{Workspace: ws})
	})

	m := mcp.NewManager(mcp.Options{})
	defer m.Close()
	stdio := mcptest.Everything(b, "everything")
	stdio.ID = "stdio"
	url, _, _ := httpServer(b)
	m.Set([]chat.MCPServer{stdio, {ID: "http", Name: "remote", Transport: chat.MCPHTTP, URL: url, Enabled: true}})
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute) // the servers start, however busy the machine
	defer cancel()
	for _, id := range []string{"stdio", "http"} {
		if st, err := m.Wait(ctx, id); err != nil || st.Status != mcp.StatusReady {
			b.Fatalf("server %s: %+v %v", id, st, err)
		}
	}
	live := tools.NewLive(nil, tools.Builtin(), m)
	b.Run("mcp-stdio-echo", func(b *testing.B) {
		measure(b, "mcp.call.stdio", live.Registry(), "everything__echo", `{"message":"hello"}`, tools.Env{})
	})
	b.Run("mcp-http-add", func(b *testing.B) {
		measure(b, "mcp.call.http", live.Registry(), "remote__add", `{"a":1,"b":2}`, tools.Env{})
	})
}

// measure validates and runs one call per iteration (at least 200, or 5
// with ERRAND_BENCH_SMOKE=1) and reports p50 and p99 in milliseconds.
func measure(b *testing.B, figure string, reg *tools.Registry, name, args string, env tools.Env) {
	n := 200
	if os.Getenv("ERRAND_BENCH_SMOKE") != "" {
		n = 5
	}
	n = max(n, b.N)
	samples := make([]time.Duration, 0, n)
	b.ResetTimer()
	for i := 0; i < n; i++ {
		start := time.Now()
		raw, err := reg.Validate(name, args)
		if err != nil {
			b.Fatal(err)
		}
		res, err := reg.Tool(name).Run(context.Background(), env, json.RawMessage(raw))
		if err != nil || res.IsError {
			b.Fatalf("%s: %v %s", name, err, res.Content)
		}
		samples = append(samples, time.Since(start))
	}
	sort.Slice(samples, func(i, j int) bool { return samples[i] < samples[j] })
	benchReport(b, figure+".p50", ms(samples[len(samples)/2]), "ms")
	benchReport(b, figure+".p99", ms(samples[(len(samples)*99)/100]), "ms")
}

func ms(d time.Duration) float64 { return float64(d.Nanoseconds()) / 1e6 }

// benchReport reports a figure and, with ERRAND_BENCH_OUT set, appends it
// to that file as a JSON line {"name","value","unit"} for e2e/bench/table.mjs.
func benchReport(b *testing.B, name string, value float64, unit string) {
	b.Helper()
	b.ReportMetric(value, name+"/"+unit)
	path := os.Getenv("ERRAND_BENCH_OUT")
	if path == "" {
		return
	}
	line, _ := json.Marshal(map[string]any{"name": name, "value": value, "unit": unit, "smoke": os.Getenv("ERRAND_BENCH_SMOKE") != ""})
	f, err := os.OpenFile(path, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		b.Fatalf("bench output: %v", err)
	}
	defer f.Close()
	if _, err := f.Write(append(line, '\n')); err != nil {
		b.Fatalf("bench output: %v", err)
	}
}

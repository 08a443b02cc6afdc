package mcp_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/errand-app/errand/backend/chat"
	"github.com/errand-app/errand/backend/mcp"
	"github.com/stretchr/testify/require"
)

// marked lists the running processes whose command line holds marker.
func marked(marker string) []string {
	var found []string
	dirs, _ := filepath.Glob("/proc/[0-9]*")
	for _, d := range dirs {
		b, err := os.ReadFile(filepath.Join(d, "cmdline"))
		if err != nil || !strings.Contains(string(b), marker) {
			continue
		}
		if stat, err := os.ReadFile(filepath.Join(d, "stat")); err == nil {
			s := string(stat)
			if f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:]); len(f) > 0 && (f[0] == "Z" || f[0] == "X") {
				continue
			}
		}
		found = append(found, filepath.Base(d))
	}
	return found
}

func TestAChildThatCalledSetsidEndsWithItsServer(t *testing.T) {
	if _, err := os.Stat("/proc/self/environ"); err != nil {
		t.Skip("no /proc here")
	}
	marker := fmt.Sprintf("300.%d", time.Now().UnixNano()%1e9)
	m, w := newManager(t, mcp.Options{})
	cfg := fakeServer(t, "s1", "[]")
	// The child leaves the server's process group and session at once.
	cfg.Command, cfg.Args = "bash", []string{"-c", `setsid sleep ` + marker + ` & exec "$0"`, cfg.Command}
	m.Set([]chat.MCPServer{cfg})
	w.wait(t, "s1", "ready", func(s mcp.State) bool { return s.Status == mcp.StatusReady })
	waitFor(t, "the setsid child runs", func() bool { return len(marked(marker)) > 0 })

	cfg.Enabled = false
	m.Set([]chat.MCPServer{cfg})
	waitFor(t, "the setsid child is gone", func() bool { return len(marked(marker)) == 0 })
}

func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(2 * time.Minute) // only a broken stop waits so long, however busy the machine
	for !cond() {
		require.True(t, time.Now().Before(deadline), "waited in vain: %s", what)
		time.Sleep(10 * time.Millisecond)
	}
}

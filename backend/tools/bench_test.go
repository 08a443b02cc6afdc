package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// BenchmarkStopKillsProcessTree measures the time from Stop (the task's
// context being cancelled) to run_command's whole process tree — the shell,
// its child and its grandchild — being gone, outside the sandbox and (where
// there is one) in it. It reports p50 and p99; the sandboxed figure comes
// last.
func BenchmarkStopKillsProcessTree(b *testing.B) {
	b.Run("unsandboxed", func(b *testing.B) { benchStop(b, RunCommand{NoSandbox: true}) })
	if SandboxAvailable() {
		b.Run("sandboxed", func(b *testing.B) { benchStop(b, RunCommand{}) })
	}
}

func benchStop(b *testing.B, rc RunCommand) {
	ws, err := OpenWorkspace(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	defer ws.Close()
	var samples []time.Duration
	for i := 0; i < b.N; i++ {
		// Every process of the tree has the marker in its command line
		// (the shells hold it in theirs): found once, from this machine's
		// side of the sandbox, then watched.
		marker := fmt.Sprintf("300.%d%d", i, time.Now().UnixNano()%1e6)
		args, _ := json.Marshal(map[string]any{
			"command": fmt.Sprintf(`sleep %[1]s & (sleep %[1]s & echo >> pids; wait) & echo >> pids; echo >> pids; wait`, marker),
		})
		// The last sample's lines go before the command starts: removed
		// after, they could take this command's first lines with them.
		os.Remove(filepath.Join(ws.Dir(), "pids"))
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan struct{})
		go func() {
			rc.Run(ctx, Env{Workspace: ws}, args)
			close(done)
		}()
		pids := waitMarkedPids(b, filepath.Join(ws.Dir(), "pids"), marker)
		start := time.Now()
		cancel()
		for !allGone(pids) {
			time.Sleep(50 * time.Microsecond)
		}
		samples = append(samples, time.Since(start))
		<-done
	}
	sort.Slice(samples, func(i, j int) bool { return samples[i] < samples[j] })
	b.ReportMetric(float64(samples[len(samples)/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(samples[(len(samples)*99)/100].Microseconds())/1000, "p99-ms")
}

// waitMarkedPids waits until the command has written its three lines to
// file (the shell, its subshell and the grandchild's parent have all
// started) and returns the processes that hold marker.
func waitMarkedPids(b *testing.B, file, marker string) []int {
	deadline := time.Now().Add(2 * time.Minute) // only a broken run_command waits so long
	for time.Now().Before(deadline) {
		data, _ := os.ReadFile(file)
		if strings.Count(string(data), "\n") >= 3 {
			found := markedProcesses(marker)
			var pids []int
			for _, s := range found {
				if p, err := strconv.Atoi(s); err == nil {
					pids = append(pids, p)
				}
			}
			return pids
		}
		time.Sleep(time.Millisecond)
	}
	b.Fatal("the command's processes never showed")
	return nil
}

// markedProcesses lists this machine's running processes whose command
// line holds marker.
func markedProcesses(marker string) []string {
	var found []string
	dirs, _ := filepath.Glob("/proc/[0-9]*")
	for _, d := range dirs {
		b, err := os.ReadFile(filepath.Join(d, "cmdline"))
		if err != nil || !strings.Contains(string(b), marker) {
			continue
		}
		pid, err := strconv.Atoi(filepath.Base(d))
		if err != nil || allGone([]int{pid}) {
			continue
		}
		found = append(found, filepath.Base(d))
	}
	return found
}

// allGone reports whether every pid has exited (a zombie counts as gone).
func allGone(pids []int) bool {
	for _, pid := range pids {
		if syscall.Kill(pid, 0) != nil {
			continue
		}
		b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
		if err != nil {
			continue
		}
		s := string(b)
		if f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:]); len(f) > 0 && f[0] == "Z" {
			continue
		}
		return false
	}
	return true
}

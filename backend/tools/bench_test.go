package tools

import (
	"context"
	"encoding/json"
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
// its child and its grandchild — being gone. It reports p50 and p99.
func BenchmarkStopKillsProcessTree(b *testing.B) {
	ws, err := OpenWorkspace(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	defer ws.Close()
	pidFile := filepath.Join(ws.Dir(), "pids")
	args, _ := json.Marshal(map[string]any{
		"command": `sleep 300 & (sleep 300 & echo $! >> pids; wait) & echo $! >> pids; echo $$ >> pids; wait`,
	})
	var samples []time.Duration
	for i := 0; i < b.N; i++ {
		os.Remove(pidFile)
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan struct{})
		go func() {
			RunCommand{}.Run(ctx, Env{Workspace: ws}, args)
			close(done)
		}()
		pids := waitPids(b, pidFile, 3)
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

func waitPids(b *testing.B, file string, n int) []int {
	deadline := time.Now().Add(2 * time.Minute) // only a broken run_command waits so long
	for time.Now().Before(deadline) {
		data, _ := os.ReadFile(file)
		f := strings.Fields(string(data))
		if len(f) >= n {
			var pids []int
			for _, s := range f {
				if p, err := strconv.Atoi(s); err == nil {
					pids = append(pids, p)
				}
			}
			return pids
		}
		time.Sleep(time.Millisecond)
	}
	b.Fatal("the command never wrote its pids")
	return nil
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

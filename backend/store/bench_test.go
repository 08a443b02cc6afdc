package store

// BenchmarkAppendContent grows one streaming message to 5 MB, an append at
// a time, as a long reply does, and reports the time an append takes at
// the start and at the end: appends cost in proportion to what arrived, so
// the two are about the same. It then times reading the streaming message
// back and the final update that folds its chunks in.
//
// Like the agent's benchmarks (see docs/BENCHMARKS.md), it measures and
// fails only on broken behaviour; run it with -benchtime=1x.
// ERRAND_BENCH_SMOKE=1 makes it tiny; ERRAND_BENCH_OUT=file appends each
// figure to file as a JSON line for e2e/bench/table.mjs.

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

func benchSmoke() bool { return os.Getenv("ERRAND_BENCH_SMOKE") != "" }

func benchReport(b *testing.B, name string, value float64, unit string) {
	b.Helper()
	b.ReportMetric(value, strings.ReplaceAll(name, " ", "_")+"/"+unit)
	path := os.Getenv("ERRAND_BENCH_OUT")
	if path == "" {
		return
	}
	line, _ := json.Marshal(map[string]any{"name": name, "value": value, "unit": unit, "smoke": benchSmoke()})
	f, err := os.OpenFile(path, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		b.Fatalf("bench output: %v", err)
	}
	defer f.Close()
	if _, err := f.Write(append(line, '\n')); err != nil {
		b.Fatalf("bench output: %v", err)
	}
}

func BenchmarkAppendContent(b *testing.B) {
	total, piece := 5<<20, 2<<10 // 2,560 appends of 2 KB
	if benchSmoke() {
		total = 64 << 10
	}
	bands := 5 // the appends are timed in fifths of the message
	ctx := context.Background()
	s, err := Open(ctx, b.TempDir()+"/"+FileName)
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	task, m := streaming(b, s, "")
	text := strings.Repeat("lorem ipsum dolor sit amet, ", piece/28+1)[:piece]
	n := total / piece
	perBand := make([]time.Duration, bands)
	var slowest time.Duration
	b.ResetTimer()
	start := time.Now()
	for i := 0; i < n; i++ {
		t0 := time.Now()
		a, err := s.AppendContent(ctx, m.ID, text)
		d := time.Since(t0)
		if err != nil {
			b.Fatal(err)
		}
		if a.Offset != i*piece || a.Rev != i+2 {
			b.Fatalf("append %d landed at %d, rev %d", i, a.Offset, a.Rev)
		}
		perBand[i*bands/n] += d
		slowest = max(slowest, d)
	}
	all := time.Since(start)
	t0 := time.Now()
	msgs, err := s.TaskMessages(ctx, task.ID)
	read := time.Since(t0)
	if err != nil || len(msgs) != 2 || len(msgs[1].Content) != n*piece {
		b.Fatalf("the streaming message did not read back whole (%v)", err)
	}
	m = msgs[1]
	m.Streaming = false
	t0 = time.Now()
	final, err := s.UpdateMessage(ctx, m)
	fold := time.Since(t0)
	if err != nil || final.Content != m.Content {
		b.Fatalf("the final update: %v", err)
	}
	b.StopTimer()

	perAppend := func(band int) float64 { return millis(perBand[band]) / float64(n/bands) }
	benchReport(b, "store.append.bytes", float64(n*piece), "bytes")
	benchReport(b, "store.append.total", millis(all), "ms")
	benchReport(b, "store.append.first_fifth", perAppend(0), "ms")
	benchReport(b, "store.append.last_fifth", perAppend(bands-1), "ms")
	benchReport(b, "store.append.last_over_first", perAppend(bands-1)/perAppend(0), "ratio")
	benchReport(b, "store.append.max", millis(slowest), "ms")
	benchReport(b, "store.append.read_streaming", millis(read), "ms")
	benchReport(b, "store.append.final_update", millis(fold), "ms")
}

func millis(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// BenchmarkOpenNew opens a new database, as a first start does before the
// window maps (the file is made from schema.sql in one step), and closes
// it outside the timing.
func BenchmarkOpenNew(b *testing.B) {
	ctx := context.Background()
	dir := b.TempDir()
	for i := 0; i < b.N; i++ {
		s, err := Open(ctx, filepath.Join(dir, strconv.Itoa(i), FileName))
		if err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		s.Close()
		b.StartTimer()
	}
}

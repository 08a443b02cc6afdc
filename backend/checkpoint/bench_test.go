package checkpoint_test

import (
	"fmt"
	"os"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/errand-app/errand/backend/checkpoint"
)

// BenchmarkSnapshot is the checkpoint taken before run_command in a
// workspace of 10,000 files of 1 KB (100 under ERRAND_BENCH_SMOKE): the
// first snapshot keeps every file; later ones find the contents already
// kept and only read them. It reports the bytes kept.
func BenchmarkSnapshot(b *testing.B) {
	files := 10_000
	if os.Getenv("ERRAND_BENCH_SMOKE") != "" {
		files = 100
	}
	for _, run := range []string{"first", "again"} {
		b.Run(fmt.Sprintf("%s-%dfiles", run, files), func(b *testing.B) {
			f := newFixture(b, checkpoint.Defaults)
			for i := range files {
				f.write(fmt.Sprintf("dir%02d/file%05d.txt", i%50, i), fmt.Sprintf("%01024d", i))
			}
			id := f.task()
			if run == "again" {
				snap, err := f.k.Snapshot(f.ctx, f.ws)
				require.NoError(b, err)
				_, err = f.k.Record(f.ctx, id, snap)
				require.NoError(b, err)
			}
			b.ResetTimer()
			for b.Loop() {
				if run == "first" { // nothing kept yet
					b.StopTimer()
					k, err := checkpoint.New(b.TempDir(), f.store, checkpoint.Defaults)
					require.NoError(b, err)
					f.k = k
					b.StartTimer()
				}
				snap, err := f.k.Snapshot(f.ctx, f.ws)
				require.NoError(b, err)
				_, err = f.k.Record(f.ctx, id, snap)
				require.NoError(b, err)
			}
			b.ReportMetric(float64(f.k.Size()), "bytes-kept")
		})
	}
}

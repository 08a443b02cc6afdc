package contextwin

import (
	"fmt"
	"strings"
	"testing"
)

// BenchmarkCountTokens measures the tokenizer on mixed prose and code; it
// reports tokens counted per second.
func BenchmarkCountTokens(b *testing.B) {
	var sb strings.Builder
	for i := 0; sb.Len() < 64<<10; i++ {
		fmt.Fprintf(&sb, "func step%d(ctx context.Context) error { return nil } // The quick brown fox %d jumps.\n", i, i*7)
	}
	text := sb.String()
	c := NewCounter("gpt-4o")
	n := c.Text(text)
	b.SetBytes(int64(len(text)))
	b.ResetTimer()
	for b.Loop() {
		c.Text(text)
	}
	b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "tokens/s")
}

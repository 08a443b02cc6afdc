package mode

import "testing"

// BenchmarkDecide is the local decision's time per message over the
// labelled table (target ≤ 1 ms, no model call); it reports the table's
// accuracy beside the time.
func BenchmarkDecide(b *testing.B) {
	table := loadTable(b)
	acc, _ := accuracy(b, table)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		l := table[i%len(table)]
		Decide(l.text, l.depth)
	}
	b.ReportMetric(acc*100, "%accuracy")
}

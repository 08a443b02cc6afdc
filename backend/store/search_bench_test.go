package store

// BenchmarkSearch fills a database with 1,000,000 messages in 10,000
// conversations (10,000 under ERRAND_BENCH_SMOKE) written from a
// vocabulary of 20,000 words, the k-th most common about 1/k as frequent
// as the first (as in real text), and times searches as the person types
// them: every prefix of a few words, of rare and common words, one and
// several words, each word matched as a word's start (prefix search). It reports
// p50 and p99 over all of them (target p99 ≤ 50 ms), and the slowest kind;
// then the first search after a 5 MB reply ended, which indexes it.

import (
	"context"
	"database/sql"
	"fmt"
	"math"
	"math/rand"
	"os"
	"sort"
	"strings"
	"testing"
	"time"
)

func searchVocabulary(r *rand.Rand, n int) []string {
	const letters = "abcdefghijklmnopqrstuvwxyz"
	seen := map[string]bool{}
	words := make([]string, 0, n)
	for len(words) < n {
		b := make([]byte, 2+r.Intn(9))
		for i := range b {
			b[i] = letters[r.Intn(len(letters))]
		}
		if w := string(b); !seen[w] {
			seen[w] = true
			words = append(words, w)
		}
	}
	return words
}

func seedSearch(b *testing.B, s *Store, convs, perConv int, words []string, r *rand.Rand) {
	b.Helper()
	ctx := context.Background()
	base := time.Now().Add(-time.Hour).UnixMilli()
	seq := 0
	for c := 0; c < convs; c++ {
		err := s.inTx(ctx, func(tx *sql.Tx) error {
			id := fmt.Sprintf("conv-%06d", c)
			if _, err := tx.ExecContext(ctx, `INSERT INTO conversations (id, title, created_at, updated_at) VALUES (?, ?, ?, ?)`,
				id, "Conversation "+id, base, base); err != nil {
				return err
			}
			for i := 0; i < perConv; i++ {
				var text strings.Builder
				for w := 0; w < 8+r.Intn(40); w++ {
					text.WriteString(words[int(math.Pow(float64(len(words)), r.Float64()))-1])
					text.WriteByte(' ')
				}
				seq++
				role := "user"
				if i%2 == 1 {
					role = "assistant"
				}
				if _, err := tx.ExecContext(ctx, `INSERT INTO messages (id, conversation_id, role, content, created_at)
					VALUES (?, ?, ?, ?, ?)`, fmt.Sprintf("m-%08d", seq), id, role, text.String(), base+int64(seq)); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkSearch(b *testing.B) {
	convs, perConv := 10_000, 100
	if benchSmoke() {
		convs, perConv = 100, 100
	}
	ctx := context.Background()
	// ERRAND_BENCH_SEARCH_DB keeps the seeded database in that file and
	// reuses it on the next run (seeding 1,000,000 messages takes minutes).
	path, keep := os.LookupEnv("ERRAND_BENCH_SEARCH_DB")
	if !keep {
		path = b.TempDir() + "/" + FileName
	}
	_, statErr := os.Stat(path)
	s, err := Open(ctx, path)
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	r := rand.New(rand.NewSource(1))
	words := searchVocabulary(r, 20_000)
	seeded := time.Duration(0)
	if !keep || statErr != nil {
		t0 := time.Now()
		seedSearch(b, s, convs, perConv, words, r)
		seeded = time.Since(t0)
	}
	var n int
	if err := s.db.QueryRow(`SELECT count(*) FROM message_search`).Scan(&n); err != nil {
		b.Fatal(err)
	}
	// The first search lists the words of every message seeded (as a
	// search after an import would): reported, not one of the typed ones.
	t0 := time.Now()
	if _, err := s.Search(ctx, words[0], 20); err != nil {
		b.Fatal(err)
	}
	firstSearch := time.Since(t0)

	// What the person types: each prefix of each query, as the dialog
	// searches it while they type.
	queries := map[string][]string{
		"common word":    {words[1], words[2], words[5]},
		"rare word":      {words[15_000], words[19_000], words[12_345]},
		"two words":      {words[3] + " " + words[40], words[100] + " " + words[7]},
		"three words":    {words[10] + " " + words[200] + " " + words[3000]},
		"absent word":    {"qqqqqqqqqq", "zzzzzzzzzz"},
		"hostile syntax": {`"` + words[4] + ` NEAR(` + words[9] + ` *`, words[6] + ` OR (`},
	}
	all := []time.Duration{}
	worstKind, worst := "", time.Duration(0)
	slowestQuery, slowest := "", time.Duration(0)
	b.ResetTimer()
	for kind, qs := range queries {
		var times []time.Duration
		for _, q := range qs {
			for end := 1; end <= len(q); end++ {
				t := time.Now()
				if _, err := s.Search(ctx, q[:end], 20); err != nil {
					b.Fatalf("search %q: %v", q[:end], err)
				}
				took := time.Since(t)
				if took > slowest {
					slowestQuery, slowest = q[:end], took
				}
				times = append(times, took)

			}
		}
		sort.Slice(times, func(i, j int) bool { return times[i] < times[j] })
		if p := percentile(times, 99); p > worst {
			worstKind, worst = kind, p
		}
		all = append(all, times...)
	}
	b.StopTimer()

	// The search after a long reply ended: it indexes the reply first
	// (ending the stream left that to it).
	size := 5 << 20
	if benchSmoke() {
		size = 64 << 10
	}
	_, m := streaming(b, s, "")
	m.Content, m.Streaming = strings.Repeat(words[7]+" "+words[9000]+" ", size/(len(words[7])+len(words[9000])+2)), false
	t0 = time.Now()
	if _, err := s.UpdateMessage(ctx, m); err != nil {
		b.Fatal(err)
	}
	benchReport(b, "store.search.long_reply_final_update", millis(time.Since(t0)), "ms")
	t0 = time.Now()
	hits, err := s.Search(ctx, words[9000], 20)
	if err != nil || len(hits) == 0 || hits[0].MessageID != m.ID {
		b.Fatalf("the long reply is not found first: %v", err)
	}
	benchReport(b, "store.search.first_after_long_reply", millis(time.Since(t0)), "ms")
	t0 = time.Now()
	if _, err := s.Search(ctx, words[9000], 20); err != nil {
		b.Fatal(err)
	}
	benchReport(b, "store.search.again_after_long_reply", millis(time.Since(t0)), "ms")

	// (Reported after ResetTimer, which forgets metrics.)
	benchReport(b, "store.search.messages", float64(n), "messages")
	if seeded > 0 {
		benchReport(b, "store.search.seed", millis(seeded), "ms")
	}
	benchReport(b, "store.search.first", millis(firstSearch), "ms")
	sort.Slice(all, func(i, j int) bool { return all[i] < all[j] })
	benchReport(b, "store.search.queries", float64(len(all)), "queries")
	benchReport(b, "store.search.p50", millis(percentile(all, 50)), "ms")
	benchReport(b, "store.search.p99", millis(percentile(all, 99)), "ms")
	benchReport(b, "store.search.max", millis(all[len(all)-1]), "ms")
	b.Logf("slowest kind: %s (p99 %v); slowest search: %q (%v)", worstKind, worst, slowestQuery, slowest)
}

func percentile(sorted []time.Duration, p int) time.Duration {
	return sorted[(len(sorted)-1)*p/100]
}

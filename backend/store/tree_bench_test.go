package store

import (
	"context"
	"fmt"
	"sort"
	"testing"
	"time"

	"github.com/google/uuid"
)

// BenchmarkBranchSwitch measures the version arrows in a 10,000-message
// conversation (200 with ERRAND_BENCH_SMOKE=1): switching the branch and
// reading the page the window then shows (the latest 100 messages, what
// ShowVersion returns). Two forks: at the second message, where a switch
// takes the whole conversation off the branch and puts another 10,000 on
// (the worst case), and at the last turn, the usual one.
func BenchmarkBranchSwitch(b *testing.B) {
	n := 10_000
	if benchSmoke() {
		n = 200
	}
	ctx := context.Background()
	s, err := Open(ctx, b.TempDir()+"/"+FileName)
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	c := newConversation(b, s)
	ids := seedMessages(b, s, c.ID, newConversation(b, s).ID, n)
	// A second branch of the same length from the second message, and a
	// one-message branch from the last but one.
	early := addBranch(b, s, c.ID, ids[0], n-1)
	late := addBranch(b, s, c.ID, ids[n-2], 1)
	b.ResetTimer()
	for _, fork := range []struct {
		name string
		a, b string
	}{{"early fork", ids[1], early}, {"late fork", ids[n-1], late}} {
		var switches, pages []time.Duration
		to := []string{fork.a, fork.b}
		runs := 20
		if benchSmoke() {
			runs = 4
		}
		for i := 0; i < runs; i++ {
			t0 := time.Now()
			if err := s.SwitchBranch(ctx, c.ID, to[i%2]); err != nil {
				b.Fatal(err)
			}
			t1 := time.Now()
			v, err := s.OpenConversation(ctx, c.ID, 100)
			if err != nil {
				b.Fatal(err)
			}
			switches, pages = append(switches, t1.Sub(t0)), append(pages, time.Since(t1))
			if len(v.Messages) == 0 {
				b.Fatal("an empty page")
			}
		}
		benchReport(b, fmt.Sprintf("branch switch, %s, %d messages, median", fork.name, n), ms64(median(switches)), "ms")
		benchReport(b, fmt.Sprintf("page after the switch, %s, median", fork.name), ms64(median(pages)), "ms")
	}
}

// addBranch adds a chain of length messages continuing the message from,
// off the current branch (a run of its own), and returns its first
// message's id.
func addBranch(b *testing.B, s *Store, convID, from string, length int) string {
	b.Helper()
	ctx := context.Background()
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		b.Fatal(err)
	}
	run, err := nextRun(ctx, tx, convID)
	if err != nil {
		b.Fatal(err)
	}
	stmt, err := tx.PrepareContext(ctx, `INSERT INTO messages (id, conversation_id, role, content, created_at, parent_id, run)
		VALUES (?, ?, 'user', ?, ?, ?, ?)`)
	if err != nil {
		b.Fatal(err)
	}
	parent, first := from, ""
	now := time.Now().UnixMilli()
	for i := 0; i < length; i++ {
		id := uuid.NewString()
		if _, err := stmt.ExecContext(ctx, id, convID, fmt.Sprintf("branch message %d", i), now, parent, run); err != nil {
			b.Fatal(err)
		}
		if first == "" {
			first = id
		}
		parent = id
	}
	stmt.Close()
	if err := tx.Commit(); err != nil {
		b.Fatal(err)
	}
	return first
}

func median(ds []time.Duration) time.Duration {
	s := append([]time.Duration(nil), ds...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return s[len(s)/2]
}

func ms64(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

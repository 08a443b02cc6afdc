package store

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The statement cache must give the same answers as no cache: a query run
// again while its first rows are still open, a failed statement, and a
// script of several statements.
func TestStatementCacheKeepsResultsRight(t *testing.T) {
	t.Parallel()
	s, _ := openTemp(t)
	ctx := context.Background()
	s.db.SetMaxOpenConns(1) // one connection: every query meets the same cache
	_, err := s.db.ExecContext(ctx, "CREATE TABLE t (n INTEGER PRIMARY KEY); INSERT INTO t VALUES (1), (2), (3)")
	require.NoError(t, err)

	const q = "SELECT n FROM t WHERE n >= ? ORDER BY n"
	outer, err := s.db.QueryContext(ctx, q, 1)
	require.NoError(t, err)
	var pairs [][2]int
	var got []int
	for outer.Next() {
		var a int
		require.NoError(t, outer.Scan(&a))
		got = append(got, a)
	}
	require.NoError(t, outer.Close())
	assert.Equal(t, []int{1, 2, 3}, got)

	// Nested: the same query while the outer rows are open, through a
	// transaction that holds the single connection.
	tx, err := s.db.BeginTx(ctx, nil)
	require.NoError(t, err)
	rows, err := tx.QueryContext(ctx, q, 2)
	require.NoError(t, err)
	for rows.Next() {
		var a int
		require.NoError(t, rows.Scan(&a))
		var b int
		require.NoError(t, tx.QueryRowContext(ctx, q, a).Scan(&b))
		pairs = append(pairs, [2]int{a, b})
	}
	require.NoError(t, rows.Close())
	require.NoError(t, tx.Commit())
	assert.Equal(t, [][2]int{{2, 2}, {3, 3}}, pairs)

	// A failing statement is dropped and the next run works.
	_, err = s.db.ExecContext(ctx, "INSERT INTO t VALUES (?)", 1)
	require.Error(t, err)
	_, err = s.db.ExecContext(ctx, "INSERT INTO t VALUES (?)", 4)
	require.NoError(t, err)
	var n int
	require.NoError(t, s.db.QueryRowContext(ctx, "SELECT count(*) FROM t").Scan(&n))
	assert.Equal(t, 4, n)
}

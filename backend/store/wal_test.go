package store

import (
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// No commit copies the write-ahead log into the file: every connection
// leaves it to the copier (wal.go), so a write never waits for a copy.
func TestNoConnectionCopiesTheLogInACommit(t *testing.T) {
	s, _ := openTemp(t)
	ctx := context.Background()
	var conns []*sql.Conn
	for range 3 {
		c, err := s.DB().Conn(ctx)
		require.NoError(t, err)
		conns = append(conns, c)
	}
	for i, c := range conns {
		var pages int
		require.NoError(t, c.QueryRowContext(ctx, "PRAGMA wal_autocheckpoint").Scan(&pages))
		require.Zero(t, pages, "connection %d copies the log itself after %d pages", i, pages)
		require.NoError(t, c.Close())
	}
}

// What is written reaches the database file itself, without the log,
// while the database stays open.
func TestWritesReachTheFileWhileItIsOpen(t *testing.T) {
	s, path := openTemp(t)
	c := newConversation(t, s)
	// The file alone, copied without its log, holds the conversation once
	// the copier has copied it (about a second after the write).
	found := func() bool {
		copied := filepath.Join(t.TempDir(), "alone.db")
		b, err := os.ReadFile(path)
		if err != nil || os.WriteFile(copied, b, 0o600) != nil {
			return false
		}
		db, err := sql.Open(driverName, "file:"+copied+"?mode=ro")
		if err != nil {
			return false
		}
		defer db.Close()
		var n int
		err = db.QueryRow("SELECT count(*) FROM conversations WHERE id = ?", c.ID).Scan(&n)
		return err == nil && n == 1
	}
	require.Eventually(t, found, time.Minute, 50*time.Millisecond, "the conversation is not in the file a minute after it was written")
}

package store

import (
	"context"
	"database/sql"
	"strings"
	"testing"
	"time"

	"github.com/errand-app/errand/backend/chat"
	"github.com/google/uuid"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"modernc.org/sqlite"
)

// After a long task the pool's connections kept the pages they read; a
// release gives them back, and the store works as before.
func TestReleaseMemoryGivesBackTheConnectionsPages(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, _ := openTemp(t)
	defer s.Close()
	c := newConversation(t, s)
	// 1,500 messages of 1 kB, as a long task leaves (written at once: the
	// test is about reading them).
	_, err := s.db.ExecContext(ctx, `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 1500)
		INSERT INTO messages (id, conversation_id, role, content, created_at) SELECT 'm' || i, ?, 'assistant', ?, 0 FROM n`,
		c.ID, strings.Repeat("a step's output ", 64))
	require.NoError(t, err)
	// Two connections read the whole conversation, as the window and a
	// task read at once.
	held, err := s.db.Conn(ctx)
	require.NoError(t, err)
	readAll(t, held, c.ID)
	other, err := s.db.Conn(ctx)
	require.NoError(t, err)
	readAll(t, other, c.ID)
	require.NoError(t, other.Close())
	require.NoError(t, held.Close())
	before := idleCacheBytes(t, s)
	require.Greater(t, before, 2<<20, "two connections keep the pages they read")

	s.ReleaseMemory(ctx)
	assert.LessOrEqual(t, s.db.Stats().Idle, 1, "one connection is kept")
	after := idleCacheBytes(t, s)
	assert.Less(t, after, before/10, "the pages are given back: %d bytes of %d kept", after, before)

	// The store reads and writes as before, on a new connection too (the
	// kept one is held), with its settings.
	held, err = s.db.Conn(ctx)
	require.NoError(t, err)
	defer held.Close()
	var fk int
	require.NoError(t, s.db.QueryRowContext(ctx, "PRAGMA foreign_keys").Scan(&fk))
	assert.Equal(t, 1, fk)
	_, err = s.AddMessage(ctx, chat.Message{ID: uuid.NewString(), ConversationID: c.ID,
		Role: chat.RoleUser, Content: "one more", CreatedAt: time.Now().UTC()})
	assert.NoError(t, err)
	var n int
	require.NoError(t, s.db.QueryRowContext(ctx, "SELECT count(*) FROM messages WHERE conversation_id = ?", c.ID).Scan(&n))
	assert.Equal(t, 1501, n)
}

// readAll reads every message's text of the conversation on conn.
func readAll(t *testing.T, conn *sql.Conn, convID string) {
	t.Helper()
	rows, err := conn.QueryContext(context.Background(), "SELECT content FROM messages WHERE conversation_id = ?", convID)
	require.NoError(t, err)
	defer rows.Close()
	for rows.Next() {
		var text string
		require.NoError(t, rows.Scan(&text))
	}
	require.NoError(t, rows.Err())
}

// idleCacheBytes is what the pool's idle connections (two, or a new one
// in place of each missing) keep of the pages they read, as SQLite counts.
func idleCacheBytes(t *testing.T, s *Store) int {
	t.Helper()
	ctx := context.Background()
	total := 0
	var conns []*sql.Conn
	for range idleConns {
		conn, err := s.db.Conn(ctx)
		require.NoError(t, err)
		conns = append(conns, conn)
		require.NoError(t, conn.Raw(func(dc any) error {
			used, _, err := dc.(*cachingConn).innerConn.(sqlite.DBStatus).Status(sqlite.DBStatusCacheUsed, false)
			total += used
			return err
		}))
	}
	for _, conn := range conns {
		require.NoError(t, conn.Close())
	}
	return total
}

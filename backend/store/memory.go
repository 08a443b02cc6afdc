package store

import (
	"context"
	"log/slog"
)

// idleConns is how many connections the pool keeps open between uses
// (database/sql's default, named).
const idleConns = 2

// ReleaseMemory gives back what the pool's idle connections keep of the
// work done: each keeps the pages it read (up to SQLite's 2,000 kB, about
// twice that as the C heap allocates them) and its prepared statements
// for good. The pool keeps one connection, emptied of its pages; the
// other is closed. The next reads come from the file again (or the
// system's cache of it), and a second connection is opened when two
// things read at once.
func (s *Store) ReleaseMemory(ctx context.Context) {
	s.db.SetMaxIdleConns(1)
	defer s.db.SetMaxIdleConns(idleConns)
	if _, err := s.db.ExecContext(ctx, "PRAGMA shrink_memory"); err != nil {
		slog.Warn("give back the database's memory", "err", err)
	}
}

// Package store keeps conversations, messages and tasks in a local SQLite
// database (modernc.org/sqlite, no cgo). It implements chat.Store.
//
// The database runs in WAL mode with a busy timeout and foreign keys on every
// pooled connection. The schema is built by the embedded, numbered migrations
// in migrations/; PRAGMA user_version records how far a file has come. A new
// file is made in one step from schema.sql, the schema the migrations make
// (generated from them: see newSchema). A file written by a newer Errand is
// refused rather than touched.
package store

import (
	"context"
	"database/sql"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/errand-app/errand/backend/chat"
	_ "modernc.org/sqlite" // the "sqlite" database/sql driver
)

//go:embed migrations/*.sql
var migrationFS embed.FS

// newSchema makes a new, empty file at the schema every migration makes,
// in one step: its tables, indexes, views and triggers, the rows the
// migrations insert, and PRAGMA user_version. A first start opens the
// database before the window maps: running the 30 migrations one by one
// (table rebuilds, and SQLite reading its schema again after each change)
// made Open of a new file take 49 ms, this 14 ms (BenchmarkOpenNew, median
// of 8 runs on 2 busy cores). It is generated, never edited: after adding
// a migration, run `make schema` (TestANewDatabaseIsWhatEveryMigrationMakes
// fails until then, and checks that the two ways make the same file).
//
//go:embed schema.sql
var newSchema string

// Store is a chat.Store on SQLite. It is safe for concurrent use.
type Store struct {
	db       *sql.DB
	path     string
	readOnly bool
	// writing admits one write (statement or transaction) at a time, in
	// arrival order. SQLite has one writer anyway; without this, the
	// others wait in its busy handler, which sleeps from 1 to 100 ms
	// between tries, serves no one in order and gives up after
	// busy_timeout: with many tasks at once, a write could fail as
	// "locked" behind the app's own other writes.
	writing chan struct{}
	// facts keeps what Facts read until a fact changes.
	facts factsCache
	// wal copies the write-ahead log into the file (nil when read-only).
	wal *walCopier
}

var _ chat.Store = (*Store)(nil)

// FileName is the database's name inside the data directory.
const FileName = "errand.db"

// Open opens (creating if needed) the database at path and brings its schema
// up to date, copying it to backups/ first (see migrate). A database that
// cannot be written (a read-only file or folder) is opened read-only
// instead, if its schema is current: the person can still read everything,
// and every write says why it fails. A database from a newer Errand is
// refused before it is opened for writing, and left as it was.
func Open(ctx context.Context, path string) (*Store, error) {
	ms, err := migrations()
	if err != nil {
		return nil, fmt.Errorf("read migrations: %w", err)
	}
	return openMigrated(ctx, path, ms, newSchema)
}

// openMigrated opens the file at path and brings it to the last of ms; a
// new file is made from whole first, unless whole is "" (then every
// migration runs).
func openMigrated(ctx context.Context, path string, ms []migration, whole string) (*Store, error) {
	if fsch, err := peekSchema(ctx, path); err == nil && fsch.version > lastVersion(ms) {
		return nil, refuseNewer(path, fsch)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("create data directory: %w", err)
	}
	q := url.Values{}
	q.Add("_pragma", "journal_mode(WAL)")
	q.Add("_pragma", "busy_timeout(5000)")
	q.Add("_pragma", "foreign_keys(1)")
	// NORMAL is durable against a crash of the process in WAL mode; a power
	// cut may lose the last commits, never corrupt the file.
	q.Add("_pragma", "synchronous(NORMAL)")
	// The log is copied into the file in the background (wal.go).
	q.Add("_pragma", "wal_autocheckpoint(0)")
	q.Add("_txlock", "immediate")
	s, err := open(ctx, path, q)
	if err == nil {
		err = s.migrate(ctx, ms, whole)
		if err == nil {
			s.copyWAL()
			return s, nil
		}
		s.db.Close()
	}
	if isReadOnly(err) {
		if ro, roErr := OpenReadOnly(ctx, path); roErr == nil {
			return ro, nil
		}
	}
	return nil, err
}

// OpenReadOnly opens the database at path for reading only. It refuses a
// schema that is not this version's, since it cannot migrate it.
func OpenReadOnly(ctx context.Context, path string) (*Store, error) {
	if _, err := os.Stat(path); err != nil {
		return nil, fmt.Errorf("open database: %w", err)
	}
	q := url.Values{}
	q.Add("mode", "ro")
	q.Add("_pragma", "busy_timeout(5000)")
	q.Add("_pragma", "query_only(1)")
	s, err := open(ctx, path, q)
	if err != nil {
		return nil, err
	}
	s.readOnly = true
	var have int
	if err := s.db.QueryRowContext(ctx, "PRAGMA user_version").Scan(&have); err != nil {
		s.db.Close()
		return nil, s.classify("read the database", err)
	}
	if have != SchemaVersion() {
		s.db.Close()
		return nil, chat.Errorf(chat.CodeStorage,
			"the database at %s is read-only and was written by another version of Errand (schema %d, this one uses %d)", path, have, SchemaVersion())
	}
	return s, nil
}

func open(ctx context.Context, path string, q url.Values) (*Store, error) {
	db, err := sql.Open(driverName, "file:"+path+"?"+q.Encode())
	if err != nil {
		return nil, fmt.Errorf("open database: %w", err)
	}
	s := &Store{db: db, path: path, writing: make(chan struct{}, 1)}
	if err := db.PingContext(ctx); err != nil {
		db.Close()
		return nil, s.classify("open the database", err)
	}
	return s, nil
}

// ReadOnly reports whether the database was opened for reading only.
func (s *Store) ReadOnly() bool { return s.readOnly }

// Path is the database file.
func (s *Store) Path() string { return s.path }

// Close closes the database.
func (s *Store) Close() error {
	if s.wal != nil {
		s.wal.stop()
	}
	return s.db.Close()
}

// DB exposes the handle for tests and maintenance tools.
func (s *Store) DB() *sql.DB { return s.db }

type migration struct {
	version int
	name    string
	sql     string
}

func migrations() ([]migration, error) {
	entries, err := fs.ReadDir(migrationFS, "migrations")
	if err != nil {
		return nil, err
	}
	var ms []migration
	for _, e := range entries {
		num, _, ok := strings.Cut(e.Name(), "_")
		v, err := strconv.Atoi(num)
		if !ok || err != nil {
			return nil, fmt.Errorf("migration %q: name must start with a number and _", e.Name())
		}
		b, err := migrationFS.ReadFile("migrations/" + e.Name())
		if err != nil {
			return nil, err
		}
		ms = append(ms, migration{version: v, name: e.Name(), sql: string(b)})
	}
	sort.Slice(ms, func(i, j int) bool { return ms[i].version < ms[j].version })
	return ms, nil
}

// SchemaVersion is the schema version this build writes.
func SchemaVersion() int {
	ms, _ := migrations()
	return lastVersion(ms)
}

// inTx runs fn in a transaction, committing if it returns nil. Nothing of
// a failed transaction is kept.
func (s *Store) inTx(ctx context.Context, fn func(*sql.Tx) error) error {
	if err := s.writable(); err != nil {
		return err
	}
	done, err := s.writeTurn(ctx)
	if err != nil {
		return err
	}
	defer done()
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return s.classify("save", fmt.Errorf("begin: %w", err))
	}
	if err := fn(tx); err != nil {
		tx.Rollback()
		return s.classify("save", err)
	}
	if err := tx.Commit(); err != nil {
		return s.classify("save", fmt.Errorf("commit: %w", err))
	}
	return nil
}

// exec runs one write statement.
func (s *Store) exec(ctx context.Context, query string, args ...any) (sql.Result, error) {
	if err := s.writable(); err != nil {
		return nil, err
	}
	done, err := s.writeTurn(ctx)
	if err != nil {
		return nil, err
	}
	defer done()
	res, err := s.db.ExecContext(ctx, query, args...)
	return res, s.classify("save", err)
}

// writeRow runs one write statement that returns a row.
func (s *Store) writeRow(ctx context.Context, scan func(*sql.Row) error, query string, args ...any) error {
	if err := s.writable(); err != nil {
		return err
	}
	done, err := s.writeTurn(ctx)
	if err != nil {
		return err
	}
	defer done()
	return s.classify("save", scan(s.db.QueryRowContext(ctx, query, args...)))
}

// writeTurn waits for this process's turn to write; done ends it.
func (s *Store) writeTurn(ctx context.Context) (done func(), err error) {
	select {
	case s.writing <- struct{}{}:
		return s.wrote, nil
	case <-ctx.Done():
		return nil, s.classify("save", ctx.Err())
	}
}

// wrote ends a turn to write.
func (s *Store) wrote() {
	<-s.writing
	if s.wal != nil {
		s.wal.written()
	}
}

func (s *Store) writable() error {
	if s.readOnly {
		return chat.Errorf(chat.CodeStorage,
			"Errand cannot save changes: the database at %s is read-only. You can still read everything.", s.path)
	}
	return nil
}

func notFound(what, id string) error {
	return chat.Errorf(chat.CodeNotFound, "no %s with id %s", what, chat.Quote(id))
}

func isNoRows(err error) bool { return errors.Is(err, sql.ErrNoRows) }

// rowScanner is a *sql.Row or *sql.Rows.
type rowScanner interface{ Scan(...any) error }

// collect runs query and scans each row it returns with scan; what names
// the list in an error ("list plans"). An empty result is an empty slice.
func collect[T any](ctx context.Context, q queryer, what string, scan func(rowScanner) (T, error), query string, args ...any) ([]T, error) {
	rows, err := q.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	defer rows.Close()
	out := []T{}
	for rows.Next() {
		v, err := scan(rows)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", what, err)
		}
		out = append(out, v)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	return out, nil
}

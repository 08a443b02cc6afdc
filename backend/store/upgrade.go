package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"time"

	"github.com/errand-app/errand/backend/buildinfo"
	"github.com/errand-app/errand/backend/chat"
)

// BackupDir is the folder, beside the database, that holds the copies
// made before each upgrade of its schema.
const BackupDir = "backups"

// keepBackups is how many pre-upgrade copies are kept; older ones go.
const keepBackups = 5

// fileSchema is what a database file says of itself, read without
// writing to it.
type fileSchema struct {
	version   int
	writtenBy string // the Errand that last wrote it, "" when unknown
}

// peekSchema reads the schema version of the file at path, and which
// Errand wrote it, through an immutable read-only connection: no lock, no
// journal, nothing written. A missing file is schema 0.
func peekSchema(ctx context.Context, path string) (fileSchema, error) {
	var fsch fileSchema
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
		return fsch, nil
	}
	q := url.Values{}
	q.Add("mode", "ro")
	q.Add("immutable", "1")
	db, err := sql.Open(driverName, "file:"+path+"?"+q.Encode())
	if err != nil {
		return fsch, fmt.Errorf("open database: %w", err)
	}
	defer db.Close()
	if err := db.QueryRowContext(ctx, "PRAGMA user_version").Scan(&fsch.version); err != nil {
		return fsch, fmt.Errorf("read the schema version: %w", err)
	}
	// Absent before schema 26: then the writer is unknown.
	_ = db.QueryRowContext(ctx, "SELECT value FROM app_info WHERE key = 'written_by'").Scan(&fsch.writtenBy)
	return fsch, nil
}

// refuseNewer says why a file from a newer Errand is not opened.
func refuseNewer(path string, fsch fileSchema) error {
	by := fmt.Sprintf("a newer version of Errand (schema %d)", fsch.version)
	if fsch.writtenBy != "" {
		by = fmt.Sprintf("Errand %s (schema %d), a newer version of Errand", fsch.writtenBy, fsch.version)
	}
	return chat.Errorf(chat.CodeConflict,
		"The database at %s was written by %s; this is Errand %s (schema %d), which cannot read it. Install Errand %s or later to open it. Nothing in it was changed.",
		path, by, buildinfo.Version, SchemaVersion(), orNewer(fsch.writtenBy))
}

func orNewer(v string) string {
	if v == "" {
		return "the newer version"
	}
	return v
}

// migrate brings the schema to the last of ms. Before it changes an
// existing file it copies it to backups/; every step runs in one
// transaction, so a failure leaves the file as it was. A new file (schema
// 0, nothing in it) is made from whole when it is not "": a first start
// runs no migration (see newSchema).
func (s *Store) migrate(ctx context.Context, ms []migration, whole string) error {
	var have int
	if err := s.db.QueryRowContext(ctx, "PRAGMA user_version").Scan(&have); err != nil {
		return s.classify("read the database", err)
	}
	want := lastVersion(ms)
	if have > want {
		return refuseNewer(s.path, fileSchema{version: have})
	}
	if have == want {
		return s.recordWriter(ctx)
	}
	backup := ""
	if have > 0 {
		whole = "" // an existing file is upgraded migration by migration
		var err error
		if backup, err = s.backUp(ctx, have); err != nil {
			return err
		}
		slog.Info("database copied before its upgrade", "from_schema", have, "to_schema", want, "backup", backup)
	} else if !s.empty(ctx) {
		whole = "" // and so is a file of schema 0 that holds something
	}
	if err := s.applyMigrations(ctx, ms, have, whole); err != nil {
		return s.upgradeFailed(err, backup)
	}
	return s.recordWriter(ctx)
}

// empty reports whether the file holds no table, index, view or trigger.
func (s *Store) empty(ctx context.Context) bool {
	var n int
	err := s.db.QueryRowContext(ctx, "SELECT count(*) FROM sqlite_master").Scan(&n)
	return err == nil && n == 0
}

// applyMigrations runs, in one transaction, whole (when not "") and then
// every migration after the version the file is at.
func (s *Store) applyMigrations(ctx context.Context, ms []migration, have int, whole string) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("begin: %w", err)
	}
	defer tx.Rollback()
	if whole != "" {
		if _, err := tx.ExecContext(ctx, whole); err != nil {
			return fmt.Errorf("schema.sql: %w", err)
		}
		// A migration newer than schema.sql (not generated again) still runs.
		if err := tx.QueryRowContext(ctx, "PRAGMA user_version").Scan(&have); err != nil {
			return fmt.Errorf("schema.sql: %w", err)
		}
	}
	for _, m := range ms {
		if m.version <= have {
			continue
		}
		if _, err := tx.ExecContext(ctx, m.sql); err != nil {
			return fmt.Errorf("migration %s: %w", m.name, err)
		}
		if _, err := tx.ExecContext(ctx, fmt.Sprintf("PRAGMA user_version = %d", m.version)); err != nil {
			return fmt.Errorf("migration %s: %w", m.name, err)
		}
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("commit: %w", err)
	}
	return nil
}

func (s *Store) upgradeFailed(err error, backup string) error {
	where := ""
	if backup != "" {
		where = " A copy made before the upgrade is at " + backup + "."
	}
	if classified := s.classify("upgrade the database", err); classified != err {
		return chat.Wrap(chat.CodeStorage, err, "%s%s", chat.ErrorMessage(classified), where)
	}
	return chat.Wrap(chat.CodeStorage, err,
		"Errand could not upgrade the database at %s; it was left as it was.%s", s.path, where)
}

// backUp copies the database (VACUUM INTO) to backups/ beside it, named
// after the time and its schema, and drops the oldest copies beyond
// keepBackups. It returns the copy's path.
func (s *Store) backUp(ctx context.Context, schema int) (string, error) {
	dir := filepath.Join(filepath.Dir(s.path), BackupDir)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", chat.Wrap(chat.CodeStorage, err,
			"Errand did not upgrade the database: it could not make the folder for a copy first (%s).", dir)
	}
	name := fmt.Sprintf("errand-%s-schema%d.db", time.Now().UTC().Format("20060102-150405.000"), schema)
	path := filepath.Join(dir, name)
	if _, err := s.db.ExecContext(ctx, "VACUUM INTO ?", path); err != nil {
		os.Remove(path)
		return "", chat.Wrap(chat.CodeStorage, err,
			"Errand did not upgrade the database: it could not copy it to %s first. Nothing was changed.", path)
	}
	pruneBackups(dir)
	return path, nil
}

// pruneBackups keeps the newest keepBackups copies in dir (their names
// sort by time).
func pruneBackups(dir string) {
	names, err := filepath.Glob(filepath.Join(dir, "errand-*-schema*.db"))
	if err != nil || len(names) <= keepBackups {
		return
	}
	sort.Strings(names)
	for _, old := range names[:len(names)-keepBackups] {
		if err := os.Remove(old); err != nil {
			slog.Warn("remove an old database copy", "path", old, "err", err)
		}
	}
}

// recordWriter notes this Errand's version in the file, for an older one
// that will have to refuse it.
func (s *Store) recordWriter(ctx context.Context) error {
	_, err := s.db.ExecContext(ctx,
		"INSERT INTO app_info (key, value) VALUES ('written_by', ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
		buildinfo.Version)
	return s.classify("open the database", err)
}

func lastVersion(ms []migration) int {
	if len(ms) == 0 {
		return 0
	}
	return ms[len(ms)-1].version
}

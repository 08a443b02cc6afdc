package store

import (
	"errors"
	"fmt"

	"github.com/errand-app/errand/backend/chat"
	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// classify turns the faults a person can do something about — a full
// disk, a read-only or locked database, a damaged file — into a
// CodeStorage error that says so, with the driver's error as its cause.
// Other errors, and errors already told as a *chat.Error, pass unchanged.
func (s *Store) classify(op string, err error) error {
	code, ok := sqliteCode(err)
	var told *chat.Error
	if !ok || errors.As(err, &told) {
		return err
	}
	var msg string
	switch code {
	case sqlite3.SQLITE_FULL:
		msg = "the disk is full"
	case sqlite3.SQLITE_READONLY:
		msg = "the database is read-only"
	case sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED:
		msg = "the database is locked by another program"
	case sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB:
		msg = "the database file is damaged"
	case sqlite3.SQLITE_IOERR, sqlite3.SQLITE_CANTOPEN, sqlite3.SQLITE_PERM:
		msg = "the database file cannot be read or written"
	default:
		return err
	}
	return chat.Wrap(chat.CodeStorage, fmt.Errorf("%s: %w", op, err),
		"Errand could not %s: %s (%s). Nothing was half-written; what you see is what is stored.", op, msg, s.path)
}

// sqliteCode is the primary result code of the SQLite error in err's
// chain (extended codes masked off), and false when there is none.
func sqliteCode(err error) (int, bool) {
	var se *sqlite.Error
	if !errors.As(err, &se) {
		return 0, false
	}
	return se.Code() & 0xff, true
}

// isReadOnly tells whether err is SQLite refusing to write a read-only
// database (file, folder or medium).
func isReadOnly(err error) bool {
	code, ok := sqliteCode(err)
	return ok && code == sqlite3.SQLITE_READONLY
}

// isUniqueViolation tells whether err is a UNIQUE constraint failing.
func isUniqueViolation(err error) bool {
	var se *sqlite.Error
	return errors.As(err, &se) && se.Code() == sqlite3.SQLITE_CONSTRAINT_UNIQUE
}

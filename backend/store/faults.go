package store

import (
	"errors"
	"fmt"

	"github.com/errand-app/errand/backend/chat"
	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// StorageError is a database failure told to a person. It keeps the
// driver's error in its chain for logs.
type StorageError struct {
	Err   *chat.Error
	cause error
}

func (e *StorageError) Error() string   { return e.Err.Message }
func (e *StorageError) Unwrap() []error { return []error{e.Err, e.cause} }

// classify turns the faults a person can do something about — a full
// disk, a read-only or locked database, a damaged file — into a
// CodeStorage error that says so. Other errors pass unchanged.
func (s *Store) classify(op string, err error) error {
	var se *sqlite.Error
	if err == nil || !errors.As(err, &se) {
		return err
	}
	var msg string
	switch se.Code() & 0xff {
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
	return &StorageError{
		Err:   chat.Errorf(chat.CodeStorage, "Errand could not %s: %s (%s). Nothing was half-written; what you see is what is stored.", op, msg, s.path),
		cause: fmt.Errorf("%s: %w", op, err),
	}
}

package store

import (
	"context"
	"log/slog"
	"sync"
	"time"
)

// walCopyAfter is how long the write-ahead log gathers writes before they
// are copied into the database file: at most one copy (and one sync of
// the file) a second while writes go on, none while nothing is written.
const walCopyAfter = time.Second

// walCopier copies the write-ahead log into the database file in the
// background, a second after a write: a passive checkpoint, on whichever
// of the pool's connections is free, outside any write and its turn.
//
// SQLite's own checkpoint (wal_autocheckpoint, off on every connection)
// runs inside the commit that takes the log past 1,000 pages, and that
// commit returns only once the pages are copied and the file synced. Every
// write queued behind it waited too: in a history of 1,000,000 messages on
// these machines the sync took 1.9 s, and a streaming reply stood still
// for as long. A passive checkpoint lets writers go on meanwhile.
type walCopier struct {
	wrote   chan struct{} // a write was committed (holds one)
	closing chan struct{}
	done    chan struct{}
	once    sync.Once
}

// copyWAL starts s's copier.
func (s *Store) copyWAL() {
	s.wal = &walCopier{wrote: make(chan struct{}, 1), closing: make(chan struct{}), done: make(chan struct{})}
	go s.wal.run(s)
}

// written tells the copier that a write was committed.
func (w *walCopier) written() {
	select {
	case w.wrote <- struct{}{}:
	default:
	}
}

func (w *walCopier) run(s *Store) {
	defer close(w.done)
	for {
		select {
		case <-w.closing:
			return
		case <-w.wrote:
		}
		select {
		case <-w.closing:
			return
		case <-time.After(walCopyAfter):
		}
		if _, err := s.db.ExecContext(context.Background(), "PRAGMA wal_checkpoint(PASSIVE)"); err != nil {
			slog.Warn("copying the write-ahead log into the database", "err", err)
		}
	}
}

// stop ends the copier, waiting for a copy under way. What it has not
// copied, SQLite copies when the database closes.
func (w *walCopier) stop() {
	w.once.Do(func() { close(w.closing) })
	<-w.done
}

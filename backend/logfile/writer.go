// Package logfile is Errand's log: a file in the data folder, capped in
// size and rotated, written through log/slog by a handler that scrubs API
// keys and other secrets out of every record.
//
// The log says why things failed — the causes behind a storage or
// internal error, why a task ended with an error — for a person who reports
// a problem. It never holds a key: the Redactor knows the keys Errand uses
// and the shapes secrets usually take (Bearer tokens, sk-… keys, key=…
// parameters, Authorization headers).
package logfile

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"sync"
)

// Where the log goes inside the data folder, and how much of it is kept.
const (
	Dir      = "logs"
	FileName = "errand.log"
	// MaxBytes is the size at which the log is rotated.
	MaxBytes = 1 << 20
	// Keep is how many rotated files are kept: errand.log.1 (the newest)
	// to errand.log.3.
	Keep = 3
)

// Path is the log file of the data folder dataDir.
func Path(dataDir string) string { return filepath.Join(dataDir, Dir, FileName) }

// Writer appends to a file and rotates it before it would pass maxBytes:
// the file becomes path.1, path.1 becomes path.2, and so on, and the
// oldest beyond keep is deleted. It is safe for concurrent use.
type Writer struct {
	path     string
	maxBytes int64
	keep     int

	mu   sync.Mutex
	f    *os.File
	size int64
}

// Open opens the log of the data folder dataDir, rotated at MaxBytes with
// Keep old files.
func Open(dataDir string) (*Writer, error) {
	return OpenWriter(Path(dataDir), MaxBytes, Keep)
}

// OpenWriter opens (creating it and its folder if needed) the file at
// path for appending, rotated before it would pass maxBytes, keeping keep
// old files. The file and folder are readable only by their owner.
func OpenWriter(path string, maxBytes int64, keep int) (*Writer, error) {
	if maxBytes <= 0 {
		return nil, fmt.Errorf("log %s: the size cap must be positive", path)
	}
	if keep < 0 {
		keep = 0
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("create the log folder: %w", err)
	}
	w := &Writer{path: path, maxBytes: maxBytes, keep: keep}
	if err := w.open(); err != nil {
		return nil, err
	}
	return w, nil
}

func (w *Writer) open() error {
	f, err := os.OpenFile(w.path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return fmt.Errorf("open the log: %w", err)
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return fmt.Errorf("open the log: %w", err)
	}
	w.f, w.size = f, fi.Size()
	return nil
}

// Write appends p, rotating first when p would take the file past its
// cap. A p larger than the cap on its own is cut to it (ending with a
// line break), so that no file ever grows past the cap.
func (w *Writer) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.f == nil {
		return 0, os.ErrClosed
	}
	n := len(p)
	if int64(len(p)) > w.maxBytes {
		cut := make([]byte, w.maxBytes)
		copy(cut, p)
		cut[len(cut)-1] = '\n'
		p = cut
	}
	if w.size > 0 && w.size+int64(len(p)) > w.maxBytes {
		if err := w.rotate(); err != nil {
			return 0, err
		}
	}
	written, err := w.f.Write(p)
	w.size += int64(written)
	if err != nil {
		return 0, err
	}
	return n, nil
}

// rotate moves the files one place along and starts an empty file. A
// step that fails (a file held open elsewhere, say) is passed over: the
// log goes on in whatever file it can open, past its cap if it must,
// rather than stop.
func (w *Writer) rotate() error {
	_ = w.f.Close()
	w.f = nil
	if w.keep == 0 {
		_ = os.Remove(w.path)
	} else {
		_ = os.Remove(w.old(w.keep))
		for i := w.keep - 1; i >= 1; i-- {
			_ = os.Rename(w.old(i), w.old(i+1))
		}
		_ = os.Rename(w.path, w.old(1))
	}
	return w.open()
}

// old is the name of the i-th rotated file.
func (w *Writer) old(i int) string { return w.path + "." + strconv.Itoa(i) }

// Close closes the file; later writes fail.
func (w *Writer) Close() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.f == nil {
		return nil
	}
	err := w.f.Close()
	w.f = nil
	return err
}

package checkpoint

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/errand-app/errand/backend/chat"
)

// Every read and write of a workspace file goes through the workspace's
// os.Root, as the tools' do, so that no link (planted by a command, say)
// leads a checkpoint, an undo or a redo outside it. Besides, a path one of
// whose folders is now a link (or not a folder) is never followed, even
// inside: it holds notAFile, which is a conflict.

// ws is a workspace opened for a checkpoint's reads and writes.
type ws struct {
	dir  string
	root *os.Root
}

func openWS(dir string) (*ws, error) {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, err
	}
	return &ws{dir: dir, root: root}, nil
}

func (w *ws) close() { _ = w.root.Close() }

// key names a file of the workspace in the stamps.
func (w *ws) key(rel string) string { return w.dir + "\x00" + rel }

// look returns the regular file at rel; otherwise no info, and the hash
// that stands for what is there ("" nothing, notAFile something else, or
// a folder on the way that is a link or not a folder).
func (w *ws) look(rel string) (fs.FileInfo, string, error) {
	parts := strings.Split(rel, "/")
	for i := 1; i < len(parts); i++ {
		info, err := w.root.Lstat(strings.Join(parts[:i], "/"))
		switch {
		case errors.Is(err, fs.ErrNotExist):
			return nil, "", nil
		case err != nil:
			return nil, "", err
		case !info.IsDir():
			return nil, notAFile, nil
		}
	}
	info, err := w.root.Lstat(rel)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, "", nil
	case err != nil:
		return nil, "", err
	case !info.Mode().IsRegular():
		return nil, notAFile, nil
	}
	return info, "", nil
}

// open opens the regular file look found at rel, refusing what was put in
// its place since.
func (w *ws) open(rel string, seen fs.FileInfo) (*os.File, error) {
	f, err := w.root.OpenFile(rel, os.O_RDONLY|openNoBlock, 0)
	if err != nil {
		return nil, err
	}
	if info, err := f.Stat(); err != nil || !os.SameFile(info, seen) {
		f.Close()
		return nil, errReplaced(rel)
	}
	return f, nil
}

func errReplaced(rel string) error {
	return chat.Errorf(chat.CodeConflict, "%s was replaced while Errand read it", chat.Quote(rel))
}

// clean is a workspace-relative path in slash form, refusing one that
// leaves the workspace.
func clean(rel string) (string, error) {
	c := path.Clean(filepath.ToSlash(rel))
	if !fs.ValidPath(c) || c == "." || !filepath.IsLocal(filepath.FromSlash(c)) {
		return "", chat.Errorf(chat.CodeInvalid, "the path %s is not inside the workspace", chat.Quote(rel))
	}
	return c, nil
}

// errTooBig refuses to keep a file larger than the checkpoints may hold.
func errTooBig(rel string, size, limit int64) error {
	return chat.Errorf(chat.CodeInvalid, "%s is %s, more than the %s the checkpoints may hold (Settings → Checkpoints)",
		chat.Quote(rel), megabytes(size), megabytes(limit))
}

func megabytes(n int64) string { return fmt.Sprintf("%.1f MB", float64(n)/(1<<20)) }

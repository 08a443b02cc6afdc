package tools

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
)

// Workspace is the folder a conversation's tools are confined to. Every
// path goes through an os.Root, so neither "..", nor an absolute path, nor a
// symlink that leads outside can reach another file.
type Workspace struct {
	dir  string
	root *os.Root
}

// OpenWorkspace opens dir (creating it if missing) as a workspace.
func OpenWorkspace(dir string) (*Workspace, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("workspace %s: %w", dir, err)
	}
	if err := os.MkdirAll(abs, 0o755); err != nil {
		return nil, fmt.Errorf("create workspace: %w", err)
	}
	root, err := os.OpenRoot(abs)
	if err != nil {
		return nil, fmt.Errorf("open workspace: %w", err)
	}
	return &Workspace{dir: abs, root: root}, nil
}

// Dir is the workspace's absolute path.
func (w *Workspace) Dir() string { return w.dir }

// Close releases the workspace.
func (w *Workspace) Close() error { return w.root.Close() }

// errOutside is the model-facing refusal of a path outside the workspace.
var errOutside = errors.New("is outside the workspace; use a path relative to the workspace folder, without \"..\"")

// clean turns a path the model gave into one relative to the workspace, or
// refuses it. "" and "." name the workspace itself.
func (w *Workspace) clean(p string) (string, error) {
	p = strings.TrimSpace(p)
	if p == "" {
		return ".", nil
	}
	if filepath.IsAbs(p) || path.IsAbs(p) || homeRelative(p) {
		// An absolute path that points inside the workspace is accepted.
		if rel, err := filepath.Rel(w.dir, p); err == nil && !escapes(filepath.ToSlash(rel)) && !filepath.IsAbs(rel) {
			return filepath.ToSlash(rel), nil
		}
		return "", fmt.Errorf("%q %w", p, errOutside)
	}
	c := path.Clean(filepath.ToSlash(p))
	if escapes(c) {
		return "", fmt.Errorf("%q %w", p, errOutside)
	}
	return c, nil
}

// homeRelative reports whether p is written like a path in a home folder
// ("~", "~/x", "~user/x"); "~notes.txt" is just a file name.
func homeRelative(p string) bool {
	if !strings.HasPrefix(p, "~") {
		return false
	}
	first, _, more := strings.Cut(filepath.ToSlash(p), "/")
	return first == "~" || more
}

// escapes reports whether a cleaned relative path climbs out of its root.
func escapes(rel string) bool { return rel == ".." || strings.HasPrefix(rel, "../") }

// notExist is a missing file, told to the model; errors.Is finds
// fs.ErrNotExist in it.
type notExist struct{ path string }

func (e notExist) Error() string        { return fmt.Sprintf("%q does not exist", e.path) }
func (e notExist) Is(target error) bool { return target == fs.ErrNotExist }

// explain rewrites an os.Root error for the model.
func (w *Workspace) explain(p string, err error) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, fs.ErrNotExist):
		return notExist{p}
	case strings.Contains(err.Error(), "escapes from parent"):
		return fmt.Errorf("%q %w (a symlink on the way leads outside, or to an absolute path)", p, errOutside)
	case errors.Is(err, fs.ErrPermission):
		return fmt.Errorf("%q: permission denied", p)
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return fmt.Errorf("%q: %v", p, pe.Err)
	}
	return fmt.Errorf("%q: %v", p, err)
}

// Stat describes a file in the workspace.
func (w *Workspace) Stat(p string) (fs.FileInfo, error) {
	c, err := w.clean(p)
	if err != nil {
		return nil, err
	}
	fi, err := w.root.Stat(c)
	return fi, w.explain(p, err)
}

// ReadFile reads a file of at most max bytes.
func (w *Workspace) ReadFile(p string, max int64) ([]byte, error) {
	fi, err := w.Stat(p)
	if err != nil {
		return nil, err
	}
	if fi.IsDir() {
		return nil, fmt.Errorf("%q is a folder; use list_files", p)
	}
	if fi.Size() > max {
		return nil, fmt.Errorf("%q is %d bytes, more than the %d this tool reads", p, fi.Size(), max)
	}
	c, _ := w.clean(p)
	b, err := w.root.ReadFile(c)
	return b, w.explain(p, err)
}

// WriteFile writes a file, creating its folders.
func (w *Workspace) WriteFile(p string, data []byte) error {
	c, err := w.clean(p)
	if err != nil {
		return err
	}
	if c == "." {
		return fmt.Errorf("a file path is needed")
	}
	if dir := path.Dir(c); dir != "." {
		if err := w.root.MkdirAll(dir, 0o755); err != nil {
			return w.explain(p, err)
		}
	}
	return w.explain(p, w.root.WriteFile(c, data, 0o644))
}

// FS is the workspace as a read-only, confined file system, and the
// cleaned name of p in it.
func (w *Workspace) FS(p string) (fs.FS, string, error) {
	c, err := w.clean(p)
	if err != nil {
		return nil, "", err
	}
	if _, err := w.root.Stat(c); err != nil {
		return nil, "", w.explain(p, err)
	}
	return w.root.FS(), c, nil
}

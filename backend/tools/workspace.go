package tools

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"sync"
)

// Workspace is the folder a conversation's tools are confined to. Every
// path goes through an os.Root, so neither "..", nor an absolute path, nor a
// symlink that leads outside can reach another file. Inside it, protected
// folders (Errand's own data) are off limits as well, and only regular files
// are read or written: a named pipe or a device would block or never end.
type Workspace struct {
	dir       string
	root      *os.Root
	protected []protectedDir
}

// protectedDir is a folder no tool may reach into.
type protectedDir struct {
	path string      // absolute, symlinks resolved
	info fs.FileInfo // to know it under another name; nil if it was missing
}

// OpenWorkspace opens dir (creating it if missing) as a workspace.
//
// No tool may read or change anything in the protected folders, named or
// reached through symlinks, even when the workspace contains them (a
// person's home folder holds Errand's data folder). A workspace inside a
// protected folder is confined to itself already: that folder adds nothing,
// unless it is the workspace itself, which is then wholly off limits.
func OpenWorkspace(dir string, protected ...string) (*Workspace, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("workspace %s: %w", dir, err)
	}
	if err := os.MkdirAll(abs, 0o755); err != nil {
		return nil, fmt.Errorf("create workspace: %w", err)
	}
	resolved, err := resolvePath(abs)
	if err != nil {
		return nil, fmt.Errorf("workspace %s: %w", dir, err)
	}
	var guarded []protectedDir
	for _, p := range protected {
		pd, err := newProtectedDir(p)
		if err != nil {
			return nil, fmt.Errorf("protected folder %s: %w", p, err)
		}
		if !pd.is(resolved) && pd.holds(resolved) {
			continue // the workspace is confined inside it already
		}
		guarded = append(guarded, pd)
	}
	root, err := os.OpenRoot(abs)
	if err != nil {
		return nil, fmt.Errorf("open workspace: %w", err)
	}
	return &Workspace{dir: abs, root: root, protected: guarded}, nil
}

func newProtectedDir(p string) (protectedDir, error) {
	abs, err := filepath.Abs(p)
	if err != nil {
		return protectedDir{}, err
	}
	abs = filepath.Clean(abs)
	resolved, err := resolvePath(abs)
	if err != nil {
		return protectedDir{}, err
	}
	pd := protectedDir{path: resolved}
	if fi, err := os.Stat(resolved); err == nil {
		pd.info = fi
	}
	return pd, nil
}

// holds reports whether resolved (a path with its symlinks resolved) is the
// protected folder or inside it. Besides the names, the folders on the way up are compared
// with the protected one itself, which finds it under another spelling (a
// file system that ignores case) or another mount.
func (pd protectedDir) holds(resolved string) bool {
	if rel, err := filepath.Rel(pd.path, resolved); err == nil && !filepath.IsAbs(rel) && !escapes(filepath.ToSlash(rel)) {
		return true
	}
	if pd.info == nil {
		return false
	}
	for d := resolved; ; {
		if fi, err := os.Stat(d); err == nil && os.SameFile(fi, pd.info) {
			return true
		}
		parent := filepath.Dir(d)
		if parent == d {
			return false
		}
		d = parent
	}
}

// is reports whether resolved is the protected folder itself.
func (pd protectedDir) is(resolved string) bool {
	if resolved == pd.path {
		return true
	}
	fi, err := os.Stat(resolved)
	return err == nil && pd.info != nil && os.SameFile(fi, pd.info)
}

// maxLinks bounds the symlinks followed in resolving one path.
const maxLinks = 40

// resolvePath is filepath.EvalSymlinks for an absolute path that may not
// exist yet: the part that exists is resolved, a dangling symlink is
// followed to where it points (that is where a write through it would go),
// and the missing rest is appended as it is. Like the system, it resolves
// a link before a ".." after it.
func resolvePath(p string) (string, error) {
	vol := filepath.VolumeName(p)
	sep := string(filepath.Separator)
	resolved := vol + sep
	todo := strings.Split(p[len(vol):], sep)
	for links := 0; len(todo) > 0; {
		name := todo[0]
		todo = todo[1:]
		switch name {
		case "", ".":
			continue
		case "..":
			resolved = filepath.Dir(resolved) // it holds no link
			continue
		}
		next := filepath.Join(resolved, name)
		fi, err := os.Lstat(next)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			resolved = next
			continue
		case err != nil:
			return "", err
		case fi.Mode()&fs.ModeSymlink == 0:
			resolved = next
			continue
		}
		if links++; links > maxLinks {
			return "", errors.New("too many symlinks")
		}
		target, err := os.Readlink(next)
		if err != nil {
			return "", err
		}
		if filepath.IsAbs(target) {
			v := filepath.VolumeName(target)
			resolved, target = v+sep, target[len(v):]
		}
		todo = append(strings.Split(target, sep), todo...)
	}
	return resolved, nil
}

// errProtected is the model-facing refusal of a path in a protected folder.
var errProtected = errors.New("is in Errand's own data folder, which the tools may not read or change")

// guard refuses the cleaned path c (p as the model wrote it) when it is, or
// leads through symlinks, into a protected folder.
func (w *Workspace) guard(p, c string) error {
	if len(w.protected) == 0 {
		return nil
	}
	resolved, err := resolvePath(filepath.Join(w.dir, filepath.FromSlash(c)))
	if err != nil {
		return fmt.Errorf("%q: cannot tell where it leads: %w", p, err)
	}
	for _, pd := range w.protected {
		if pd.holds(resolved) {
			return fmt.Errorf("%q %w", p, errProtected)
		}
	}
	return nil
}

// isProtected reports whether an entry met in a walk of the workspace is a
// protected folder. A walk follows no symlink, so an entry can only be in
// one by being it, or by being under one the walk would have skipped.
func (w *Workspace) isProtected(d fs.DirEntry) bool {
	if len(w.protected) == 0 || !d.IsDir() {
		return false
	}
	fi, err := d.Info()
	if err != nil {
		return false
	}
	for _, pd := range w.protected {
		if pd.info != nil && os.SameFile(fi, pd.info) {
			return true
		}
	}
	return false
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
	case escapesRoot(err):
		return fmt.Errorf("%q %w (a symlink on the way leads outside, or to an absolute path)", p, errOutside)
	case errors.Is(err, fs.ErrPermission):
		return fmt.Errorf("%q: permission denied", p)
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return fmt.Errorf("%q: %w", p, pe.Err)
	}
	return fmt.Errorf("%q: %w", p, err)
}

// errRootEscape is the error os.Root returns for a path that leads out
// of it, by "..", an absolute path or a symlink. The os package does not
// export it, so it is learned once, from a root asked for "..".
var errRootEscape = sync.OnceValue(func() error {
	r, err := os.OpenRoot(os.TempDir())
	if err != nil {
		return nil
	}
	defer r.Close()
	_, err = r.Stat("..")
	var pe *fs.PathError
	if !errors.As(err, &pe) {
		return nil
	}
	return pe.Err
})

// EscapesRoot tells whether err is an os.Root refusing a path that leads
// out of it (the checkpoints read workspaces through one too).
func EscapesRoot(err error) bool { return escapesRoot(err) }

// escapesRoot tells whether err is os.Root refusing a path that leads
// out of it.
func escapesRoot(err error) bool {
	sentinel := errRootEscape()
	return sentinel != nil && errors.Is(err, sentinel)
}

// Stat describes a file in the workspace.
func (w *Workspace) Stat(p string) (fs.FileInfo, error) {
	c, err := w.checked(p)
	if err != nil {
		return nil, err
	}
	fi, err := w.root.Stat(c)
	return fi, w.explain(p, err)
}

// checked is clean, then guard.
func (w *Workspace) checked(p string) (string, error) {
	c, err := w.clean(p)
	if err != nil {
		return "", err
	}
	return c, w.guard(p, c)
}

// real is the cleaned path c (p as the model wrote it) with the links on
// its way resolved, relative to the workspace: where a write to it lands,
// so that its checkpoint keeps that file. One that leads outside is
// refused before anything of it is read.
func (w *Workspace) real(p, c string) (string, error) {
	base, err := resolvePath(w.dir)
	if err != nil {
		return "", w.explain(p, err)
	}
	target, err := resolvePath(filepath.Join(w.dir, filepath.FromSlash(c)))
	if err != nil {
		return "", w.explain(p, err)
	}
	rel, err := filepath.Rel(base, target)
	if err != nil || filepath.IsAbs(rel) || escapes(filepath.ToSlash(rel)) {
		return "", fmt.Errorf("%q %w (a symlink on the way leads outside, or to an absolute path)", p, errOutside)
	}
	return filepath.ToSlash(rel), nil
}

// errFolder is a folder where a file was expected.
var errFolder = errors.New("is a folder")

// notRegular refuses what is not a regular file: reading a named pipe
// waits for a writer, and a device such as /dev/zero never ends.
func notRegular(p string, fi fs.FileInfo) error {
	switch m := fi.Mode(); {
	case m.IsRegular():
		return nil
	case m.IsDir():
		return fmt.Errorf("%q %w", p, errFolder)
	default:
		return fmt.Errorf("%q is a %s, not a regular file", p, specialKind(m))
	}
}

// openFile opens the cleaned path c (p as the model wrote it) if it is a
// regular file, and says what it is otherwise. It looks before it opens,
// so no device is opened at all; and since what it looked at may have been
// replaced meanwhile, it opens without waiting (a named pipe would block)
// and looks again at what it opened.
func (w *Workspace) openFile(p, c string, flag int, perm fs.FileMode) (*os.File, fs.FileInfo, error) {
	if fi, err := w.root.Stat(c); err == nil {
		if err := notRegular(p, fi); err != nil {
			return nil, nil, err
		}
	} else if flag&os.O_CREATE == 0 || !errors.Is(err, fs.ErrNotExist) {
		return nil, nil, w.explain(p, err)
	}
	f, err := w.root.OpenFile(c, flag|openNoBlock, perm)
	if err != nil {
		return nil, nil, w.explain(p, err)
	}
	fi, err := f.Stat()
	if err == nil {
		err = notRegular(p, fi)
	} else {
		err = w.explain(p, err)
	}
	if err != nil {
		_ = f.Close()
		return nil, nil, err
	}
	return f, fi, nil
}

// ReadFile reads a file of at most max bytes.
func (w *Workspace) ReadFile(p string, max int64) ([]byte, error) {
	c, err := w.checked(p)
	if err != nil {
		return nil, err
	}
	return w.readFile(p, c, max)
}

// readFile reads the cleaned path c (p as the model wrote it), a regular
// file of at most max bytes; no more than that is ever read.
func (w *Workspace) readFile(p, c string, max int64) ([]byte, error) {
	f, fi, err := w.openFile(p, c, os.O_RDONLY, 0)
	if errors.Is(err, errFolder) {
		return nil, fmt.Errorf("%q is a folder; use list_files", p)
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if fi.Size() > max {
		return nil, fmt.Errorf("%q is %d bytes, more than the %d this tool reads", p, fi.Size(), max)
	}
	b, err := io.ReadAll(io.LimitReader(f, max+1))
	if err != nil {
		return nil, w.explain(p, err)
	}
	if int64(len(b)) > max {
		return nil, fmt.Errorf("%q is more than the %d bytes this tool reads", p, max)
	}
	return b, nil
}

// WriteFile writes a regular file, creating it and its folders.
func (w *Workspace) WriteFile(p string, data []byte) error {
	c, err := w.checked(p)
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
	f, _, err := w.openFile(p, c, os.O_WRONLY|os.O_CREATE, 0o644)
	if err != nil {
		return err
	}
	err = f.Truncate(0)
	if err == nil {
		_, err = f.Write(data)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return w.explain(p, err)
}

// FS is the workspace as a read-only, confined file system, and the
// cleaned name of p in it. A walk of it must skip what isProtected says.
func (w *Workspace) FS(p string) (fs.FS, string, error) {
	c, err := w.checked(p)
	if err != nil {
		return nil, "", err
	}
	if _, err := w.root.Stat(c); err != nil {
		return nil, "", w.explain(p, err)
	}
	return w.root.FS(), c, nil
}

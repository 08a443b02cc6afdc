package tools

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const secret = "TOP-SECRET-d41d8cd9"

// escapeFixture is a workspace at base/ws with a secret file next to it
// (base/secret.txt, reachable by "..") and another in an unrelated
// temporary folder (reachable only through symlinks in the workspace).
type escapeFixture struct {
	ws      *Workspace
	env     Env
	dir     string // the workspace
	base    string // its parent
	outside string // an unrelated folder
}

func newEscapeFixture(t *testing.T) *escapeFixture {
	t.Helper()
	base := t.TempDir()
	outside := t.TempDir()
	dir := filepath.Join(base, "ws")
	w, err := OpenWorkspace(dir)
	require.NoError(t, err)
	t.Cleanup(func() { _ = w.Close() })

	put(t, base, "secret.txt", secret+" next door\n")
	put(t, base, "ws-evil/secret.txt", secret+" in a sibling with the same prefix\n")
	put(t, outside, "outside-secret.txt", secret+" far away\n")
	put(t, outside, "deeper/outside-nested.txt", secret+" deeper\n")

	put(t, dir, "real.txt", "inside text\n")
	put(t, dir, "sub/inner.txt", "inner text\n")
	link := func(target, name string) {
		require.NoError(t, os.Symlink(target, filepath.Join(dir, name)))
	}
	link(filepath.Join(outside, "outside-secret.txt"), "leak.txt") // file, absolute, outside
	link("../secret.txt", "leak-rel.txt")                          // file, relative, outside
	link(outside, "leakdir")                                       // folder, outside
	link(filepath.Join(outside, "not-yet.txt"), "dangling.txt")    // missing file, outside
	link("real.txt", "inlink.txt")                                 // file, inside
	link("sub", "inlinkdir")                                       // folder, inside
	link("../ws/real.txt", "roundtrip.txt")                        // leaves and re-enters
	return &escapeFixture{ws: w, env: Env{Workspace: w}, dir: dir, base: base, outside: outside}
}

// outsideState is everything outside the workspace that a test must leave
// alone.
func (f *escapeFixture) outsideState(t *testing.T) map[string]string {
	t.Helper()
	s := snapshot(t, f.outside)
	for k, v := range snapshot(t, f.base) {
		if k == "ws/" || strings.HasPrefix(k, "ws/") {
			continue
		}
		s["base:"+k] = v
	}
	return s
}

func assertRefusedOutside(t *testing.T, res Result, err error, what string) {
	t.Helper()
	require.NoError(t, err, what)
	assert.True(t, res.IsError, "%s: must be refused, got %q", what, res.Content)
	assert.Contains(t, res.Content, "outside the workspace", what)
	assert.NotContains(t, res.Content, secret, what)
}

func TestWorkspaceEscapesAreRefused(t *testing.T) {
	f := newEscapeFixture(t)
	before := f.outsideState(t)

	paths := []string{
		"../secret.txt",
		"..",
		"../",
		"a/../../secret.txt",
		"sub/../../secret.txt",
		"./../secret.txt",
		"sub/../sub/../../secret.txt",
		"/etc/passwd",
		"/",
		filepath.Join(f.base, "secret.txt"),
		filepath.Join(f.base, "ws-evil", "secret.txt"), // shares the workspace's prefix
		filepath.Join(f.dir, "..", "secret.txt"),
		filepath.Join(f.outside, "outside-secret.txt"),
		"~/x",
		"~",
		"~root/.bashrc",
		"  ../secret.txt  ",
	}
	for _, p := range paths {
		t.Run(p, func(t *testing.T) {
			res, err := call(t, ReadFile{}, f.env, map[string]any{"path": p})
			assertRefusedOutside(t, res, err, "read_file")
			// Refused by the path check itself, not only by os.Root.
			assert.NotContains(t, res.Content, "symlink", "no symlink is involved")
			assert.Contains(t, res.Content, "use a path relative to the workspace folder")

			res, err = call(t, ListFiles{}, f.env, map[string]any{"path": p, "recursive": true})
			assertRefusedOutside(t, res, err, "list_files")

			res, err = call(t, SearchText{}, f.env, map[string]any{"pattern": "SECRET", "path": p})
			assertRefusedOutside(t, res, err, "search_text")

			res, err = call(t, WriteFile{}, f.env, map[string]any{"path": p, "content": "pwned"})
			assertRefusedOutside(t, res, err, "write_file")

			res, err = call(t, EditFile{}, f.env, map[string]any{"path": p, "old_text": "TOP", "new_text": "pwned"})
			assertRefusedOutside(t, res, err, "edit_file")

			_, err = preview(t, WriteFile{}, f.env, map[string]any{"path": p, "content": "pwned"})
			require.Error(t, err)
			assert.Contains(t, err.Error(), "outside the workspace")

			_, err = preview(t, EditFile{}, f.env, map[string]any{"path": p, "old_text": "TOP", "new_text": "pwned"})
			require.Error(t, err)
			assert.Contains(t, err.Error(), "outside the workspace")

			// The Workspace methods themselves refuse too.
			_, err = f.ws.Stat(p)
			assert.ErrorContains(t, err, "outside the workspace")
			_, err = f.ws.ReadFile(p, MaxReadBytes)
			assert.ErrorContains(t, err, "outside the workspace")
			assert.ErrorContains(t, f.ws.WriteFile(p, []byte("pwned")), "outside the workspace")
			_, _, err = f.ws.FS(p)
			assert.ErrorContains(t, err, "outside the workspace")
		})
	}
	assert.Equal(t, before, f.outsideState(t), "nothing outside the workspace changed")
	_, err := os.Stat(filepath.Join(f.base, "pwned"))
	assert.True(t, os.IsNotExist(err))
}

func TestWorkspaceEscapeNewFilesAreNotCreated(t *testing.T) {
	f := newEscapeFixture(t)
	before := f.outsideState(t)
	for _, p := range []string{
		"../new.txt",
		"../newdir/new.txt",
		"a/../../new.txt",
		filepath.Join(f.base, "new.txt"),
		filepath.Join(f.outside, "new.txt"),
		"leakdir/new.txt",
		"leakdir/newdir/new.txt",
		"leakdir/deeper/new.txt",
		"dangling.txt",
	} {
		res, err := call(t, WriteFile{}, f.env, map[string]any{"path": p, "content": "pwned"})
		assertRefusedOutside(t, res, err, "write_file "+p)
	}
	assert.Equal(t, before, f.outsideState(t), "no file or folder appeared outside the workspace")
}

func TestWorkspaceSymlinksLeadingOutsideAreRefused(t *testing.T) {
	f := newEscapeFixture(t)
	before := f.outsideState(t)

	for _, p := range []string{"leak.txt", "leak-rel.txt", "leakdir/outside-secret.txt", "leakdir/deeper/outside-nested.txt", "dangling.txt"} {
		t.Run(p, func(t *testing.T) {
			res, err := call(t, ReadFile{}, f.env, map[string]any{"path": p})
			assertRefusedOutside(t, res, err, "read through "+p)
			if p != "dangling.txt" {
				assert.Contains(t, res.Content, "symlink", "the message says why")
			}

			res, err = call(t, WriteFile{}, f.env, map[string]any{"path": p, "content": "pwned"})
			assertRefusedOutside(t, res, err, "write through "+p)

			res, err = call(t, EditFile{}, f.env, map[string]any{"path": p, "old_text": "TOP", "new_text": "pwned"})
			assertRefusedOutside(t, res, err, "edit through "+p)

			res, err = call(t, SearchText{}, f.env, map[string]any{"pattern": "SECRET", "path": p})
			assertRefusedOutside(t, res, err, "search through "+p)
		})
	}

	for _, p := range []string{"leakdir", "leakdir/", "leakdir/deeper", "./leakdir"} {
		res, err := call(t, ListFiles{}, f.env, map[string]any{"path": p, "recursive": true})
		assertRefusedOutside(t, res, err, "list into "+p)
		assert.NotContains(t, res.Content, "outside-secret")

		res, err = call(t, SearchText{}, f.env, map[string]any{"pattern": "SECRET", "path": p})
		assertRefusedOutside(t, res, err, "search into "+p)
	}
	assert.Equal(t, before, f.outsideState(t), "nothing outside the workspace changed")
}

func TestWorkspaceWalksDoNotFollowSymlinksOutside(t *testing.T) {
	f := newEscapeFixture(t)

	res, err := call(t, ListFiles{}, f.env, map[string]any{"recursive": true})
	require.NoError(t, err)
	require.False(t, res.IsError, res.Content)
	assert.Contains(t, res.Content, "leakdir (symlink)")
	assert.Contains(t, res.Content, "leak.txt (symlink)")
	assert.Contains(t, res.Content, "real.txt (12 bytes)")
	assert.Contains(t, res.Content, "sub/inner.txt (11 bytes)")
	assert.NotContains(t, res.Content, "outside-secret", "the symlinked folder is not entered")
	assert.NotContains(t, res.Content, "outside-nested")

	res, err = call(t, SearchText{}, f.env, map[string]any{"pattern": "SECRET"})
	require.NoError(t, err)
	assert.Equal(t, "No matches.", res.Content, "no file outside the workspace is searched")

	res, err = call(t, SearchText{}, f.env, map[string]any{"pattern": "text"})
	require.NoError(t, err)
	assert.Contains(t, res.Content, "real.txt:1: inside text")
	assert.Contains(t, res.Content, "sub/inner.txt:1: inner text")
	assert.NotContains(t, res.Content, secret)
}

func TestWorkspaceSymlinksInsideAreAllowed(t *testing.T) {
	f := newEscapeFixture(t)

	res, err := call(t, ReadFile{}, f.env, map[string]any{"path": "inlink.txt"})
	require.NoError(t, err)
	assert.False(t, res.IsError, res.Content)
	assert.Equal(t, "inside text\n", res.Content)

	// A link that climbs out of the workspace and back in ("../ws/real.txt")
	// is refused: os.Root never lets a link step above the root, even to
	// come back. Conservative, and nothing leaks.
	res, err = call(t, ReadFile{}, f.env, map[string]any{"path": "roundtrip.txt"})
	assertRefusedOutside(t, res, err, "roundtrip link")

	res, err = call(t, ListFiles{}, f.env, map[string]any{"path": "inlinkdir"})
	require.NoError(t, err)
	assert.False(t, res.IsError, res.Content)
	assert.Contains(t, res.Content, "inner.txt (11 bytes)")

	res, err = call(t, SearchText{}, f.env, map[string]any{"pattern": "inner", "path": "inlinkdir"})
	require.NoError(t, err)
	assert.Contains(t, res.Content, "inlinkdir/inner.txt:1: inner text")

	res, err = call(t, ReadFile{}, f.env, map[string]any{"path": "inlinkdir/inner.txt"})
	require.NoError(t, err)
	assert.Equal(t, "inner text\n", res.Content)

	// Writing through an inside link changes its target.
	res, err = call(t, EditFile{}, f.env, map[string]any{"path": "inlink.txt", "old_text": "inside", "new_text": "edited"})
	require.NoError(t, err)
	require.False(t, res.IsError, res.Content)
	assert.Equal(t, "edited text\n", contents(t, filepath.Join(f.dir, "real.txt")))

	res, err = call(t, WriteFile{}, f.env, map[string]any{"path": "inlinkdir/new.txt", "content": "n"})
	require.NoError(t, err)
	require.False(t, res.IsError, res.Content)
	assert.Equal(t, "n", contents(t, filepath.Join(f.dir, "sub", "new.txt")))
}

func TestWorkspaceAcceptsAbsolutePathsInside(t *testing.T) {
	f := newEscapeFixture(t)

	res, err := call(t, ReadFile{}, f.env, map[string]any{"path": filepath.Join(f.dir, "real.txt")})
	require.NoError(t, err)
	assert.False(t, res.IsError, res.Content)
	assert.Equal(t, "inside text\n", res.Content)

	res, err = call(t, ReadFile{}, f.env, map[string]any{"path": filepath.Join(f.dir, "sub", "..", "real.txt")})
	require.NoError(t, err)
	assert.Equal(t, "inside text\n", res.Content)

	res, err = call(t, ListFiles{}, f.env, map[string]any{"path": f.dir})
	require.NoError(t, err)
	assert.False(t, res.IsError, res.Content)
	assert.Contains(t, res.Content, "real.txt (12 bytes)")

	abs := filepath.Join(f.dir, "made", "by", "abs.txt")
	res, err = call(t, WriteFile{}, f.env, map[string]any{"path": abs, "content": "abs"})
	require.NoError(t, err)
	require.False(t, res.IsError, res.Content)
	assert.Equal(t, "abs", contents(t, abs))
}

func TestWorkspaceRelativePathsThatStayInside(t *testing.T) {
	f := newEscapeFixture(t)
	for _, p := range []string{"real.txt", "./real.txt", "sub/../real.txt", "sub/./../real.txt", " real.txt ", "sub//../real.txt"} {
		res, err := call(t, ReadFile{}, f.env, map[string]any{"path": p})
		require.NoError(t, err, p)
		assert.False(t, res.IsError, "%s: %s", p, res.Content)
		assert.Equal(t, "inside text\n", res.Content, p)
	}
	// A name that merely starts with two dots is not a parent reference.
	put(t, f.dir, "..notes", "dots\n")
	res, err := call(t, ReadFile{}, f.env, map[string]any{"path": "..notes"})
	require.NoError(t, err)
	assert.Equal(t, "dots\n", res.Content)
}

func TestOpenWorkspaceCreatesTheFolder(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "a", "b", "ws")
	w, err := OpenWorkspace(dir)
	require.NoError(t, err)
	defer w.Close()
	assert.Equal(t, dir, w.Dir())
	fi, err := os.Stat(dir)
	require.NoError(t, err)
	assert.True(t, fi.IsDir())

	fi, err = w.Stat("")
	require.NoError(t, err)
	assert.True(t, fi.IsDir(), `"" is the workspace itself`)
	fi, err = w.Stat(".")
	require.NoError(t, err)
	assert.True(t, fi.IsDir())
}

func TestOpenWorkspaceMakesRelativeDirsAbsolute(t *testing.T) {
	base := t.TempDir()
	t.Chdir(base)
	w, err := OpenWorkspace("rel-ws")
	require.NoError(t, err)
	defer w.Close()
	assert.True(t, filepath.IsAbs(w.Dir()))
	assert.Equal(t, filepath.Join(base, "rel-ws"), w.Dir())
}

func TestOpenWorkspaceOnAFileFails(t *testing.T) {
	p := put(t, t.TempDir(), "file", "x")
	_, err := OpenWorkspace(p)
	require.Error(t, err)
}

func TestWorkspaceWriteFileNeedsAFilePath(t *testing.T) {
	w, _ := newWorkspace(t)
	for _, p := range []string{"", ".", "  ", "sub/.."} {
		err := w.WriteFile(p, []byte("x"))
		require.Error(t, err, "%q", p)
		assert.Contains(t, err.Error(), "a file path is needed", "%q", p)
	}
}

func TestWorkspaceMessages(t *testing.T) {
	w, _ := newWorkspace(t)
	_, err := w.Stat("missing.txt")
	require.EqualError(t, err, `"missing.txt" does not exist`)

	_, err = w.ReadFile("missing/deeper.txt", 10)
	require.EqualError(t, err, `"missing/deeper.txt" does not exist`)

	put(t, w.Dir(), "big.txt", "0123456789")
	_, err = w.ReadFile("big.txt", 9)
	require.EqualError(t, err, `"big.txt" is 10 bytes, more than the 9 this tool reads`)
	b, err := w.ReadFile("big.txt", 10)
	require.NoError(t, err)
	assert.Equal(t, "0123456789", string(b))

	_, err = w.ReadFile(".", 10)
	require.ErrorContains(t, err, "is a folder")

	// A file where a folder is expected.
	err = w.WriteFile("big.txt/child.txt", []byte("x"))
	require.Error(t, err)
	assert.Contains(t, err.Error(), `"big.txt/child.txt"`)
	assert.Equal(t, "0123456789", contents(t, filepath.Join(w.Dir(), "big.txt")))
}

func TestWorkspacePermissionDenied(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root ignores file permissions")
	}
	w, _ := newWorkspace(t)
	p := put(t, w.Dir(), "locked.txt", "x")
	require.NoError(t, os.Chmod(p, 0))
	_, err := w.ReadFile("locked.txt", 10)
	require.EqualError(t, err, `"locked.txt": permission denied`)
}

func TestWorkspaceClosedIsAnError(t *testing.T) {
	w, err := OpenWorkspace(t.TempDir())
	require.NoError(t, err)
	put(t, w.Dir(), "a.txt", "x")
	require.NoError(t, w.Close())
	_, err = w.ReadFile("a.txt", 10)
	assert.Error(t, err)
	res, err := ReadFile{}.Run(context.Background(), Env{Workspace: w}, mustJSON(t, map[string]any{"path": "a.txt"}))
	require.NoError(t, err)
	assert.True(t, res.IsError)
}

func TestRegressionFileNamesStartingWithTildeAreRefused(t *testing.T) {
	w, env := newWorkspace(t)
	put(t, w.Dir(), "~notes.txt", "mine\n")
	res, err := call(t, ReadFile{}, env, map[string]any{"path": "~notes.txt"})
	require.NoError(t, err)
	assert.False(t, res.IsError, res.Content)
	assert.Equal(t, "mine\n", res.Content)
}

func TestRegressionAbsolutePathToDotDotNameInsideIsRefused(t *testing.T) {
	w, env := newWorkspace(t)
	put(t, w.Dir(), "..notes", "dots\n")
	res, err := call(t, ReadFile{}, env, map[string]any{"path": filepath.Join(w.Dir(), "..notes")})
	require.NoError(t, err)
	assert.False(t, res.IsError, res.Content)
	assert.Equal(t, "dots\n", res.Content)
}

func TestAbsoluteSymlinksAreNotFollowedAndSaySo(t *testing.T) {
	// os.Root follows no symlink with an absolute target, even one that
	// lands inside the workspace: the refusal must say so truthfully.
	w, env := newWorkspace(t)
	put(t, w.Dir(), "real.txt", "inside\n")
	require.NoError(t, os.Symlink(filepath.Join(w.Dir(), "real.txt"), filepath.Join(w.Dir(), "abs.txt")))
	res, err := call(t, ReadFile{}, env, map[string]any{"path": "abs.txt"})
	require.NoError(t, err)
	assert.True(t, res.IsError)
	assert.Contains(t, res.Content, "or to an absolute path")
	assert.NotContains(t, res.Content, "inside\n")
}

// A symlink that leads out is told by os.Root's own error, not its words,
// and the refusal says a symlink did it.
func TestASymlinkOutIsToldAsSuch(t *testing.T) {
	f := newEscapeFixture(t)
	for _, p := range []string{"leak.txt", "leak-rel.txt", "leakdir/deeper/outside-nested.txt"} {
		_, err := f.ws.ReadFile(p, 1<<20)
		require.Error(t, err, p)
		assert.ErrorIs(t, err, errOutside, p)
		assert.Contains(t, err.Error(), "a symlink on the way leads outside", p)
	}
	assert.False(t, escapesRoot(errors.New("path escapes from parent")), "the words alone are not the error")
	assert.False(t, escapesRoot(fs.ErrNotExist))
}

package tools

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const dataSecret = "DATA-SECRET-8f14e45f"

// homeFixture is a workspace that is a person's home folder, with Errand's
// data folder inside it: home/.config/Errand holding the database and a
// key file, both with a secret in them.
type homeFixture struct {
	env  Env
	home string
	data string
}

func newHomeFixture(t *testing.T) *homeFixture {
	t.Helper()
	home := t.TempDir()
	data := filepath.Join(home, ".config", "Errand")
	put(t, data, "errand.db", "SQLite format 3 "+dataSecret+"\n")
	key := put(t, data, "key", dataSecret+" key\n")
	require.NoError(t, os.Chmod(key, 0o600))
	put(t, data, "workspaces/c1/notes.txt", "a default workspace\n")
	put(t, home, "notes.txt", "my notes\n")
	put(t, home, ".config/Errand-notes/x.txt", "a sibling with the same prefix\n")
	put(t, home, ".config/other/settings.txt", "other app\n")

	link := func(target, name string) {
		require.NoError(t, os.Symlink(target, filepath.Join(home, name)))
	}
	link(".config/Errand/errand.db", "db-link")      // a file in the data folder
	link(".config/Errand", "data-link")              // the data folder itself
	link(".config", "cfg")                           // a folder above it
	link(".config/Errand/planted.txt", "plant-link") // dangling, into the data folder

	w, err := OpenWorkspace(home, data)
	require.NoError(t, err)
	t.Cleanup(func() { _ = w.Close() })
	return &homeFixture{env: Env{Workspace: w}, home: home, data: data}
}

func assertProtected(t *testing.T, res Result, err error, what string) {
	t.Helper()
	require.NoError(t, err, what)
	assert.True(t, res.IsError, "%s: must be refused, got %q", what, res.Content)
	assert.Contains(t, res.Content, "Errand's own data folder", what)
	assert.NotContains(t, res.Content, dataSecret, what)
}

func TestDataFolderInsideTheWorkspaceIsOffLimits(t *testing.T) {
	f := newHomeFixture(t)
	before := snapshot(t, f.data)

	for _, p := range []string{
		".config/Errand/errand.db",
		".config/Errand/key",
		"./.config/Errand/key",
		".config/other/../Errand/errand.db",
		filepath.Join(f.data, "errand.db"),
		".config/Errand/workspaces/c1/notes.txt",
		"db-link",
		"data-link/key",
		"cfg/Errand/errand.db",
	} {
		t.Run(p, func(t *testing.T) {
			res, err := call(t, ReadFile{}, f.env, map[string]any{"path": p})
			assertProtected(t, res, err, "read_file")

			res, err = call(t, SearchText{}, f.env, map[string]any{"pattern": "SECRET", "path": p})
			assertProtected(t, res, err, "search_text")

			res, err = call(t, WriteFile{}, f.env, map[string]any{"path": p, "content": "pwned"})
			assertProtected(t, res, err, "write_file")

			res, err = call(t, EditFile{}, f.env, map[string]any{"path": p, "old_text": "SECRET", "new_text": "pwned"})
			assertProtected(t, res, err, "edit_file")

			_, err = preview(t, WriteFile{}, f.env, map[string]any{"path": p, "content": "pwned"})
			assert.ErrorContains(t, err, "Errand's own data folder")
			_, err = preview(t, EditFile{}, f.env, map[string]any{"path": p, "old_text": "SECRET", "new_text": "pwned"})
			assert.ErrorContains(t, err, "Errand's own data folder")

			_, err = f.env.Workspace.Stat(p)
			assert.ErrorContains(t, err, "Errand's own data folder")
		})
	}

	for _, p := range []string{".config/Errand", ".config/Errand/", "data-link", "cfg/Errand", ".config/Errand/workspaces"} {
		res, err := call(t, ListFiles{}, f.env, map[string]any{"path": p, "recursive": true})
		assertProtected(t, res, err, "list_files "+p)
		res, err = call(t, SearchText{}, f.env, map[string]any{"pattern": "SECRET", "path": p})
		assertProtected(t, res, err, "search_text "+p)
	}

	// New files are not planted there either, by name or through a link.
	for _, p := range []string{".config/Errand/planted.txt", ".config/Errand/new/planted.txt", "plant-link", "data-link/planted.txt"} {
		res, err := call(t, WriteFile{}, f.env, map[string]any{"path": p, "content": "planted"})
		assertProtected(t, res, err, "write_file "+p)
	}
	assert.Equal(t, before, snapshot(t, f.data), "nothing in the data folder changed")
}

func TestDataFolderIsLeftOutOfListingsAndSearches(t *testing.T) {
	f := newHomeFixture(t)

	res, err := call(t, ListFiles{}, f.env, map[string]any{"recursive": true})
	require.NoError(t, err)
	require.False(t, res.IsError, res.Content)
	assert.Contains(t, res.Content, ".config/Errand/ (Errand's own data folder: off limits)\n")
	assert.Contains(t, res.Content, ".config/Errand-notes/x.txt")
	assert.Contains(t, res.Content, "notes.txt (9 bytes)")
	for _, hidden := range []string{"errand.db", "Errand/key", "workspaces"} {
		assert.NotContains(t, res.Content, hidden)
	}

	res, err = call(t, ListFiles{}, f.env, map[string]any{"path": "cfg", "recursive": true})
	require.NoError(t, err)
	assert.Contains(t, res.Content, "Errand/ (Errand's own data folder: off limits)", "found through a linked folder too")
	assert.NotContains(t, res.Content, "errand.db")

	res, err = call(t, ListFiles{}, f.env, map[string]any{"path": ".config"})
	require.NoError(t, err)
	assert.Contains(t, res.Content, "Errand/ (Errand's own data folder: off limits)")

	for _, p := range []string{"", ".config", "cfg"} {
		res, err = call(t, SearchText{}, f.env, map[string]any{"pattern": "SECRET", "path": p})
		require.NoError(t, err, p)
		assert.False(t, res.IsError, res.Content)
		assert.NotContains(t, res.Content, dataSecret, p)
		assert.True(t, strings.HasPrefix(res.Content, "No matches.\n"), "%q: %s", p, res.Content)
		assert.Contains(t, res.Content, "data folder was not searched", p)
	}

	res, err = call(t, SearchText{}, f.env, map[string]any{"pattern": "notes"})
	require.NoError(t, err)
	assert.Contains(t, res.Content, "notes.txt:1: my notes")
	assert.NotContains(t, res.Content, "default workspace")
}

func TestTheRestOfAWorkspaceThatHoldsTheDataFolderWorks(t *testing.T) {
	f := newHomeFixture(t)

	for p, want := range map[string]string{
		"notes.txt":                  "my notes\n",
		".config/Errand-notes/x.txt": "a sibling with the same prefix\n",
		"cfg/other/settings.txt":     "other app\n",
	} {
		res, err := call(t, ReadFile{}, f.env, map[string]any{"path": p})
		require.NoError(t, err, p)
		assert.False(t, res.IsError, "%s: %s", p, res.Content)
		assert.Equal(t, want, res.Content, p)
	}
	res, err := call(t, WriteFile{}, f.env, map[string]any{"path": ".config/new-app/conf.txt", "content": "x"})
	require.NoError(t, err)
	require.False(t, res.IsError, res.Content)
	assert.Equal(t, "x", contents(t, filepath.Join(f.home, ".config", "new-app", "conf.txt")))

	res, err = call(t, EditFile{}, f.env, map[string]any{"path": "notes.txt", "old_text": "my", "new_text": "our"})
	require.NoError(t, err)
	require.False(t, res.IsError, res.Content)
	assert.Equal(t, "our notes\n", contents(t, filepath.Join(f.home, "notes.txt")))
}

func TestDataFolderNamedThroughASymlinkIsStillProtected(t *testing.T) {
	home := t.TempDir()
	data := filepath.Join(home, ".config", "Errand")
	put(t, data, "errand.db", dataSecret)
	alias := filepath.Join(t.TempDir(), "home-alias")
	require.NoError(t, os.Symlink(home, alias))

	for _, c := range []struct{ ws, data string }{
		{home, filepath.Join(alias, ".config", "Errand")},
		{alias, data},
	} {
		w, err := OpenWorkspace(c.ws, c.data)
		require.NoError(t, err)
		res, err := call(t, ReadFile{}, Env{Workspace: w}, map[string]any{"path": ".config/Errand/errand.db"})
		assertProtected(t, res, err, c.ws+" with "+c.data)
		require.NoError(t, w.Close())
	}
}

func TestDefaultWorkspaceInsideTheDataFolderWorks(t *testing.T) {
	data := t.TempDir()
	put(t, data, "errand.db", dataSecret)
	w, err := OpenWorkspace(filepath.Join(data, "workspaces", "c1"), data)
	require.NoError(t, err)
	defer w.Close()
	env := Env{Workspace: w}

	res, err := call(t, WriteFile{}, env, map[string]any{"path": "sub/a.txt", "content": "hello\n"})
	require.NoError(t, err)
	require.False(t, res.IsError, res.Content)
	res, err = call(t, ReadFile{}, env, map[string]any{"path": "sub/a.txt"})
	require.NoError(t, err)
	assert.Equal(t, "hello\n", res.Content)
	res, err = call(t, EditFile{}, env, map[string]any{"path": "sub/a.txt", "old_text": "hello", "new_text": "bye"})
	require.NoError(t, err)
	require.False(t, res.IsError, res.Content)
	res, err = call(t, ListFiles{}, env, map[string]any{"recursive": true})
	require.NoError(t, err)
	assert.Equal(t, "sub/\nsub/a.txt (4 bytes)\n", res.Content)
	res, err = call(t, SearchText{}, env, map[string]any{"pattern": "bye"})
	require.NoError(t, err)
	assert.Equal(t, "sub/a.txt:1: bye\n", res.Content)

	// The data folder around it stays out of reach, as all outside does.
	res, err = call(t, ReadFile{}, env, map[string]any{"path": "../../errand.db"})
	assertRefusedOutside(t, res, err, "the database from a default workspace")
	assert.NotContains(t, res.Content, dataSecret)
}

func TestTheDataFolderAsTheWorkspaceIsWhollyOffLimits(t *testing.T) {
	data := t.TempDir()
	put(t, data, "errand.db", dataSecret)
	w, err := OpenWorkspace(data, data)
	require.NoError(t, err)
	defer w.Close()
	env := Env{Workspace: w}

	res, err := call(t, ReadFile{}, env, map[string]any{"path": "errand.db"})
	assertProtected(t, res, err, "read_file")
	res, err = call(t, ListFiles{}, env, map[string]any{})
	assertProtected(t, res, err, "list_files")
	res, err = call(t, SearchText{}, env, map[string]any{"pattern": "SECRET"})
	assertProtected(t, res, err, "search_text")
	res, err = call(t, WriteFile{}, env, map[string]any{"path": "new.txt", "content": "x"})
	assertProtected(t, res, err, "write_file")
}

func TestResolvePath(t *testing.T) {
	dir, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	put(t, dir, "a/file.txt", "x")
	require.NoError(t, os.Mkdir(filepath.Join(dir, "a", "b"), 0o755))
	link := func(target, name string) { require.NoError(t, os.Symlink(target, filepath.Join(dir, name))) }
	link("a", "to-a")
	link("a/b", "deep")
	link("a/missing/deeper.txt", "dangling")
	link("deep/../new.txt", "dangling-up")
	link("loop2", "loop1")
	link("loop1", "loop2")

	sep := string(filepath.Separator)
	for in, want := range map[string]string{
		"a/file.txt":     "a/file.txt",
		"to-a/file.txt":  "a/file.txt",
		"to-a/new/x.txt": "a/new/x.txt",
		"dangling":       "a/missing/deeper.txt",
		"deep/../f":      "a/f", // the link first, then its parent
		"dangling-up":    "a/new.txt",
		"missing/x":      "missing/x",
	} {
		got, err := resolvePath(dir + sep + filepath.FromSlash(in))
		require.NoError(t, err, in)
		assert.Equal(t, filepath.Join(dir, want), got, in)
	}
	_, err = resolvePath(filepath.Join(dir, "loop1"))
	assert.ErrorContains(t, err, "too many symlinks", "a symlink loop ends")
}

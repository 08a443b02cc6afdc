package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// ---- tools without a workspace ----

func TestFileToolsNeedAWorkspace(t *testing.T) {
	for _, c := range []struct {
		tool Tool
		args any
	}{
		{ListFiles{}, map[string]any{}},
		{ReadFile{}, map[string]any{"path": "a.txt"}},
		{SearchText{}, map[string]any{"pattern": "x"}},
		{WriteFile{}, map[string]any{"path": "a.txt", "content": "x"}},
		{EditFile{}, map[string]any{"path": "a.txt", "old_text": "x", "new_text": "y"}},
		{RunCommand{}, map[string]any{"command": "echo hi"}},
	} {
		res, err := call(t, c.tool, Env{}, c.args)
		require.NoError(t, err, c.tool.Name())
		assert.True(t, res.IsError, c.tool.Name())
		assert.Contains(t, res.Content, "no workspace folder", c.tool.Name())
	}
	_, err := preview(t, WriteFile{}, Env{}, map[string]any{"path": "a.txt", "content": "x"})
	assert.ErrorContains(t, err, "no workspace folder")
	_, err = preview(t, EditFile{}, Env{}, map[string]any{"path": "a.txt", "old_text": "x", "new_text": "y"})
	assert.ErrorContains(t, err, "no workspace folder")
}

func TestFileToolsReportUndecodableArgs(t *testing.T) {
	// Run is only ever called with validated arguments, but it must not
	// panic or succeed on garbage.
	_, env := newWorkspace(t)
	for _, tool := range Builtin() {
		res, err := tool.Run(context.Background(), env, json.RawMessage(`[1,2`))
		require.NoError(t, err, tool.Name())
		assert.True(t, res.IsError, tool.Name())
	}
}

// ---- read_file ----

func TestReadFileText(t *testing.T) {
	w, env := newWorkspace(t)
	text := "line one\nzwei — drei ✓\n\ttabbed\n"
	put(t, w.Dir(), "docs/a.md", text)
	res, err := call(t, ReadFile{}, env, map[string]any{"path": "docs/a.md"})
	require.NoError(t, err)
	assert.False(t, res.IsError)
	assert.Equal(t, text, res.Content, "the content comes back byte for byte")
}

func TestReadFileSizeCap(t *testing.T) {
	w, env := newWorkspace(t)
	put(t, w.Dir(), "exact.txt", strings.Repeat("a", MaxReadBytes))
	put(t, w.Dir(), "big.txt", strings.Repeat("a", MaxReadBytes+1))

	res, err := call(t, ReadFile{}, env, map[string]any{"path": "exact.txt"})
	require.NoError(t, err)
	assert.False(t, res.IsError, "a file of exactly MaxReadBytes is read")
	assert.Len(t, res.Content, MaxReadBytes)

	res, err = call(t, ReadFile{}, env, map[string]any{"path": "big.txt"})
	require.NoError(t, err)
	assert.True(t, res.IsError)
	assert.Equal(t, fmt.Sprintf(`"big.txt" is %d bytes, more than the %d this tool reads`, MaxReadBytes+1, MaxReadBytes), res.Content)
	assert.NotContains(t, res.Content, "aaaa", "none of the file is returned")
	assert.Contains(t, ReadFile{}.Description(), fmt.Sprint(MaxReadBytes>>10), "the limit is in the description")
}

func TestReadFileRefusesBinary(t *testing.T) {
	w, env := newWorkspace(t)
	put(t, w.Dir(), "nul.bin", "text\x00more text")
	put(t, w.Dir(), "latin1.txt", "caf\xe9\n")
	put(t, w.Dir(), "png.png", "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
	for _, p := range []string{"nul.bin", "latin1.txt", "png.png"} {
		res, err := call(t, ReadFile{}, env, map[string]any{"path": p})
		require.NoError(t, err, p)
		assert.True(t, res.IsError, p)
		assert.Equal(t, fmt.Sprintf("%q is a binary file, not text", p), res.Content)
	}
}

func TestReadFileEmptyFolderMissing(t *testing.T) {
	w, env := newWorkspace(t)
	put(t, w.Dir(), "empty.txt", "")
	require.NoError(t, os.Mkdir(filepath.Join(w.Dir(), "folder"), 0o755))

	res, err := call(t, ReadFile{}, env, map[string]any{"path": "empty.txt"})
	require.NoError(t, err)
	assert.False(t, res.IsError)
	assert.Equal(t, "(the file is empty)", res.Content)

	for _, p := range []string{"folder", "folder/", "", "."} {
		res, err = call(t, ReadFile{}, env, map[string]any{"path": p})
		require.NoError(t, err, p)
		assert.True(t, res.IsError, p)
		assert.Contains(t, res.Content, "is a folder; use list_files", p)
	}

	res, err = call(t, ReadFile{}, env, map[string]any{"path": "nope.txt"})
	require.NoError(t, err)
	assert.True(t, res.IsError)
	assert.Equal(t, `"nope.txt" does not exist`, res.Content)

	res, err = call(t, ReadFile{}, env, map[string]any{"path": "empty.txt/child"})
	require.NoError(t, err)
	assert.True(t, res.IsError)
}

// ---- list_files ----

func listFixture(t *testing.T) (*Workspace, Env) {
	w, env := newWorkspace(t)
	put(t, w.Dir(), "b.txt", "bbb")
	put(t, w.Dir(), "a.txt", "a")
	put(t, w.Dir(), "sub/inner.go", "package x\n")
	put(t, w.Dir(), "sub/deep/deeper.txt", "")
	require.NoError(t, os.Mkdir(filepath.Join(w.Dir(), "emptydir"), 0o755))
	return w, env
}

func TestListFilesNonRecursive(t *testing.T) {
	_, env := listFixture(t)
	res, err := call(t, ListFiles{}, env, map[string]any{})
	require.NoError(t, err)
	assert.False(t, res.IsError)
	assert.Equal(t, "a.txt (1 bytes)\nb.txt (3 bytes)\nemptydir/\nsub/\n", res.Content, "sorted, sizes, folders marked, not entered")

	// The model may send no arguments at all: "" validates to {}.
	args, err := builtinRegistry(t).Validate("list_files", "")
	require.NoError(t, err)
	res2, err := ListFiles{}.Run(context.Background(), env, args)
	require.NoError(t, err)
	assert.Equal(t, res, res2)
}

func TestListFilesRecursive(t *testing.T) {
	_, env := listFixture(t)
	res, err := call(t, ListFiles{}, env, map[string]any{"recursive": true})
	require.NoError(t, err)
	assert.False(t, res.IsError)
	assert.Equal(t, strings.Join([]string{
		"a.txt (1 bytes)",
		"b.txt (3 bytes)",
		"emptydir/",
		"sub/",
		"sub/deep/",
		"sub/deep/deeper.txt (0 bytes)",
		"sub/inner.go (10 bytes)",
	}, "\n")+"\n", res.Content)
}

func TestListFilesSubfolder(t *testing.T) {
	w, env := listFixture(t)
	for _, p := range []string{"sub", "sub/", "./sub", filepath.Join(w.Dir(), "sub")} {
		res, err := call(t, ListFiles{}, env, map[string]any{"path": p})
		require.NoError(t, err, p)
		assert.Equal(t, "deep/\ninner.go (10 bytes)\n", res.Content, "entries are relative to the listed folder (%s)", p)
	}
	res, err := call(t, ListFiles{}, env, map[string]any{"path": "sub", "recursive": true})
	require.NoError(t, err)
	assert.Equal(t, "deep/\ndeep/deeper.txt (0 bytes)\ninner.go (10 bytes)\n", res.Content)
}

func TestListFilesEmptyAndMissing(t *testing.T) {
	_, env := listFixture(t)
	res, err := call(t, ListFiles{}, env, map[string]any{"path": "emptydir"})
	require.NoError(t, err)
	assert.False(t, res.IsError)
	assert.Equal(t, "The folder is empty.", res.Content)

	_, emptyEnv := newWorkspace(t)
	res, err = call(t, ListFiles{}, emptyEnv, map[string]any{"recursive": true})
	require.NoError(t, err)
	assert.Equal(t, "The folder is empty.", res.Content)

	res, err = call(t, ListFiles{}, env, map[string]any{"path": "nope"})
	require.NoError(t, err)
	assert.True(t, res.IsError)
	assert.Equal(t, `"nope" does not exist`, res.Content)
}

func TestListFilesCap(t *testing.T) {
	w, env := newWorkspace(t)
	for i := 0; i < maxListEntries+20; i++ {
		put(t, w.Dir(), fmt.Sprintf("f%04d.txt", i), "x")
	}
	res, err := call(t, ListFiles{}, env, map[string]any{})
	require.NoError(t, err)
	assert.False(t, res.IsError)
	lines := strings.Split(strings.TrimSuffix(res.Content, "\n"), "\n")
	require.Len(t, lines, maxListEntries+1)
	assert.Equal(t, "f0000.txt (1 bytes)", lines[0])
	assert.Equal(t, fmt.Sprintf("f%04d.txt (1 bytes)", maxListEntries-1), lines[maxListEntries-1])
	assert.Equal(t, fmt.Sprintf("… stopped after %d entries", maxListEntries), lines[maxListEntries])
}

func TestListFilesCancelled(t *testing.T) {
	_, env := listFixture(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := callCtx(t, ctx, ListFiles{}, env, map[string]any{"recursive": true})
	assert.ErrorIs(t, err, context.Canceled)
}

func TestRegressionListFilesOnAFileSaysFolderIsEmpty(t *testing.T) {
	_, env := listFixture(t)
	res, err := call(t, ListFiles{}, env, map[string]any{"path": "a.txt"})
	require.NoError(t, err)
	assert.NotEqual(t, "The folder is empty.", res.Content)
	assert.True(t, res.IsError || strings.Contains(res.Content, "a.txt"), res.Content)
}

func TestRegressionListFilesExactlyAtCapSaysStopped(t *testing.T) {
	w, env := newWorkspace(t)
	for i := 0; i < maxListEntries; i++ {
		put(t, w.Dir(), fmt.Sprintf("f%04d.txt", i), "x")
	}
	res, err := call(t, ListFiles{}, env, map[string]any{})
	require.NoError(t, err)
	assert.Equal(t, maxListEntries, strings.Count(res.Content, "\n"), "every entry and no note; ends with %q", lastLine(res.Content))
}

// ---- search_text ----

func searchFixture(t *testing.T) (*Workspace, Env) {
	w, env := newWorkspace(t)
	put(t, w.Dir(), "main.go", "package main\n\nfunc main() {\n\tprintln(\"hello world\")\n}\n")
	put(t, w.Dir(), "notes.txt", "abc\na.c\nHello again\n")
	put(t, w.Dir(), "sub/util.go", "package sub\n\nfunc Helper() string { return \"hello\" }\n")
	put(t, w.Dir(), "other/x.txt", "hello from other\n")
	put(t, w.Dir(), "blob.bin", "hello\x00binary hello\n")
	put(t, w.Dir(), "latin1.txt", "hello caf\xe9\n")
	return w, env
}

func TestSearchTextSubstring(t *testing.T) {
	_, env := searchFixture(t)
	res, err := call(t, SearchText{}, env, map[string]any{"pattern": "hello"})
	require.NoError(t, err)
	assert.False(t, res.IsError)
	assert.Equal(t, "main.go:4: \tprintln(\"hello world\")\nother/x.txt:1: hello from other\nsub/util.go:3: func Helper() string { return \"hello\" }\n", res.Content,
		"file:line: text, case-sensitive, binary files skipped")
	assert.NotContains(t, res.Content, "blob.bin")
	assert.NotContains(t, res.Content, "latin1.txt")

	// Without regex the pattern is literal: "a.c" does not match "abc".
	res, err = call(t, SearchText{}, env, map[string]any{"pattern": "a.c"})
	require.NoError(t, err)
	assert.Equal(t, "notes.txt:2: a.c\n", res.Content)

	res, err = call(t, SearchText{}, env, map[string]any{"pattern": "(", "regex": false})
	require.NoError(t, err)
	assert.False(t, res.IsError, "a literal pattern need not be a valid regex")
	assert.Contains(t, res.Content, "main.go:3: func main() {")
}

func TestSearchTextRegex(t *testing.T) {
	_, env := searchFixture(t)
	res, err := call(t, SearchText{}, env, map[string]any{"pattern": "a.c", "regex": true})
	require.NoError(t, err)
	assert.Equal(t, "notes.txt:1: abc\nnotes.txt:2: a.c\n", res.Content)

	res, err = call(t, SearchText{}, env, map[string]any{"pattern": `(?i)^hello`, "regex": true})
	require.NoError(t, err)
	assert.Equal(t, "notes.txt:3: Hello again\nother/x.txt:1: hello from other\n", res.Content)

	res, err = call(t, SearchText{}, env, map[string]any{"pattern": `^func \w+\(`, "regex": true})
	require.NoError(t, err)
	assert.Equal(t, "main.go:3: func main() {\nsub/util.go:3: func Helper() string { return \"hello\" }\n", res.Content)
}

func TestSearchTextInvalidRegex(t *testing.T) {
	_, env := searchFixture(t)
	for _, p := range []string{"(", "[a-", `\p{Nope}`, "a**"} {
		res, err := call(t, SearchText{}, env, map[string]any{"pattern": p, "regex": true})
		require.NoError(t, err, p)
		assert.True(t, res.IsError, p)
		assert.Contains(t, res.Content, "the pattern is not a valid regular expression", p)
	}
}

func TestSearchTextEmptyPattern(t *testing.T) {
	_, env := searchFixture(t)
	res, err := call(t, SearchText{}, env, map[string]any{"pattern": ""})
	require.NoError(t, err)
	assert.True(t, res.IsError)
	assert.Equal(t, "the pattern is empty", res.Content)
}

func TestSearchTextPathRestriction(t *testing.T) {
	w, env := searchFixture(t)
	res, err := call(t, SearchText{}, env, map[string]any{"pattern": "hello", "path": "sub"})
	require.NoError(t, err)
	assert.Equal(t, "sub/util.go:3: func Helper() string { return \"hello\" }\n", res.Content)

	res, err = call(t, SearchText{}, env, map[string]any{"pattern": "hello", "path": "other/x.txt"})
	require.NoError(t, err)
	assert.Equal(t, "other/x.txt:1: hello from other\n", res.Content, "a single file can be searched")

	res, err = call(t, SearchText{}, env, map[string]any{"pattern": "hello", "path": filepath.Join(w.Dir(), "other")})
	require.NoError(t, err)
	assert.Equal(t, "other/x.txt:1: hello from other\n", res.Content)

	res, err = call(t, SearchText{}, env, map[string]any{"pattern": "hello", "path": "missing"})
	require.NoError(t, err)
	assert.True(t, res.IsError)
	assert.Equal(t, `"missing" does not exist`, res.Content)

	res, err = call(t, SearchText{}, env, map[string]any{"pattern": "hello", "path": "blob.bin"})
	require.NoError(t, err)
	assert.Equal(t, "No matches.", res.Content, "a binary file named directly is still skipped")
}

func TestSearchTextNoMatches(t *testing.T) {
	_, env := searchFixture(t)
	res, err := call(t, SearchText{}, env, map[string]any{"pattern": "zzz-not-there"})
	require.NoError(t, err)
	assert.False(t, res.IsError)
	assert.Equal(t, "No matches.", res.Content)

	res, err = call(t, SearchText{}, env, map[string]any{"pattern": "binary"})
	require.NoError(t, err)
	assert.Equal(t, "No matches.", res.Content, "text only inside a binary file is not found")
}

func TestSearchTextLongLinesAndLargeFiles(t *testing.T) {
	w, env := newWorkspace(t)
	put(t, w.Dir(), "long.txt", "needle"+strings.Repeat("x", 1000)+"\n")
	put(t, w.Dir(), "huge.txt", "needle\n"+strings.Repeat("y", maxSearchFile))
	put(t, w.Dir(), "wide.txt", strings.Repeat("z", 100<<10)+"needle\n")
	res, err := call(t, SearchText{}, env, map[string]any{"pattern": "needle"})
	require.NoError(t, err)
	lines := strings.Split(strings.TrimSuffix(res.Content, "\n"), "\n")
	require.Len(t, lines, 2, res.Content[:min(len(res.Content), 200)])
	assert.Equal(t, "long.txt:1: needle"+strings.Repeat("x", 294)+"…", lines[0], "lines are cut at 300 bytes")
	assert.True(t, strings.HasPrefix(lines[1], "wide.txt:1: zzz"), "a line longer than 64 KiB is still scanned")
	assert.NotContains(t, res.Content, "huge.txt", "files over the search size limit are skipped")
}

func TestSearchTextCap(t *testing.T) {
	w, env := newWorkspace(t)
	put(t, w.Dir(), "many.txt", strings.Repeat("hit\n", maxMatches+50))
	res, err := call(t, SearchText{}, env, map[string]any{"pattern": "hit"})
	require.NoError(t, err)
	lines := strings.Split(strings.TrimSuffix(res.Content, "\n"), "\n")
	require.Len(t, lines, maxMatches+1)
	assert.Equal(t, "many.txt:1: hit", lines[0])
	assert.Equal(t, fmt.Sprintf("many.txt:%d: hit", maxMatches), lines[maxMatches-1])
	assert.Equal(t, fmt.Sprintf("… stopped after %d matches", maxMatches), lines[maxMatches])
}

func TestSearchTextCapAcrossFiles(t *testing.T) {
	w, env := newWorkspace(t)
	for i := 0; i < 3; i++ {
		put(t, w.Dir(), fmt.Sprintf("f%d.txt", i), strings.Repeat("hit\n", maxMatches/2))
	}
	res, err := call(t, SearchText{}, env, map[string]any{"pattern": "hit"})
	require.NoError(t, err)
	lines := strings.Split(strings.TrimSuffix(res.Content, "\n"), "\n")
	require.Len(t, lines, maxMatches+1, "the cap counts matches over all files")
	assert.Equal(t, fmt.Sprintf("f1.txt:%d: hit", maxMatches/2), lines[maxMatches-1])
	assert.NotContains(t, res.Content, "f2.txt")
	assert.Equal(t, fmt.Sprintf("… stopped after %d matches", maxMatches), lines[maxMatches])
}

func TestSearchTextCancelled(t *testing.T) {
	_, env := searchFixture(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := callCtx(t, ctx, SearchText{}, env, map[string]any{"pattern": "hello"})
	assert.ErrorIs(t, err, context.Canceled)
}

func TestRegressionSearchTextExactlyAtCapSaysStopped(t *testing.T) {
	w, env := newWorkspace(t)
	put(t, w.Dir(), "many.txt", strings.Repeat("hit\n", maxMatches))
	res, err := call(t, SearchText{}, env, map[string]any{"pattern": "hit"})
	require.NoError(t, err)
	assert.Equal(t, maxMatches, strings.Count(res.Content, "\n"), "every match and no note; ends with %q", lastLine(res.Content))
}

func TestRegressionSearchTextCutsLinesInsideACharacter(t *testing.T) {
	w, env := newWorkspace(t)
	put(t, w.Dir(), "euro.txt", "a"+strings.Repeat("€", 200)+"\n")
	res, err := call(t, SearchText{}, env, map[string]any{"pattern": "a€"})
	require.NoError(t, err)
	assert.True(t, utf8.ValidString(res.Content), "%q", res.Content[len(res.Content)-10:])
}

func lastLine(s string) string {
	lines := strings.Split(strings.TrimSuffix(s, "\n"), "\n")
	return lines[len(lines)-1]
}

// ---- write_file ----

func TestWriteFileCreatesFoldersAndReturnsTheDiff(t *testing.T) {
	w, env := newWorkspace(t)
	res, err := call(t, WriteFile{}, env, map[string]any{"path": "a/b/c.txt", "content": "one\ntwo\n"})
	require.NoError(t, err)
	require.False(t, res.IsError, res.Content)
	assert.Equal(t, "one\ntwo\n", contents(t, filepath.Join(w.Dir(), "a", "b", "c.txt")))
	assert.True(t, strings.HasPrefix(res.Content, "Wrote 8 bytes to a/b/c.txt.\n"), res.Content)
	assert.Contains(t, res.Content, "--- a/a/b/c.txt\n+++ b/a/b/c.txt\n")
	assert.Contains(t, res.Content, "\n+one\n+two\n")
	assert.NotRegexp(t, `(?m)^-[^-]`, res.Content, "a new file has no removed lines")
}

func TestWriteFilePreviewNewFile(t *testing.T) {
	w, env := newWorkspace(t)
	d, err := preview(t, WriteFile{}, env, map[string]any{"path": "new/file.txt", "content": "alpha\nbeta\ngamma\n"})
	require.NoError(t, err)
	assert.True(t, strings.HasPrefix(d, "--- a/new/file.txt\n+++ b/new/file.txt\n@@ "), d)
	assert.Contains(t, d, "\n+alpha\n+beta\n+gamma\n")
	assert.NotRegexp(t, `(?m)^-[^-]`, d, "a new file has no removed lines")

	_, err = os.Stat(filepath.Join(w.Dir(), "new"))
	assert.True(t, os.IsNotExist(err), "Preview writes nothing, not even the folder")
}

func TestWriteFilePreviewAndRunReplace(t *testing.T) {
	w, env := newWorkspace(t)
	p := put(t, w.Dir(), "f.txt", "keep 1\nold line\nkeep 2\n")
	args := map[string]any{"path": "f.txt", "content": "keep 1\nnew line\nkeep 2\n"}

	d, err := preview(t, WriteFile{}, env, args)
	require.NoError(t, err)
	assert.Contains(t, d, "\n-old line\n+new line\n")
	assert.Contains(t, d, "\n keep 1\n")
	assert.Equal(t, "keep 1\nold line\nkeep 2\n", contents(t, p), "Preview changes nothing")

	res, err := call(t, WriteFile{}, env, args)
	require.NoError(t, err)
	require.False(t, res.IsError, res.Content)
	assert.Equal(t, "keep 1\nnew line\nkeep 2\n", contents(t, p))
	assert.Contains(t, res.Content, "Wrote 23 bytes to f.txt.")
	assert.Contains(t, res.Content, "\n-old line\n+new line\n")

	// Writing the same content again is reported as no change.
	res, err = call(t, WriteFile{}, env, args)
	require.NoError(t, err)
	assert.Contains(t, res.Content, "(no change)")
}

func TestWriteFileEmptyContent(t *testing.T) {
	w, env := newWorkspace(t)
	p := put(t, w.Dir(), "f.txt", "something\n")
	res, err := call(t, WriteFile{}, env, map[string]any{"path": "f.txt", "content": ""})
	require.NoError(t, err)
	require.False(t, res.IsError, res.Content)
	assert.Equal(t, "", contents(t, p))
	assert.Contains(t, res.Content, "-something")
}

func TestWriteFileRefusals(t *testing.T) {
	w, env := newWorkspace(t)
	bin := put(t, w.Dir(), "img.bin", "\xff\xd8\xff\xe0 jpeg")
	require.NoError(t, os.Mkdir(filepath.Join(w.Dir(), "folder"), 0o755))

	res, err := call(t, WriteFile{}, env, map[string]any{"path": "img.bin", "content": "text"})
	require.NoError(t, err)
	assert.True(t, res.IsError)
	assert.Contains(t, res.Content, "binary")
	assert.Equal(t, "\xff\xd8\xff\xe0 jpeg", contents(t, bin), "the binary file is untouched")

	for _, p := range []string{"folder", "", "."} {
		res, err = call(t, WriteFile{}, env, map[string]any{"path": p, "content": "text"})
		require.NoError(t, err, p)
		assert.True(t, res.IsError, "%q: %s", p, res.Content)
	}
	fi, err := os.Stat(filepath.Join(w.Dir(), "folder"))
	require.NoError(t, err)
	assert.True(t, fi.IsDir())
}

func TestRegressionWriteFilePreviewCallsAnExistingFileNew(t *testing.T) {
	w, env := newWorkspace(t)
	p := put(t, w.Dir(), "does not exist.log", strings.Repeat("old log line\n", MaxReadBytes/13+10))
	d, err := preview(t, WriteFile{}, env, map[string]any{"path": "does not exist.log", "content": "new\n"})
	if err == nil {
		assert.Regexp(t, `(?m)^-old log line`, d, "the diff must show the existing content going away")
	}
	_, _ = call(t, WriteFile{}, env, map[string]any{"path": "does not exist.log", "content": "new\n"})
	assert.NotEqual(t, "new\n", contents(t, p), "an existing file that cannot be read must not be silently replaced")
}

// ---- edit_file ----

func TestEditFileReplacesExactlyOnce(t *testing.T) {
	w, env := newWorkspace(t)
	p := put(t, w.Dir(), "code.go", "func a() {\n\treturn 1\n}\n\nfunc b() {\n\treturn 2\n}\n")
	res, err := call(t, EditFile{}, env, map[string]any{"path": "code.go", "old_text": "func b() {\n\treturn 2", "new_text": "func b() {\n\treturn 22"})
	require.NoError(t, err)
	require.False(t, res.IsError, res.Content)
	assert.Equal(t, "func a() {\n\treturn 1\n}\n\nfunc b() {\n\treturn 22\n}\n", contents(t, p))
	assert.True(t, strings.HasPrefix(res.Content, "Edited code.go.\n--- a/code.go\n+++ b/code.go\n"), res.Content)
	assert.Contains(t, res.Content, "\n-\treturn 2\n+\treturn 22\n")
}

func TestEditFileDeleteAndSpecialCharacters(t *testing.T) {
	w, env := newWorkspace(t)
	p := put(t, w.Dir(), "f.txt", "a $1 \\n ${x} b\nremove me\nend\n")
	res, err := call(t, EditFile{}, env, map[string]any{"path": "f.txt", "old_text": "remove me\n", "new_text": ""})
	require.NoError(t, err)
	require.False(t, res.IsError, res.Content)
	res, err = call(t, EditFile{}, env, map[string]any{"path": "f.txt", "old_text": "$1 \\n ${x}", "new_text": "$2 \\t"})
	require.NoError(t, err)
	require.False(t, res.IsError, res.Content)
	assert.Equal(t, "a $2 \\t b\nend\n", contents(t, p), "old and new text are literal, not patterns")
}

func TestEditFileNotFoundAndAmbiguous(t *testing.T) {
	w, env := newWorkspace(t)
	orig := "x = 1\ny = 1\nz = 2\n"
	p := put(t, w.Dir(), "f.txt", orig)

	res, err := call(t, EditFile{}, env, map[string]any{"path": "f.txt", "old_text": "w = 9", "new_text": "w = 0"})
	require.NoError(t, err)
	assert.True(t, res.IsError)
	assert.Equal(t, "old_text was not found in f.txt", res.Content)

	res, err = call(t, EditFile{}, env, map[string]any{"path": "f.txt", "old_text": " = 1", "new_text": " = 3"})
	require.NoError(t, err)
	assert.True(t, res.IsError)
	assert.Equal(t, "old_text appears 2 times in f.txt; include more context so it appears once", res.Content)

	res, err = call(t, EditFile{}, env, map[string]any{"path": "f.txt", "old_text": "X = 1", "new_text": "X = 3"})
	require.NoError(t, err)
	assert.True(t, res.IsError, "matching is case-sensitive")

	res, err = call(t, EditFile{}, env, map[string]any{"path": "f.txt", "old_text": "", "new_text": "x"})
	require.NoError(t, err)
	assert.True(t, res.IsError)
	assert.Contains(t, res.Content, "old_text is empty")

	res, err = call(t, EditFile{}, env, map[string]any{"path": "missing.txt", "old_text": "a", "new_text": "b"})
	require.NoError(t, err)
	assert.True(t, res.IsError)
	assert.Equal(t, `"missing.txt" does not exist`, res.Content)
	_, err = os.Stat(filepath.Join(w.Dir(), "missing.txt"))
	assert.True(t, os.IsNotExist(err), "edit_file does not create files")

	assert.Equal(t, orig, contents(t, p), "failed edits change nothing")
}

func TestEditFilePreview(t *testing.T) {
	w, env := newWorkspace(t)
	orig := "one\ntwo\nthree\n"
	p := put(t, w.Dir(), "f.txt", orig)

	d, err := preview(t, EditFile{}, env, map[string]any{"path": "f.txt", "old_text": "two", "new_text": "2"})
	require.NoError(t, err)
	assert.Equal(t, "--- a/f.txt\n+++ b/f.txt\n", d[:len("--- a/f.txt\n+++ b/f.txt\n")])
	assert.Contains(t, d, "\n one\n-two\n+2\n three\n")
	assert.Equal(t, orig, contents(t, p), "Preview changes nothing")

	_, err = preview(t, EditFile{}, env, map[string]any{"path": "f.txt", "old_text": "four", "new_text": "4"})
	assert.EqualError(t, err, "old_text was not found in f.txt")
	_, err = preview(t, EditFile{}, env, map[string]any{"path": "f.txt", "old_text": "o", "new_text": "0"})
	assert.ErrorContains(t, err, "appears 2 times")

	d, err = preview(t, EditFile{}, env, map[string]any{"path": "f.txt", "old_text": "two", "new_text": "two"})
	require.NoError(t, err)
	assert.Equal(t, "(no change)", d)
	assert.Equal(t, orig, contents(t, p))
}

func TestEditFileRefusesTooLargeFiles(t *testing.T) {
	w, env := newWorkspace(t)
	big := "needle\n" + strings.Repeat("x", MaxReadBytes)
	p := put(t, w.Dir(), "big.txt", big)
	res, err := call(t, EditFile{}, env, map[string]any{"path": "big.txt", "old_text": "needle", "new_text": "pin"})
	require.NoError(t, err)
	assert.True(t, res.IsError)
	assert.Contains(t, res.Content, "more than the")
	assert.Equal(t, big, contents(t, p))
}

func TestRegressionEditFileOverlappingOccurrencesCountAsOne(t *testing.T) {
	w, env := newWorkspace(t)
	p := put(t, w.Dir(), "f.txt", "x\n\n\ny\n")
	res, err := call(t, EditFile{}, env, map[string]any{"path": "f.txt", "old_text": "\n\n", "new_text": "\n"})
	require.NoError(t, err)
	assert.True(t, res.IsError, "old_text appears at two positions; the edit is ambiguous: %s", res.Content)
	assert.Equal(t, "x\n\n\ny\n", contents(t, p))
}

// ---- Diff ----

func TestDiffNoChange(t *testing.T) {
	assert.Equal(t, "(no change)", Diff("f", "", ""))
	assert.Equal(t, "(no change)", Diff("f", "same\n", "same\n"))
	assert.NotEqual(t, "(no change)", Diff("f", "a", "a\n"), "a trailing newline is a change")
	assert.NotEqual(t, "(no change)", Diff("f", "a\r\n", "a\n"), "line endings are a change")
}

func TestDiffReplaceLine(t *testing.T) {
	d := Diff("dir/f.txt", "a\nb\nc\n", "a\nB\nc\n")
	assert.True(t, strings.HasPrefix(d, "--- a/dir/f.txt\n+++ b/dir/f.txt\n@@ "), d)
	assert.Contains(t, d, "\n a\n-b\n+B\n c\n")
}

func TestDiffContextIsThreeLines(t *testing.T) {
	var old, next []string
	for i := 1; i <= 40; i++ {
		old = append(old, fmt.Sprintf("line %02d", i))
		next = append(next, fmt.Sprintf("line %02d", i))
	}
	next[19] = "changed 20"
	d := Diff("f", strings.Join(old, "\n")+"\n", strings.Join(next, "\n")+"\n")
	assert.Contains(t, d, "@@ -17,7 +17,7 @@")
	for _, keep := range []string{" line 17", " line 19", "-line 20", "+changed 20", " line 21", " line 23"} {
		assert.Contains(t, d, "\n"+keep+"\n")
	}
	assert.NotContains(t, d, "line 16")
	assert.NotContains(t, d, "line 24")
	assert.NotContains(t, d, "line 01")
}

func TestDiffTwoHunks(t *testing.T) {
	var old []string
	for i := 1; i <= 30; i++ {
		old = append(old, fmt.Sprint(i))
	}
	next := append([]string(nil), old...)
	next[1], next[27] = "two", "twenty-eight"
	d := Diff("f", strings.Join(old, "\n")+"\n", strings.Join(next, "\n")+"\n")
	assert.Equal(t, 2, strings.Count(d, "\n@@ "), d)
	assert.Contains(t, d, "-2\n+two\n")
	assert.Contains(t, d, "-28\n+twenty-eight\n")
}

func TestDiffAllAdded(t *testing.T) {
	d := Diff("f", "", "one\ntwo\n")
	assert.Contains(t, d, "\n+one\n+two\n")
	assert.NotRegexp(t, `(?m)^-[^-]`, d)

	d = Diff("f", "one\ntwo\n", "")
	assert.Contains(t, d, "\n-one\n-two\n")
	assert.NotRegexp(t, `(?m)^\+[^+]`, d)
}

func TestRegressionDiffNewFileHasPhantomBlankLine(t *testing.T) {
	d := Diff("f", "", "one\ntwo\n")
	hunk := d[strings.Index(d, "@@"):]
	lines := strings.Split(strings.TrimSuffix(hunk, "\n"), "\n")
	assert.Equal(t, "@@ -0,0 +1,2 @@", lines[0])
	for _, l := range lines[1:] {
		assert.True(t, strings.HasPrefix(l, "+"), "every line of a new file is added, got %q", l)
	}
}

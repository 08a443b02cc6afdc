//go:build !windows

package tools

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// promptly runs f and fails the test if it has not returned within a few
// seconds: a named pipe or a device must be refused, not waited on.
func promptly[T any](t *testing.T, what string, f func() T) T {
	t.Helper()
	done := make(chan T, 1)
	go func() { done <- f() }()
	select {
	case v := <-done:
		return v
	case <-time.After(time.Minute):
		t.Fatalf("%s blocked", what)
		panic("unreachable")
	}
}

type ran struct {
	res Result
	err error
}

// runPromptly runs a tool with arguments validated here, on the test's
// goroutine, and fails the test if the run blocks.
func runPromptly(t *testing.T, tool Tool, env Env, args any) (Result, error) {
	t.Helper()
	valid := validArgs(t, tool, args)
	o := promptly(t, tool.Name(), func() ran {
		res, err := tool.Run(context.Background(), env, valid)
		return ran{res, err}
	})
	return o.res, o.err
}

// previewPromptly is preview for a tool that might block.
func previewPromptly(t *testing.T, tool Tool, env Env, args any) (string, error) {
	t.Helper()
	valid := validArgs(t, tool, args)
	type previewed struct {
		diff string
		err  error
	}
	o := promptly(t, tool.Name()+" preview", func() previewed {
		d, err := tool.(Previewer).Preview(context.Background(), env, valid)
		return previewed{d, err}
	})
	return o.diff, o.err
}

func validArgs(t *testing.T, tool Tool, args any) json.RawMessage {
	t.Helper()
	valid, err := builtinRegistry(t).Validate(tool.Name(), string(mustJSON(t, args)))
	require.NoError(t, err, "the test's own arguments must be valid")
	return valid
}

func assertNotRegular(t *testing.T, res Result, err error, want string) {
	t.Helper()
	require.NoError(t, err)
	assert.True(t, res.IsError, "must be refused, got %q", res.Content)
	assert.Contains(t, res.Content, want)
}

func TestNamedPipesAreRefusedNotWaitedOn(t *testing.T) {
	w, env := newWorkspace(t)
	require.NoError(t, syscall.Mkfifo(filepath.Join(w.Dir(), "pipe"), 0o644))
	require.NoError(t, os.Symlink("pipe", filepath.Join(w.Dir(), "pipe-link")))
	put(t, w.Dir(), "real.txt", "findme in a file\n")

	for _, p := range []string{"pipe", "pipe-link"} {
		t.Run(p, func(t *testing.T) {
			want := `"` + p + `" is a named pipe, not a regular file`

			res, err := runPromptly(t, ReadFile{}, env, map[string]any{"path": p})
			assertNotRegular(t, res, err, want)

			_, err = previewPromptly(t, WriteFile{}, env, map[string]any{"path": p, "content": "x"})
			assert.EqualError(t, err, want)
			res, err = runPromptly(t, WriteFile{}, env, map[string]any{"path": p, "content": "x"})
			assertNotRegular(t, res, err, want)

			_, err = previewPromptly(t, EditFile{}, env, map[string]any{"path": p, "old_text": "a", "new_text": "b"})
			assert.EqualError(t, err, want)
			res, err = runPromptly(t, EditFile{}, env, map[string]any{"path": p, "old_text": "a", "new_text": "b"})
			assertNotRegular(t, res, err, want)

			res, err = runPromptly(t, SearchText{}, env, map[string]any{"pattern": "findme", "path": p})
			assertNotRegular(t, res, err, want)
		})
	}

	// A search of the whole workspace passes the pipe by.
	res, err := runPromptly(t, SearchText{}, env, map[string]any{"pattern": "findme"})
	require.NoError(t, err)
	assert.Equal(t, "real.txt:1: findme in a file\n", res.Content)

	res, err = runPromptly(t, ListFiles{}, env, map[string]any{})
	require.NoError(t, err)
	assert.Contains(t, res.Content, "pipe (named pipe)\n")
	assert.Contains(t, res.Content, "pipe-link (symlink)\n")

	fi, err := os.Lstat(filepath.Join(w.Dir(), "pipe"))
	require.NoError(t, err)
	assert.NotZero(t, fi.Mode()&os.ModeNamedPipe, "the pipe is still a pipe")
}

func TestWorkspaceMethodsRefuseNamedPipes(t *testing.T) {
	w, _ := newWorkspace(t)
	require.NoError(t, syscall.Mkfifo(filepath.Join(w.Dir(), "pipe"), 0o644))
	err := promptly(t, "ReadFile", func() error { _, err := w.ReadFile("pipe", 10); return err })
	assert.EqualError(t, err, `"pipe" is a named pipe, not a regular file`)
	err = promptly(t, "WriteFile", func() error { return w.WriteFile("pipe", []byte("x")) })
	assert.EqualError(t, err, `"pipe" is a named pipe, not a regular file`)
}

func TestSymlinkToADeviceIsRefused(t *testing.T) {
	w, env := newWorkspace(t)
	require.NoError(t, os.Symlink("/dev/zero", filepath.Join(w.Dir(), "zero")))
	rel := strings.Repeat("../", strings.Count(w.Dir(), "/")) + "dev/zero"
	require.NoError(t, os.Symlink(rel, filepath.Join(w.Dir(), "zero-rel")))

	for _, p := range []string{"zero", "zero-rel"} {
		res, err := runPromptly(t, ReadFile{}, env, map[string]any{"path": p})
		require.NoError(t, err, p)
		assert.True(t, res.IsError, p)
		assert.Less(t, len(res.Content), 300, "nothing of the device is read")

		_, err = previewPromptly(t, WriteFile{}, env, map[string]any{"path": p, "content": "x"})
		assert.Error(t, err, p)
		_, err = previewPromptly(t, EditFile{}, env, map[string]any{"path": p, "old_text": "a", "new_text": "b"})
		assert.Error(t, err, p)
	}
}

func TestDevicesAreRefused(t *testing.T) {
	// A workspace where devices are: the check itself, not os.Root's
	// confinement, must refuse them.
	w, err := OpenWorkspace("/dev")
	require.NoError(t, err)
	defer w.Close()
	env := Env{Workspace: w}

	for _, p := range []string{"zero", "null", "urandom"} {
		want := `"` + p + `" is a character device, not a regular file`
		res, err := runPromptly(t, ReadFile{}, env, map[string]any{"path": p})
		assertNotRegular(t, res, err, want)

		res, err = runPromptly(t, SearchText{}, env, map[string]any{"pattern": "x", "path": p})
		assertNotRegular(t, res, err, want)

		_, err = previewPromptly(t, WriteFile{}, env, map[string]any{"path": p, "content": "x"})
		assert.EqualError(t, err, want)
		_, err = previewPromptly(t, EditFile{}, env, map[string]any{"path": p, "old_text": "a", "new_text": "b"})
		assert.EqualError(t, err, want)
	}
	res, err := runPromptly(t, WriteFile{}, env, map[string]any{"path": "null", "content": "x"})
	assertNotRegular(t, res, err, `"null" is a character device, not a regular file`)
}

func TestReadsStopAtTheLimitWhateverTheSizeSays(t *testing.T) {
	// Files in /proc say they are empty and are not.
	if runtime.GOOS != "linux" {
		t.Skip("needs /proc")
	}
	w, err := OpenWorkspace("/proc/self")
	require.NoError(t, err)
	defer w.Close()
	fi, err := w.Stat("status")
	require.NoError(t, err)
	require.Zero(t, fi.Size(), "the precondition: a size that is not the length")

	_, err = w.ReadFile("status", 16)
	assert.EqualError(t, err, `"status" is more than the 16 bytes this tool reads`)
	b, err := w.ReadFile("status", MaxReadBytes)
	require.NoError(t, err)
	assert.Contains(t, string(b), "Name:")
}

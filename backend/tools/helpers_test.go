package tools

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// builtinRegistry is the registry of the built-in tools, used to check that
// every argument a test sends would have passed validation.
func builtinRegistry(t *testing.T) *Registry {
	t.Helper()
	r, err := NewRegistry(nil, Builtin())
	require.NoError(t, err)
	return r
}

// newWorkspace opens a fresh workspace in a temporary folder.
func newWorkspace(t *testing.T) (*Workspace, Env) {
	t.Helper()
	w, err := OpenWorkspace(t.TempDir())
	require.NoError(t, err)
	t.Cleanup(func() { _ = w.Close() })
	return w, Env{Workspace: w}
}

// put writes a file (creating its folders) under dir.
func put(t *testing.T, dir, rel, content string) string {
	t.Helper()
	p := filepath.Join(dir, filepath.FromSlash(rel))
	require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
	require.NoError(t, os.WriteFile(p, []byte(content), 0o644))
	return p
}

// contents reads a file, failing the test when it cannot.
func contents(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	require.NoError(t, err)
	return string(b)
}

// mustJSON encodes v as the arguments of a call.
func mustJSON(t *testing.T, v any) json.RawMessage {
	t.Helper()
	b, err := json.Marshal(v)
	require.NoError(t, err)
	return b
}

// call validates args against tool's schema, as the runner does, then runs
// the tool. A test that means to send invalid arguments calls Run itself.
func call(t *testing.T, tool Tool, env Env, args any) (Result, error) {
	t.Helper()
	return callCtx(t, context.Background(), tool, env, args)
}

func callCtx(t *testing.T, ctx context.Context, tool Tool, env Env, args any) (Result, error) {
	t.Helper()
	raw := mustJSON(t, args)
	valid, err := builtinRegistry(t).Validate(tool.Name(), string(raw))
	require.NoError(t, err, "the test's own arguments must be valid")
	return tool.Run(ctx, env, valid)
}

// preview validates args and asks the tool for its preview.
func preview(t *testing.T, tool Tool, env Env, args any) (string, error) {
	t.Helper()
	p, ok := tool.(Previewer)
	require.True(t, ok, "%s is not a Previewer", tool.Name())
	raw := mustJSON(t, args)
	valid, err := builtinRegistry(t).Validate(tool.Name(), string(raw))
	require.NoError(t, err, "the test's own arguments must be valid")
	return p.Preview(context.Background(), env, valid)
}

// snapshot records every file (path → content) and folder under dir, so a
// test can prove nothing there was read into a result or changed.
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	require.NoError(t, filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		switch {
		case fi.IsDir():
			out[rel+"/"] = ""
		case fi.Mode()&os.ModeSymlink != 0:
			target, _ := os.Readlink(p)
			out[rel] = "-> " + target
		default:
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			out[rel] = string(b)
		}
		return nil
	}))
	return out
}

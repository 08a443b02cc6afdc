package app

import (
	"bytes"
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/errand-app/errand/backend/chat"
	"github.com/errand-app/errand/backend/modelserver/compat"
	"github.com/errand-app/errand/backend/providers"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const secretKey = "sk-test-7f3a9c1e5b"

func TestACustomProviderRunsATaskAndItsKeyStaysInTheKeyring(t *testing.T) {
	var logs bytes.Buffer
	prev := slog.Default()
	slog.SetDefault(slog.New(slog.NewTextHandler(&logs, nil)))
	t.Cleanup(func() { slog.SetDefault(prev) })

	srv := compat.NewServer(func(*compat.Request) compat.Reply {
		return compat.Reply{Text: "Hi from the custom server."}
	})
	srv.APIKey = secretKey
	srv.Models = []string{"house-model", "other"}
	url, stop := srv.Start()
	defer stop()

	ring := &fakeKeyring{}
	dir := t.TempDir()
	a := newAppWith(t, Config{DataDir: dir, Keyring: ring})
	in := ProviderInput{Preset: providers.Custom, BaseURL: url, Model: "house-model", APIKey: secretKey}

	v, err := a.Providers.TestConnection(in)
	require.NoError(t, err)
	assert.True(t, v.OK, v.Message)
	assert.Equal(t, 2, v.ModelCount)
	bad := in
	bad.APIKey = "sk-wrong-0000000000"
	v, _ = a.Providers.TestConnection(bad)
	assert.Equal(t, providers.VerdictWrongKey, v.Kind)
	assert.NotContains(t, v.Message, "sk-wrong")

	view, err := a.Providers.SaveProvider(in)
	require.NoError(t, err)
	assert.True(t, view.HasKey)
	assert.Equal(t, []string{providers.Custom}, view.KeysFor)
	assert.Equal(t, "keyring", view.KeyStorage)
	assert.Equal(t, secretKey, ring.keys["Errand/provider:custom"])

	info, err := a.Conversations.ModelInfo()
	require.NoError(t, err)
	assert.False(t, info.Demo)
	assert.Equal(t, "house-model", info.Model)
	models, err := a.Providers.ListModels(ProviderInput{Preset: providers.Custom, BaseURL: url, KeepKey: true})
	require.NoError(t, err)
	assert.Equal(t, []string{"house-model", "other"}, models)

	c, err := a.Conversations.CreateConversation()
	require.NoError(t, err)
	task, err := a.Runner.SendChat(c.ID, "hello")
	require.NoError(t, err)
	assert.Equal(t, "house-model", task.Model)
	waitFor(t, func() bool {
		got, err := a.Runner.GetTask(task.ID)
		return err == nil && got.Status == chat.StatusCompleted
	})

	// A failing call must not leak the key either.
	ring.keys["Errand/provider:custom"] = "sk-revoked-1234567890"
	failed, err := a.Runner.SendChat(c.ID, "again")
	require.NoError(t, err)
	waitFor(t, func() bool {
		got, err := a.Runner.GetTask(failed.ID)
		return err == nil && got.Status == chat.StatusError
	})
	got, _ := a.Runner.GetTask(failed.ID)
	assert.Contains(t, got.ErrorMessage, "rejected the API key")

	a.Shutdown(context.Background())
	for _, leaked := range []string{secretKey, "sk-revoked-1234567890"} {
		assert.NotContains(t, logs.String(), leaked, "the key is in a log line")
		assertNotInFiles(t, dir, leaked)
	}
}

// assertNotInFiles fails if any file under dir (the database, its WAL, the
// settings) holds s.
func assertNotInFiles(t *testing.T, dir, s string) {
	t.Helper()
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		assert.False(t, bytes.Contains(b, []byte(s)), "the key is in %s", p)
		return nil
	})
	require.NoError(t, err)
}

func TestKeyFileFallbackIsPrivateAndTheDatabaseStaysClean(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	a := newAppWith(t, Config{DataDir: dir, Keyring: brokenKeyring{}})
	view, err := a.Providers.SaveProvider(ProviderInput{Preset: providers.OpenAI, Model: "gpt-4o-mini", APIKey: secretKey})
	require.NoError(t, err)
	assert.Equal(t, "file", view.KeyStorage)
	assert.Contains(t, view.KeyNote, "readable only by you")
	fi, err := os.Stat(filepath.Join(dir, "secrets.json"))
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o600), fi.Mode().Perm())
	a.Shutdown(context.Background())
	for _, name := range []string{"errand.db", "errand.db-wal"} {
		if b, err := os.ReadFile(filepath.Join(dir, name)); err == nil {
			assert.False(t, bytes.Contains(b, []byte(secretKey)), "the key is in %s", name)
		}
	}
}

type brokenKeyring struct{}

func (brokenKeyring) Set(string, string, string) error   { return os.ErrPermission }
func (brokenKeyring) Get(string, string) (string, error) { return "", os.ErrPermission }
func (brokenKeyring) Delete(string, string) error        { return os.ErrPermission }

func TestProviderInputIsValidated(t *testing.T) {
	t.Parallel()
	a := newApp(t)
	_, err := a.Providers.SaveProvider(ProviderInput{Preset: "nonsense"})
	assert.Equal(t, chat.CodeInvalid, code(err))
	_, err = a.Providers.SaveProvider(ProviderInput{Preset: providers.Custom, BaseURL: "localhost:1234", Model: "m"})
	assert.Equal(t, chat.CodeInvalid, code(err))
	_, err = a.Providers.SaveProvider(ProviderInput{Preset: providers.Ollama})
	assert.Equal(t, chat.CodeInvalid, code(err), "a model is needed")
	v, err := a.Providers.TestConnection(ProviderInput{Preset: providers.Custom, BaseURL: "ftp://x"})
	require.NoError(t, err)
	assert.Equal(t, providers.VerdictInvalid, v.Kind)
	v, err = a.Providers.TestConnection(ProviderInput{Preset: providers.Demo})
	require.NoError(t, err)
	assert.True(t, v.OK, "the demo model answers the test too")

	// A provider that needs a key is neither saved nor tested without one.
	_, err = a.Providers.SaveProvider(ProviderInput{Preset: providers.OpenAI, Model: "gpt-4o-mini"})
	assert.Equal(t, chat.CodeInvalid, code(err))
	assert.Contains(t, chat.ErrorMessage(err), "needs an API key")
	_, err = a.Providers.SaveProvider(ProviderInput{Preset: providers.OpenAI, Model: "gpt-4o-mini", KeepKey: true})
	assert.Equal(t, chat.CodeInvalid, code(err), "keeping a key that was never stored keeps none")
	info, _ := a.Conversations.ModelInfo()
	assert.True(t, info.Demo, "still on the demo model")
	v, err = a.Providers.TestConnection(ProviderInput{Preset: providers.OpenAI, Model: "gpt-4o-mini"})
	require.NoError(t, err)
	assert.Equal(t, providers.VerdictWrongKey, v.Kind)
	assert.Contains(t, v.Message, "needs an API key")

	// Back to the demo after a real provider.
	_, err = a.Providers.SaveProvider(ProviderInput{Preset: providers.Ollama, Model: "llama3.1"})
	require.NoError(t, err)
	info, _ = a.Conversations.ModelInfo()
	assert.Equal(t, "llama3.1", info.Model)
	_, err = a.Providers.SaveProvider(ProviderInput{Preset: providers.Demo})
	require.NoError(t, err)
	info, _ = a.Conversations.ModelInfo()
	assert.True(t, info.Demo)
}

func TestEnvironmentOverridesTheSettings(t *testing.T) {
	t.Parallel()
	a := newAppWith(t, Config{DataDir: t.TempDir(), Keyring: &fakeKeyring{}, BaseURL: "http://127.0.0.1:9/v1", Model: "env-model"})
	_, err := a.Providers.SaveProvider(ProviderInput{Preset: providers.Ollama, Model: "llama3.1"})
	require.NoError(t, err)
	info, err := a.Conversations.ModelInfo()
	require.NoError(t, err)
	assert.Equal(t, "env-model", info.Model)
	assert.Equal(t, "environment", info.Source)
	view, err := a.Providers.GetProvider()
	require.NoError(t, err)
	assert.True(t, view.EnvOverride)
	assert.True(t, strings.HasPrefix(info.BaseURL, "http://127.0.0.1:9"))
}

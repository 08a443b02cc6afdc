package app

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	goruntime "runtime"
	"testing"

	"github.com/errand-app/errand/backend/buildinfo"
	"github.com/errand-app/errand/backend/chat"
	"github.com/errand-app/errand/backend/store"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Settings → About tells the stamped version, where the data and the log
// are, and the schema this build writes.
func TestAboutTellsVersionAndWhereThingsAre(t *testing.T) {
	dir := t.TempDir()
	a := newAppWith(t, Config{DataDir: dir, Keyring: &fakeKeyring{}})

	info := a.About.Info()

	assert.Equal(t, buildinfo.Version, info.Version)
	assert.Equal(t, dir, info.DataDir)
	assert.Equal(t, filepath.Join(dir, "logs", "errand.log"), info.LogFile)
	assert.Equal(t, store.SchemaVersion(), info.SchemaVersion)
	assert.Equal(t, goruntime.GOOS+"/"+goruntime.GOARCH, info.OS)
}

// "Copy diagnostics" tells the provider's kind, server and model, and
// never the key nor credentials in the server's address.
func TestDiagnosticsHoldNoKeyNorCredentials(t *testing.T) {
	const key = "sk-about-test-0123456789abcdef"
	a := newAppWith(t, Config{DataDir: t.TempDir(), Keyring: &fakeKeyring{},
		BaseURL: "https://alice:hunter2@models.example.com/v1?api_key=querysecret#frag", APIKey: key, Model: "gpt-test"})

	text := a.About.Diagnostics()

	assert.Contains(t, text, "Errand "+buildinfo.Version)
	assert.Contains(t, text, "OS: "+goruntime.GOOS+"/"+goruntime.GOARCH)
	assert.Contains(t, text, "server https://models.example.com/v1, model gpt-test")
	for _, secret := range []string{key, "alice", "hunter2", "querysecret"} {
		assert.NotContains(t, text, secret)
	}
}

func TestDiagnosticsNameTheDemoModel(t *testing.T) {
	a := newApp(t)
	assert.Contains(t, a.About.Diagnostics(), "Provider: demo")
}

// "Open data folder" opens the data folder, and says so when it cannot.
func TestOpenDataFolder(t *testing.T) {
	dir := t.TempDir()
	a := newAppWith(t, Config{DataDir: dir, Keyring: &fakeKeyring{}})
	var opened []string
	a.About.openFolder = func(p string) error { opened = append(opened, p); return nil }

	require.NoError(t, a.About.OpenDataFolder())
	assert.Equal(t, []string{dir}, opened)

	a.About.openFolder = func(string) error { return errors.New("no file manager") }
	err := a.About.OpenDataFolder()
	require.Error(t, err)
	assert.Contains(t, chat.ErrorMessage(err), "The data folder ("+dir+") could not be opened: no file manager")
}

// A database from a newer Errand: the window says which version made it
// and which one this is, and nothing in the file changed.
func TestNewerDatabaseIsToldInTheWindow(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, store.FileName)
	st, err := store.Open(context.Background(), path)
	require.NoError(t, err)
	newer := store.SchemaVersion() + 1
	_, err = st.DB().Exec("UPDATE app_info SET value = 'v7.0.0' WHERE key = 'written_by'")
	require.NoError(t, err)
	_, err = st.DB().Exec(fmt.Sprintf("PRAGMA user_version = %d", newer))
	require.NoError(t, err)
	require.NoError(t, st.Close())
	before, err := os.ReadFile(path)
	require.NoError(t, err)
	cfg := Config{DataDir: dir, Keyring: &fakeKeyring{}}

	_, err = New(context.Background(), cfg)
	require.Error(t, err)
	// Start finds it once the window has begun to show: Health says why,
	// and nothing else runs, nor stops.
	a, err := Start(context.Background(), cfg)
	require.NoError(t, err)
	status := a.Health.Status()
	a.Startup(t.Context())
	assert.False(t, a.BeforeClose(t.Context()))
	a.Shutdown(t.Context())
	assert.False(t, status.Ready)
	assert.Contains(t, status.Message, fmt.Sprintf("written by Errand v7.0.0 (schema %d)", newer))
	assert.Contains(t, status.Message, fmt.Sprintf("this is Errand %s (schema %d)", buildinfo.Version, store.SchemaVersion()))
	after, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, before, after)
}

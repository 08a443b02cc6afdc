package app

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/errand-app/errand/backend/chat"
	"github.com/errand-app/errand/backend/providers"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/wailsapp/wails/v2/pkg/runtime"
)

// answered are file dialogs that answer from a list, in order.
type answered struct{ answers []string }

func (a *answered) next() (string, error) {
	if len(a.answers) == 0 {
		return "", nil
	}
	p := a.answers[0]
	a.answers = a.answers[1:]
	return p, nil
}
func (a *answered) save(string, string, runtime.FileFilter) (string, error) { return a.next() }
func (a *answered) open(string, runtime.FileFilter) (string, error)         { return a.next() }
func (a *answered) folder(string) (string, error)                           { return a.next() }
func (a *answered) ask(string, string) (bool, error) {
	p, err := a.next()
	return p == "yes", err
}

// A key saved in the settings, and one from the environment, are in no
// export of any kind.
func TestNoExportHoldsAnAPIKey(t *testing.T) {
	t.Parallel()
	const savedKey, envKey = "sk-saved-0123456789abcdef", "sk-env-fedcba9876543210"
	a := newAppWith(t, Config{DataDir: t.TempDir(), Keyring: &fakeKeyring{}, APIKey: envKey})
	_, err := a.Providers.SaveProvider(ProviderInput{Preset: providers.OpenAI, Model: "gpt-4o-mini", APIKey: savedKey})
	require.NoError(t, err)
	c, err := a.Conversations.CreateConversation()
	require.NoError(t, err)
	_, err = a.Conversations.RenameConversation(c.ID, "Keys")
	require.NoError(t, err)

	out := t.TempDir()
	files := []string{filepath.Join(out, "c.md"), filepath.Join(out, "c.json"), filepath.Join(out, "all.json")}
	dialogs := &answered{answers: files}
	a.Archive.dialogs = dialogs
	for i, format := range []string{FormatMarkdown, FormatJSON} {
		path, err := a.Archive.ExportConversation(c.ID, format)
		require.NoError(t, err)
		assert.Equal(t, files[i], path)
	}
	path, err := a.Archive.ExportBackup()
	require.NoError(t, err)
	assert.Equal(t, files[2], path)
	for _, f := range files {
		b, err := os.ReadFile(f)
		require.NoError(t, err)
		assert.Contains(t, string(b), "Keys", f)
		assert.NotContains(t, string(b), savedKey, f)
		assert.NotContains(t, string(b), envKey, f)
		assert.NotContains(t, string(b), "sk-", f)
		fi, err := os.Stat(f)
		require.NoError(t, err)
		assert.Equal(t, os.FileMode(0o600), fi.Mode().Perm(), "only the person reads an export")
	}
	// The backup keeps the provider (without its key).
	b, _ := os.ReadFile(files[2])
	assert.Contains(t, string(b), `"preset": "openai"`)

	// Cancelling a dialog does nothing.
	path, err = a.Archive.ExportConversation(c.ID, FormatJSON)
	require.NoError(t, err)
	assert.Empty(t, path)
	convs, err := a.Archive.ImportConversations()
	require.NoError(t, err)
	assert.Empty(t, convs)
}

func TestImportAndRestoreThroughTheService(t *testing.T) {
	t.Parallel()
	a := newApp(t)
	c, err := a.Conversations.CreateConversation()
	require.NoError(t, err)
	_, err = a.Runner.SendChat(c.ID, "Remember the marmalade")
	require.NoError(t, err)
	out := t.TempDir()
	conv, backup := filepath.Join(out, "c.json"), filepath.Join(out, "all.json")
	a.Archive.dialogs = &answered{answers: []string{conv, backup}}
	_, err = a.Archive.ExportConversation(c.ID, FormatJSON)
	require.NoError(t, err)
	_, err = a.Archive.ExportBackup()
	require.NoError(t, err)

	a.Archive.dialogs = &answered{answers: []string{conv}}
	convs, err := a.Archive.ImportConversations()
	require.NoError(t, err)
	require.Len(t, convs, 1)
	assert.NotEqual(t, c.ID, convs[0].ID)
	hits, err := a.Conversations.SearchMessages("marmalade", 10)
	require.NoError(t, err)
	assert.Len(t, hits, 2, "the original and the imported copy")

	// A backup restores into an empty folder only.
	full := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(full, "keep.txt"), []byte("mine"), 0o600))
	a.Archive.dialogs = &answered{answers: []string{backup, full}}
	_, err = a.Archive.RestoreBackup()
	assert.Equal(t, chat.CodeInvalid, code(err))
	assert.Contains(t, chat.ErrorMessage(err), "is not empty")
	entries, _ := os.ReadDir(full)
	assert.Len(t, entries, 1, "nothing written there")

	// A conversation is not a backup: refused, the folder left empty.
	empty := filepath.Join(t.TempDir(), "restored")
	a.Archive.dialogs = &answered{answers: []string{conv, empty}}
	_, err = a.Archive.RestoreBackup()
	assert.Contains(t, chat.ErrorMessage(err), "not a backup")
	entries, _ = os.ReadDir(empty)
	assert.Empty(t, entries)

	// A backup that fails half-way leaves the folder empty.
	raw, err := os.ReadFile(backup)
	require.NoError(t, err)
	bad := filepath.Join(out, "bad.json")
	require.NoError(t, os.WriteFile(bad, []byte(strings.Replace(string(raw), `"role": "user"`, `"role": "wizard"`, 1)), 0o600))
	a.Archive.dialogs = &answered{answers: []string{bad, empty}}
	_, err = a.Archive.RestoreBackup()
	assert.Contains(t, chat.ErrorMessage(err), "unknown role")
	entries, _ = os.ReadDir(empty)
	assert.Empty(t, entries, "no database left behind")

	a.Archive.dialogs = &answered{answers: []string{backup, empty}}
	dir, err := a.Archive.RestoreBackup()
	require.NoError(t, err)
	assert.Equal(t, empty, dir)
	b := newAppWith(t, Config{DataDir: empty, Keyring: &fakeKeyring{}})
	list, err := b.Conversations.ListConversations()
	require.NoError(t, err)
	require.Len(t, list, 1)
	assert.Equal(t, "Remember the marmalade", list[0].Title)
}

func TestBadExportRequestsAreRefused(t *testing.T) {
	t.Parallel()
	a := newApp(t)
	c, err := a.Conversations.CreateConversation()
	require.NoError(t, err)
	a.Archive.dialogs = &answered{answers: []string{filepath.Join(t.TempDir(), "x")}}
	_, err = a.Archive.ExportConversation(c.ID, "pdf")
	assert.Equal(t, chat.CodeInvalid, code(err))
	_, err = a.Archive.ExportConversation("missing", FormatJSON)
	assert.Equal(t, chat.CodeNotFound, code(err))
	a.Archive.dialogs = &answered{answers: []string{filepath.Join(t.TempDir(), "no-such-dir", "x.json")}}
	_, err = a.Archive.ExportConversation(c.ID, FormatJSON)
	assert.Error(t, err)
	assert.True(t, strings.Contains(chat.ErrorMessage(err), "cannot write"), chat.ErrorMessage(err))
}

package app

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/errand-app/errand/backend/chat"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The folder picker opens at the workspace when it exists, else at the
// nearest folder above it that does: a default workspace is only made
// when a task first runs, and a picker told to open a missing folder
// opens nowhere useful.
func TestPickerStartsAtNearestExistingFolder(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	ws := filepath.Join(root, "workspaces")
	require.NoError(t, os.Mkdir(ws, 0o755))

	assert.Equal(t, ws, pickerStart(ws))
	assert.Equal(t, ws, pickerStart(filepath.Join(ws, "not-made-yet", "deeper")))
}

// A new conversation's default folder does not exist until needed: the
// picker makes it first (so it opens there); a chosen folder that was
// removed is reported missing.
func TestWorkspaceFolderIsMadeForThePickerAndAMissingOneIsSaid(t *testing.T) {
	t.Parallel()
	a := newApp(t)
	c, err := a.Conversations.CreateConversation()
	require.NoError(t, err)
	info, err := a.Conversations.Workspace(c.ID)
	require.NoError(t, err)
	assert.True(t, info.Default)
	assert.False(t, info.Missing)
	assert.NoDirExists(t, info.Path)
	dir, err := a.Conversations.readyWorkspace(c.ID)
	require.NoError(t, err)
	assert.Equal(t, info.Path, dir)
	assert.DirExists(t, dir)
	assert.Equal(t, dir, pickerStart(dir), "the picker opens in the new conversation's own folder")

	chosen := filepath.Join(t.TempDir(), "project")
	require.NoError(t, os.Mkdir(chosen, 0o755))
	_, err = a.Conversations.SetWorkspace(c.ID, chosen)
	require.NoError(t, err)
	require.NoError(t, os.Remove(chosen))
	info, err = a.Conversations.Workspace(c.ID)
	require.NoError(t, err)
	assert.Equal(t, WorkspaceInfo{Path: chosen, Missing: true}, info)
	assert.Equal(t, filepath.Dir(chosen), pickerStart(chosen), "the picker opens above the missing folder")
	err = a.Conversations.OpenWorkspaceFolder(c.ID)
	assert.Equal(t, chat.CodeNotFound, code(err))
}

// Startup sets the window's context while bound calls may read it.
func TestWindowContextIsGuarded(t *testing.T) {
	t.Parallel()
	var w windowContext
	assert.Nil(t, w.get())
	done := make(chan struct{})
	go func() {
		defer close(done)
		w.set(t.Context())
	}()
	_ = w.get()
	<-done
	assert.Equal(t, t.Context(), w.get())
}

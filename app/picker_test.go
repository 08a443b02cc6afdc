package app

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The folder picker opens at the workspace when it exists, else at the
// nearest folder above it that does: a default workspace is only made
// when a task first runs, and a picker told to open a missing folder
// opens nowhere useful.
func TestPickerStartsAtNearestExistingFolder(t *testing.T) {
	root := t.TempDir()
	ws := filepath.Join(root, "workspaces")
	require.NoError(t, os.Mkdir(ws, 0o755))

	assert.Equal(t, ws, pickerStart(ws))
	assert.Equal(t, ws, pickerStart(filepath.Join(ws, "not-made-yet", "deeper")))
}

// Startup sets the window's context while bound calls may read it.
func TestWindowContextIsGuarded(t *testing.T) {
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

package store

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/errand-app/errand/backend/buildinfo"
	"github.com/errand-app/errand/backend/chat"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// dirState is every file in dir (recursively) with its bytes.
func dirState(t *testing.T, dir string) map[string]string {
	t.Helper()
	files := map[string]string{}
	require.NoError(t, filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		files[p] = string(b)
		return err
	}))
	return files
}

// A database written by a newer Errand is refused with both versions
// named, and nothing in its folder changes: not the file, no journal, no
// backup.
func TestNewerDatabaseIsRefusedAndLeftUntouched(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, FileName)
	buildAt(t, path, SchemaVersion())
	newer := SchemaVersion() + 3
	db, err := sql.Open("sqlite", "file:"+path)
	require.NoError(t, err)
	_, err = db.Exec(fmt.Sprintf("PRAGMA user_version = %d", newer))
	require.NoError(t, err)
	_, err = db.Exec("INSERT INTO app_info (key, value) VALUES ('written_by', 'v9.1.0')")
	require.NoError(t, err)
	require.NoError(t, db.Close())
	before := dirState(t, dir)

	_, err = Open(context.Background(), path)

	require.Error(t, err)
	assert.Equal(t, chat.CodeConflict, chat.ErrorCode(err))
	msg := chat.ErrorMessage(err)
	assert.Contains(t, msg, fmt.Sprintf("written by Errand v9.1.0 (schema %d)", newer))
	assert.Contains(t, msg, fmt.Sprintf("this is Errand %s (schema %d)", buildinfo.Version, SchemaVersion()))
	assert.Contains(t, msg, "Install Errand v9.1.0 or later")
	assert.Equal(t, before, dirState(t, dir), "the folder is byte-for-byte as it was")
}

// Upgrading a file copies it first to backups/, and the copy is the file
// as it was: its old schema and its rows. The log says where.
func TestUpgradeCopiesTheDatabaseFirst(t *testing.T) {
	ms, err := migrations()
	require.NoError(t, err)
	old := ms[len(ms)-3].version
	dir := t.TempDir()
	path := filepath.Join(dir, FileName)
	buildAt(t, path, old)

	s, err := Open(context.Background(), path)
	require.NoError(t, err)
	require.NoError(t, s.Close())

	copies, err := filepath.Glob(filepath.Join(dir, BackupDir, "*.db"))
	require.NoError(t, err)
	require.Len(t, copies, 1)
	assert.Contains(t, filepath.Base(copies[0]), fmt.Sprintf("-schema%d.db", old))
	assertHoldsOldConversation(t, copies[0], old)
}

// Only the newest few copies are kept.
func TestUpgradeKeepsTheLastFewCopies(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, FileName)
	ms, err := migrations()
	require.NoError(t, err)
	buildAt(t, path, ms[len(ms)-2].version)
	require.NoError(t, os.MkdirAll(filepath.Join(dir, BackupDir), 0o700))
	for i := range keepBackups + 2 {
		name := fmt.Sprintf("errand-2020010%d-120000.000-schema1.db", i+1)
		require.NoError(t, os.WriteFile(filepath.Join(dir, BackupDir, name), []byte("old"), 0o600))
	}

	s, err := Open(context.Background(), path)
	require.NoError(t, err)
	require.NoError(t, s.Close())

	copies, err := filepath.Glob(filepath.Join(dir, BackupDir, "*.db"))
	require.NoError(t, err)
	sort.Strings(copies)
	require.Len(t, copies, keepBackups)
	assert.NotContains(t, copies, filepath.Join(dir, BackupDir, "errand-20200101-120000.000-schema1.db"), "the oldest went")
	assert.Contains(t, filepath.Base(copies[len(copies)-1]), "errand-20", "today's copy is kept")
	assert.NotContains(t, filepath.Base(copies[len(copies)-1]), "2020010")
}

// A migration that fails halfway (after earlier ones in the same upgrade
// succeeded) leaves the file exactly as it was, and the error says where
// the copy is.
func TestFailedUpgradeLeavesTheFileAsItWas(t *testing.T) {
	ms, err := migrations()
	require.NoError(t, err)
	old := ms[len(ms)-4].version
	dir := t.TempDir()
	path := filepath.Join(dir, FileName)
	buildAt(t, path, old)
	before, err := os.ReadFile(path)
	require.NoError(t, err)
	broken := append(append([]migration{}, ms...), migration{
		version: lastVersion(ms) + 1, name: "9999_broken.sql",
		sql: "CREATE TABLE half_done (x INTEGER); INSERT INTO no_such_table VALUES (1);",
	})

	_, err = openMigrated(context.Background(), path, broken, "")

	require.Error(t, err)
	after, readErr := os.ReadFile(path)
	require.NoError(t, readErr)
	assert.Equal(t, before, after, "the database file is byte-for-byte as it was")
	copies, globErr := filepath.Glob(filepath.Join(dir, BackupDir, "*.db"))
	require.NoError(t, globErr)
	require.Len(t, copies, 1)
	msg := chat.ErrorMessage(err)
	assert.Contains(t, msg, "left as it was")
	assert.Contains(t, msg, "A copy made before the upgrade is at "+copies[0])
	assert.Contains(t, chat.Details(err), "9999_broken.sql")
	assertHoldsOldConversation(t, copies[0], old)

	// Today's code still opens it: the failed upgrade did not stick.
	s, err := Open(context.Background(), path)
	require.NoError(t, err)
	defer s.Close()
	view, err := s.LoadConversation(context.Background(), "conv-old")
	require.NoError(t, err)
	assert.Equal(t, "Written long ago", view.Conversation.Title)
}

func assertHoldsOldConversation(t *testing.T, path string, schema int) {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+path+"?mode=ro")
	require.NoError(t, err)
	defer db.Close()
	var version int
	require.NoError(t, db.QueryRow("PRAGMA user_version").Scan(&version))
	assert.Equal(t, schema, version)
	var title string
	require.NoError(t, db.QueryRow("SELECT title FROM conversations WHERE id = 'conv-old'").Scan(&title))
	assert.Equal(t, "Written long ago", title)
}

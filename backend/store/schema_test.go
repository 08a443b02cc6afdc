package store

import (
	"context"
	"database/sql"
	"flag"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/errand-app/errand/backend/chat"
	"github.com/google/uuid"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// updateSchema makes TestANewDatabaseIsWhatEveryMigrationMakes write
// schema.sql instead of checking it (make schema).
var updateSchema = flag.Bool("update", false, "write schema.sql from the migrations")

const staleSchema = "schema.sql is not what the migrations make: run `make schema` and commit the result"

// A new database is made in one step from schema.sql, and it is the very
// file every migration makes one after the other: the same tables,
// indexes, views and triggers, the same rows (FTS5's own among them), the
// same schema version, and search finds a new message in both.
func TestANewDatabaseIsWhatEveryMigrationMakes(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	ms, err := migrations()
	require.NoError(t, err)
	generated := schemaOf(t, ms)
	if *updateSchema {
		require.NoError(t, os.WriteFile("schema.sql", []byte(generated), 0o644))
		t.Logf("wrote schema.sql (schema %d)", lastVersion(ms))
		return
	}
	require.Equal(t, generated, newSchema, staleSchema)

	stepped, err := openMigrated(ctx, filepath.Join(t.TempDir(), FileName), ms, "")
	require.NoError(t, err)
	defer stepped.Close()
	whole, err := Open(ctx, filepath.Join(t.TempDir(), FileName))
	require.NoError(t, err)
	defer whole.Close()
	assert.Equal(t, fileState(t, stepped.db), fileState(t, whole.db), staleSchema)

	for _, s := range []*Store{stepped, whole} {
		c := newConversation(t, s)
		m := chat.Message{ID: uuid.NewString(), ConversationID: c.ID, Role: chat.RoleUser, Content: "The quarterly figures for Lisbon"}
		_, err := s.AddMessage(ctx, m)
		require.NoError(t, err)
		hits, err := s.Search(ctx, "lisb", 10)
		require.NoError(t, err)
		require.Len(t, hits, 1)
		assert.Equal(t, m.ID, hits[0].MessageID)
	}
}

// Only a new file is made from the whole schema: a file at an earlier
// schema is upgraded migration by migration, and so is one at schema 0
// that already holds a table, as before.
func TestOnlyANewFileIsMadeInOneStep(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	ms, err := migrations()
	require.NoError(t, err)
	marked := newSchema + "CREATE TABLE made_whole (x INTEGER);"
	dir := t.TempDir()

	newFile := filepath.Join(dir, "new.db")
	s, err := openMigrated(ctx, newFile, ms, marked)
	require.NoError(t, err)
	assert.True(t, holdsTable(t, s.db, "made_whole"), "a new file is made from the whole schema")
	require.NoError(t, s.Close())

	older := filepath.Join(dir, "older.db")
	buildAt(t, older, ms[len(ms)-2].version)
	s, err = openMigrated(ctx, older, ms, marked)
	require.NoError(t, err)
	assert.False(t, holdsTable(t, s.db, "made_whole"), "an older file is upgraded migration by migration")
	require.NoError(t, s.Close())

	holding := filepath.Join(dir, "holding.db")
	db, err := sql.Open(driverName, "file:"+holding)
	require.NoError(t, err)
	_, err = db.Exec("CREATE TABLE notes (text TEXT)")
	require.NoError(t, err)
	require.NoError(t, db.Close())
	s, err = openMigrated(ctx, holding, ms, marked)
	require.NoError(t, err)
	defer s.Close()
	assert.False(t, holdsTable(t, s.db, "made_whole"), "a file holding something runs every migration")
	assert.True(t, holdsTable(t, s.db, "notes"))
	var version int
	require.NoError(t, s.db.QueryRow("PRAGMA user_version").Scan(&version))
	assert.Equal(t, SchemaVersion(), version)
}

func holdsTable(t *testing.T, db *sql.DB, name string) bool {
	t.Helper()
	var n int
	require.NoError(t, db.QueryRow("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = ?", name).Scan(&n))
	return n == 1
}

// schemaOf is schema.sql as the migrations ms make it: a new file is
// migrated step by step, then written out as the statements that make it
// in one go — its tables (virtual ones without the shadow tables they
// make), views, indexes and triggers in the order they were made, the rows
// of its tables, and its schema version.
func schemaOf(t *testing.T, ms []migration) string {
	t.Helper()
	ctx := context.Background()
	s, err := open(ctx, filepath.Join(t.TempDir(), FileName), url.Values{})
	require.NoError(t, err)
	defer s.Close()
	require.NoError(t, s.applyMigrations(ctx, ms, 0, ""))

	var b strings.Builder
	b.WriteString("-- The schema every migration in migrations/ makes, one after the other: a\n" +
		"-- new database is made from it in one step. Generated from the migrations\n" +
		"-- by `make schema`; never edit it.\n\n")
	rows, err := s.db.Query(`SELECT sql FROM sqlite_master
		WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite\_%' ESCAPE '\'
			AND name NOT IN (SELECT name FROM pragma_table_list WHERE type = 'shadow')
		ORDER BY CASE type WHEN 'table' THEN 0 WHEN 'view' THEN 1 WHEN 'index' THEN 2 ELSE 3 END, rowid`)
	require.NoError(t, err)
	for rows.Next() {
		var stmt string
		require.NoError(t, rows.Scan(&stmt))
		b.WriteString(stmt + ";\n\n")
	}
	require.NoError(t, rows.Err())
	for _, table := range tables(t, s.db, "'table'") {
		cols := strings.Join(columns(t, s.db, table), ", ")
		for _, row := range tableRows(t, s.db, table) {
			fmt.Fprintf(&b, "INSERT INTO %s (%s) VALUES (%s);\n", ident(table), cols, row)
		}
	}
	fmt.Fprintf(&b, "PRAGMA user_version = %d;\n", lastVersion(ms))
	return b.String()
}

// fileState is everything a database file holds, as lines to compare: its
// schema version, every object of sqlite_master and every row of every
// table (SQLite's and FTS5's own included).
func fileState(t *testing.T, db *sql.DB) []string {
	t.Helper()
	var version int
	require.NoError(t, db.QueryRow("PRAGMA user_version").Scan(&version))
	state := []string{fmt.Sprint("user_version ", version)}
	rows, err := db.Query(`SELECT type || ' ' || name || ' on ' || tbl_name || ': ' || coalesce(sql, '') FROM sqlite_master ORDER BY 1`)
	require.NoError(t, err)
	for rows.Next() {
		var line string
		require.NoError(t, rows.Scan(&line))
		state = append(state, line)
	}
	require.NoError(t, rows.Err())
	for _, table := range tables(t, db, "'table', 'shadow'") {
		for _, row := range tableRows(t, db, table) {
			state = append(state, table+": "+row)
		}
	}
	return state
}

// tables is the name of every table of the main schema whose type is
// among types (an SQL list), sorted.
func tables(t *testing.T, db *sql.DB, types string) []string {
	t.Helper()
	rows, err := db.Query("SELECT name FROM pragma_table_list WHERE schema = 'main' AND type IN (" + types + ") AND name != 'sqlite_schema' ORDER BY name")
	require.NoError(t, err)
	var names []string
	for rows.Next() {
		var name string
		require.NoError(t, rows.Scan(&name))
		names = append(names, name)
	}
	require.NoError(t, rows.Err())
	return names
}

// columns is table's columns, in order, each quoted as an SQL name.
func columns(t *testing.T, db *sql.DB, table string) []string {
	t.Helper()
	rows, err := db.Query("SELECT name FROM pragma_table_info(?) ORDER BY cid", table)
	require.NoError(t, err)
	var cols []string
	for rows.Next() {
		var col string
		require.NoError(t, rows.Scan(&col))
		cols = append(cols, ident(col))
	}
	require.NoError(t, rows.Err())
	return cols
}

// tableRows is each row of table as its values written in SQL (quote()),
// comma-separated, sorted.
func tableRows(t *testing.T, db *sql.DB, table string) []string {
	t.Helper()
	cols := columns(t, db, table)
	for i, c := range cols {
		cols[i] = "quote(" + c + ")"
	}
	rows, err := db.Query("SELECT " + strings.Join(cols, " || ', ' || ") + " FROM " + ident(table))
	require.NoError(t, err)
	var out []string
	for rows.Next() {
		var row string
		require.NoError(t, rows.Scan(&row))
		out = append(out, row)
	}
	require.NoError(t, rows.Err())
	sort.Strings(out)
	return out
}

// ident quotes an SQL name.
func ident(name string) string {
	return `"` + strings.ReplaceAll(name, `"`, `""`) + `"`
}

package store

import (
	"context"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"
)

// migrated is an empty database at the current schema, built once by every
// migration (a first start makes it from schema.sql, the same file:
// TestANewDatabaseIsWhatEveryMigrationMakes); openTemp gives each test a copy:
// migrating anew for each test was a fifth of the package's CPU.
var migrated struct {
	once sync.Once
	dir  string // holds the migrated database, closed
	err  error
}

// tenThousand is a database holding a conversation of 10,000 messages (and
// one beside it that a page must never reach), seeded once for the tests
// that page through it: seeding is most of their cost under -race. Each
// test opens a copy of its own.
var tenThousand struct {
	once sync.Once
	dir  string // holds the seeded database, closed
	conv string
	ids  []string
	err  error
}

func TestMain(m *testing.M) {
	code := m.Run()
	for _, dir := range []string{migrated.dir, tenThousand.dir} {
		if dir != "" {
			os.RemoveAll(dir)
		}
	}
	os.Exit(code)
}

// openTemp opens a copy of the migrated empty database in the test's own
// folder, and returns it and its path.
func openTemp(t *testing.T) (*Store, string) {
	t.Helper()
	migrated.once.Do(func() {
		var s *Store
		if s, migrated.dir, migrated.err = openSeed(); migrated.err == nil {
			migrated.err = s.Close()
		}
	})
	require.NoError(t, migrated.err, "migrating an empty database")
	return openCopy(t, migrated.dir)
}

// openTenThousand opens a copy of the seeded database in the test's own
// folder, and returns the long conversation's id and its message ids.
func openTenThousand(t *testing.T) (*Store, string, []string) {
	t.Helper()
	tenThousand.once.Do(func() { tenThousand.err = seedTenThousand(t) })
	require.NoError(t, tenThousand.err, "seeding the 10,000 messages")
	s, _ := openCopy(t, tenThousand.dir)
	return s, tenThousand.conv, tenThousand.ids
}

// openCopy opens, in the test's own folder, a copy of the closed database
// in dir.
func openCopy(t *testing.T, dir string) (*Store, string) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, FileName))
	require.NoError(t, err)
	path := filepath.Join(t.TempDir(), FileName)
	require.NoError(t, os.WriteFile(path, data, 0o600))
	s, err := Open(context.Background(), path)
	require.NoError(t, err)
	t.Cleanup(func() { s.Close() })
	return s, path
}

// openSeed opens a new database in a folder of its own, built by every
// migration, for a seed the tests copy.
func openSeed() (*Store, string, error) {
	dir, err := os.MkdirTemp("", "errand-store-test-")
	if err != nil {
		return nil, "", err
	}
	ms, err := migrations()
	if err != nil {
		return nil, dir, err
	}
	s, err := openMigrated(context.Background(), filepath.Join(dir, FileName), ms, "")
	return s, dir, err
}

func seedTenThousand(t *testing.T) error {
	s, dir, err := openSeed()
	tenThousand.dir = dir
	if err != nil {
		return err
	}
	c, other := newConversation(t, s), newConversation(t, s)
	tenThousand.conv = c.ID
	tenThousand.ids = seedMessages(t, s, c.ID, other.ID, 10000)
	return s.Close() // its write-ahead log goes into the file
}

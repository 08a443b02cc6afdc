package store

import (
	"context"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"
)

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
	if tenThousand.dir != "" {
		os.RemoveAll(tenThousand.dir)
	}
	os.Exit(code)
}

// openTenThousand opens a copy of the seeded database in the test's own
// folder, and returns the long conversation's id and its message ids.
func openTenThousand(t *testing.T) (*Store, string, []string) {
	t.Helper()
	tenThousand.once.Do(func() { tenThousand.err = seedTenThousand(t) })
	require.NoError(t, tenThousand.err, "seeding the 10,000 messages")
	data, err := os.ReadFile(filepath.Join(tenThousand.dir, FileName))
	require.NoError(t, err)
	path := filepath.Join(t.TempDir(), FileName)
	require.NoError(t, os.WriteFile(path, data, 0o600))
	s, err := Open(context.Background(), path)
	require.NoError(t, err)
	t.Cleanup(func() { s.Close() })
	return s, tenThousand.conv, tenThousand.ids
}

func seedTenThousand(t *testing.T) error {
	dir, err := os.MkdirTemp("", "errand-store-test-")
	if err != nil {
		return err
	}
	tenThousand.dir = dir
	s, err := Open(context.Background(), filepath.Join(dir, FileName))
	if err != nil {
		return err
	}
	c, other := newConversation(t, s), newConversation(t, s)
	tenThousand.conv = c.ID
	tenThousand.ids = seedMessages(t, s, c.ID, other.ID, 10000)
	return s.Close() // its write-ahead log goes into the file
}

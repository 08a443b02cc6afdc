package secrets

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/errand-app/errand/backend/logfile"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/zalando/go-keyring"
)

type memRing map[string]string

func (m memRing) Set(s, u, p string) error { m[s+u] = p; return nil }
func (m memRing) Get(s, u string) (string, error) {
	if v, ok := m[s+u]; ok {
		return v, nil
	}
	return "", keyring.ErrNotFound
}
func (m memRing) Delete(s, u string) error { delete(m, s+u); return nil }

type brokenRing struct{}

var errNoBus = errors.New("no session bus")

func (brokenRing) Set(string, string, string) error   { return errNoBus }
func (brokenRing) Get(string, string) (string, error) { return "", errNoBus }
func (brokenRing) Delete(string, string) error        { return errNoBus }

func TestKeysGoToTheKeyringWhenThereIsOne(t *testing.T) {
	ring := memRing{}
	dir := t.TempDir()
	s := Open(ring, dir)
	assert.Equal(t, InKeyring, s.Where())
	assert.Contains(t, s.Note(), "system keyring")
	require.NoError(t, s.Set("provider:openai", "sk-secret-123"))
	got, err := s.Get("provider:openai")
	require.NoError(t, err)
	assert.Equal(t, "sk-secret-123", got)
	assert.Equal(t, "sk-secret-123", ring["Errandprovider:openai"])
	assert.NoFileExists(t, filepath.Join(dir, "secrets.json"), "nothing on disk")
	assert.Len(t, ring, 1, "the probe left nothing behind")

	require.NoError(t, s.Set("provider:openai", ""))
	got, err = s.Get("provider:openai")
	require.NoError(t, err)
	assert.Empty(t, got)
}

func TestWithoutAKeyringKeysGoToAPrivateFile(t *testing.T) {
	dir := t.TempDir()
	s := Open(brokenRing{}, dir)
	assert.Equal(t, InFile, s.Where())
	assert.Contains(t, s.Note(), "readable only by you")
	require.NoError(t, s.Set("provider:custom", "key-abc"))
	require.NoError(t, s.Set("provider:openai", "key-def"))
	fi, err := os.Stat(filepath.Join(dir, "secrets.json"))
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o600), fi.Mode().Perm())

	again := Open(brokenRing{}, dir)
	got, err := again.Get("provider:custom")
	require.NoError(t, err)
	assert.Equal(t, "key-abc", got)
	require.NoError(t, again.Delete("provider:custom"))
	got, _ = again.Get("provider:custom")
	assert.Empty(t, got)
	got, _ = again.Get("provider:openai")
	assert.Equal(t, "key-def", got)

	require.NoError(t, os.WriteFile(filepath.Join(dir, "secrets.json"), []byte("{broken"), 0o600))
	_, err = again.Get("provider:openai")
	assert.ErrorContains(t, err, "damaged")
}

func TestAKeyThatCannotTravelInAHeaderIsNotStored(t *testing.T) {
	for _, ring := range []Keyring{memRing{}, brokenRing{}} {
		s := Open(ring, t.TempDir())
		for _, k := range []string{"sk-abc\r\nX-Evil: 1", "sk\x00abc", strings.Repeat("k", 5000)} {
			err := s.Set("provider:openai", k)
			require.Error(t, err)
			assert.NotContains(t, err.Error(), "sk-abc")
		}
		got, err := s.Get("provider:openai")
		require.NoError(t, err)
		assert.Empty(t, got)
	}
}

// Every key the store takes or hands out is scrubbed from the log, even
// one a previous run stored.
func TestKeysAreToldToTheLogsRedactor(t *testing.T) {
	ring := memRing{}
	require.NoError(t, Open(ring, t.TempDir()).Set("provider:openai", "ring-key-set-0001"))
	assert.Equal(t, logfile.Redacted, logfile.Secrets.Redact("ring-key-set-0001"))

	ring[service+"provider:openrouter"] = "ring-key-earlier-0002"
	v, err := Open(ring, t.TempDir()).Get("provider:openrouter")
	require.NoError(t, err)
	assert.Equal(t, "ring-key-earlier-0002", v)
	assert.Equal(t, logfile.Redacted, logfile.Secrets.Redact("ring-key-earlier-0002"))

	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "secrets.json"), []byte(`{"provider:custom":"file-key-earlier-0003"}`), 0o600))
	_, err = Open(nil, dir).Get("provider:ollama")
	require.NoError(t, err)
	assert.Equal(t, logfile.Redacted, logfile.Secrets.Redact("file-key-earlier-0003"), "the whole file was read")
}

// askedRing is a keyring that records every call.
type askedRing struct {
	memRing
	calls int
}

func (r *askedRing) Set(s, u, p string) error { r.calls++; return r.memRing.Set(s, u, p) }
func (r *askedRing) Get(s, u string) (string, error) {
	r.calls++
	return r.memRing.Get(s, u)
}
func (r *askedRing) Delete(s, u string) error { r.calls++; return r.memRing.Delete(s, u) }

// Opening the store (at Errand's start, before the window) asks the
// keyring nothing: it is probed when a key is first wanted.
func TestTheKeyringIsProbedWhenAKeyIsFirstWantedNotAtOpen(t *testing.T) {
	ring := &askedRing{memRing: memRing{}}
	s := Open(ring, t.TempDir())
	assert.Zero(t, ring.calls, "Open asks the keyring nothing")
	got, err := s.Get("provider:openai")
	require.NoError(t, err)
	assert.Empty(t, got)
	assert.Equal(t, 4, ring.calls, "the probe (set, get, delete), then the key")
	assert.Equal(t, InKeyring, s.Where())
	assert.Equal(t, 4, ring.calls, "probed once")
}

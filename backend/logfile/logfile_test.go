package logfile

import (
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/errand-app/errand/backend/chat"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func logFiles(t *testing.T, dir string) map[string]string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	files := map[string]string{}
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		require.NoError(t, err)
		files[e.Name()] = string(b)
	}
	return files
}

func TestRotationKeepsAtMostKeepOldFiles(t *testing.T) {
	dir := t.TempDir()
	w, err := OpenWriter(filepath.Join(dir, "errand.log"), 100, 2)
	require.NoError(t, err)
	defer w.Close()
	for i := range 50 {
		_, err := fmt.Fprintf(w, "line %02d ......................\n", i) // 32 bytes
		require.NoError(t, err)
	}
	files := logFiles(t, dir)
	assert.Len(t, files, 3, "the file and two old ones: %v", files)
	for name, text := range files {
		assert.LessOrEqual(t, len(text), 100, name)
		assert.True(t, strings.HasSuffix(text, "\n"), "%s holds whole lines", name)
	}
	assert.Contains(t, files["errand.log"], "line 49", "the newest lines are in the file")
	assert.Contains(t, files["errand.log.1"], fmt.Sprintf("line %02d", 49-len(strings.Split(strings.TrimSpace(files["errand.log"]), "\n"))))
	assert.NotContains(t, files["errand.log.2"]+files["errand.log.1"]+files["errand.log"], "line 00", "the oldest are gone")
}

func TestReopeningAppendsAndCountsWhatIsThere(t *testing.T) {
	path := filepath.Join(t.TempDir(), "logs", "errand.log")
	w, err := OpenWriter(path, 64, 1)
	require.NoError(t, err)
	_, err = w.Write([]byte(strings.Repeat("a", 40) + "\n"))
	require.NoError(t, err)
	require.NoError(t, w.Close())
	_, err = w.Write([]byte("late\n"))
	assert.ErrorIs(t, err, os.ErrClosed)

	w, err = OpenWriter(path, 64, 1)
	require.NoError(t, err)
	defer w.Close()
	_, err = w.Write([]byte(strings.Repeat("b", 40) + "\n"))
	require.NoError(t, err)
	files := logFiles(t, filepath.Dir(path))
	assert.Equal(t, strings.Repeat("a", 40)+"\n", files["errand.log.1"], "what was there counted toward the cap")
	assert.Equal(t, strings.Repeat("b", 40)+"\n", files["errand.log"])

	fi, err := os.Stat(path)
	require.NoError(t, err)
	if os.PathSeparator == '/' {
		assert.Equal(t, fs.FileMode(0o600), fi.Mode().Perm(), "only its owner reads the log")
	}
}

func TestARecordLargerThanTheCapIsCut(t *testing.T) {
	dir := t.TempDir()
	w, err := OpenWriter(filepath.Join(dir, "errand.log"), 50, 1)
	require.NoError(t, err)
	defer w.Close()
	n, err := w.Write([]byte(strings.Repeat("x", 500) + "\n"))
	require.NoError(t, err)
	assert.Equal(t, 501, n, "the caller is told all of it was taken")
	files := logFiles(t, dir)
	assert.Len(t, files["errand.log"], 50)
	assert.True(t, strings.HasSuffix(files["errand.log"], "\n"))
}

func TestConcurrentWritesKeepWholeLines(t *testing.T) {
	dir := t.TempDir()
	w, err := OpenWriter(filepath.Join(dir, "errand.log"), 4096, 3)
	require.NoError(t, err)
	defer w.Close()
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 100 {
				fmt.Fprintf(w, "g%d line %03d\n", g, i)
			}
		}()
	}
	wg.Wait()
	for name, text := range logFiles(t, dir) {
		for _, line := range strings.Split(strings.TrimSuffix(text, "\n"), "\n") {
			assert.Regexp(t, `^g\d line \d{3}$`, line, name)
		}
	}
}

func TestRedactorScrubsKnownSecretsAndSecretShapes(t *testing.T) {
	r := &Redactor{}
	r.Add("", "abc", "  my-local-key-42  ", "my-local-key-42-and-more")
	cases := map[string]string{
		"the key my-local-key-42 was refused":            "the key [redacted] was refused",
		"longer my-local-key-42-and-more goes whole":     "longer [redacted] goes whole",
		"abc is too short to be a key":                   "abc is too short to be a key",
		"Authorization: Bearer eyJhbGciOi.J9.sig":        "Authorization: [redacted]",
		`"authorization": "Basic dXNlcjpwYXNz"`:          `"authorization": "[redacted]"`,
		"X-Api-Key: 0123456789abcdef":                    "X-Api-Key: [redacted]",
		"sent with bearer 0123456789abcdef":              "sent with bearer [redacted]",
		"key sk-proj-AbC_123-xyz7890 rejected":           "key [redacted] rejected",
		"GET https://x.test/v1/models?key=AIzaSy123&a=1": "GET https://x.test/v1/models?key=[redacted]&a=1",
		"api_key=hunter22 token=t0k3n":                   "api_key=[redacted] token=[redacted]",
		`{"api_key": "s3cr3t", "model": "m"}`:            `{"api_key": "[redacted]", "model": "m"}`,
		"proxy https://me:pa55word@proxy.test:8080 down": "proxy https://me:[redacted]@proxy.test:8080 down",
		"an ordinary monkey=banana line":                 "an ordinary monkey=banana line",
		"GET https://x.test/m?key=AIzaSy123: EOF":        "GET https://x.test/m?key=[redacted]: EOF",
		"(Authorization: Bearer abcdef123456)":           "(Authorization: [redacted])",
	}
	for in, want := range cases {
		assert.Equal(t, want, r.Redact(in), in)
	}
	var none *Redactor
	assert.Equal(t, "key=[redacted]", none.Redact("key=x1"), "a nil Redactor still knows the shapes")
}

// The whole path: errors that carry a key, logged through the handler to
// the rotating file. The log has the causes and never the key.
func TestTheLogHasTheCausesAndNeverTheKey(t *testing.T) {
	const key = "local-9f8e7d6c5b4a-key"
	r := &Redactor{}
	r.Add(key)
	dataDir := t.TempDir()
	w, err := Open(dataDir)
	require.NoError(t, err)
	log := slog.New(NewHandler(slog.NewTextHandler(w, nil), r))

	// A driver error behind a person's message, the key in its text.
	cause := fmt.Errorf("save: %w", errors.New("auth failed for token "+key))
	log.Error("internal error", "err", chat.Wrap(chat.CodeStorage, cause, "Errand could not save"))
	// A URL with the key as a query parameter, in a *url.Error.
	_, uerr := url.Parse("http://x.test/v1/%zz?key=" + key)
	log.Error("request failed", "err", uerr, "url", "http://x.test/v1?key="+key)
	// A header, in a group and in With attributes, and in the message.
	log.With("auth", "Bearer "+key).Warn("retrying with "+key,
		slog.Group("req", slog.String("Authorization", "Bearer "+key), slog.Any("headers", map[string]string{"Authorization": "Bearer " + key})))
	require.NoError(t, w.Close())

	b, err := os.ReadFile(Path(dataDir))
	require.NoError(t, err)
	text := string(b)
	assert.NotContains(t, text, key)
	assert.NotContains(t, text, "9f8e7d6c5b4a")
	assert.Contains(t, text, "Errand could not save: caused by: save: auth failed for token [redacted]", "the cause is written")
	assert.Contains(t, text, "invalid URL escape")
	assert.Contains(t, text, "retrying with [redacted]")
	assert.Contains(t, text, "map[Authorization:[redacted]")
	assert.Equal(t, 3, strings.Count(text, "\n"), "one line per record: %s", text)
}

func TestHandlerKeepsOtherValuesAndCutsHugeOnes(t *testing.T) {
	var buf strings.Builder
	log := slog.New(NewHandler(slog.NewTextHandler(&buf, nil), &Redactor{}))
	var nilErr *os.PathError
	log.Info("values", "n", 42, "ok", true, "nil", nil, "typed-nil", error(nilErr), "huge", strings.Repeat("é", MaxValueLen))
	out := buf.String()
	assert.Contains(t, out, "n=42 ok=true")
	assert.Contains(t, out, "nil=<nil>")
	assert.Contains(t, out, "(its text could not be read)")
	assert.Contains(t, out, fmt.Sprintf("… (%d bytes)", 2*MaxValueLen))
	assert.Less(t, len(out), MaxValueLen+500)
}

package app

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/errand-app/errand/backend/chat"
	"github.com/errand-app/errand/backend/logfile"
	"github.com/errand-app/errand/backend/modelserver/compat"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// captureLog sends the default logger, scrubbed as in Errand, to a buffer
// for the test.
func captureLog(t *testing.T) *bytes.Buffer {
	t.Helper()
	var buf bytes.Buffer
	prev := slog.Default()
	slog.SetDefault(slog.New(logfile.New(&buf)))
	t.Cleanup(func() { slog.SetDefault(prev) })
	return &buf
}

func TestInternalAndStorageErrorsCarryTheirCausesNeverAKey(t *testing.T) {
	const key = "env-key-51d0c4a7e2"
	newAppWith(t, Config{DataDir: t.TempDir(), Keyring: &fakeKeyring{}, APIKey: key})
	logs := captureLog(t)

	// A storage error: the person's message as it was, the driver's
	// words in the details.
	cause := fmt.Errorf("save: %w", errors.New("disk I/O error, token "+key))
	fe := frontendError(chat.Wrap(chat.CodeStorage, cause, "Errand could not save: the disk is full."))
	assert.Equal(t, chat.CodeStorage, fe.Code)
	assert.Equal(t, "Errand could not save: the disk is full.", fe.Message)
	assert.Equal(t, "Errand could not save: the disk is full.: caused by: save: disk I/O error, token [redacted]", fe.Details)

	// An internal *chat.Error whose message is its cause's text.
	_, perr := os.Open(filepath.Join(t.TempDir(), "missing", "secrets.json"))
	wrapped := chat.Wrap(chat.CodeInternal, perr, "%v", perr)
	require.ErrorIs(t, wrapped, fs.ErrNotExist)
	fe = frontendError(wrapped)
	assert.Equal(t, perr.Error(), fe.Message)
	assert.Empty(t, fe.Details, "the details would say nothing more")

	// An error nobody told: the message says so, and keeps no key.
	fe = frontendError(fmt.Errorf("GET https://x.test/v1/models?key=%s: %w", key, io.ErrUnexpectedEOF))
	assert.Equal(t, chat.CodeInternal, fe.Code)
	assert.Equal(t, "Something went wrong inside Errand: GET https://x.test/v1/models?key=[redacted]: unexpected EOF", fe.Message)
	assert.Empty(t, fe.Details)

	// Other codes are the person's business: no details, no log line.
	fe = frontendError(chat.Wrap(chat.CodeConflict, errors.New("UNIQUE constraint failed"), "already running"))
	assert.Equal(t, FrontendError{Code: chat.CodeConflict, Message: "already running"}, fe)

	text, ok := FormatError(chat.Wrap(chat.CodeStorage, errors.New("database disk image is malformed (11)"), "the database file is damaged")).(string)
	require.True(t, ok)
	var sent map[string]string
	require.NoError(t, json.Unmarshal([]byte(text), &sent))
	assert.Equal(t, "the database file is damaged: caused by: database disk image is malformed (11)", sent["details"])

	out := logs.String()
	assert.Contains(t, out, "save: disk I/O error, token [redacted]")
	assert.Contains(t, out, "unexpected EOF")
	assert.Contains(t, out, "database disk image is malformed (11)")
	assert.NotContains(t, out, "UNIQUE constraint", "a conflict is not logged")
	assert.NotContains(t, out, key)
}

// A task that fails writes why to the log file in the data folder: the
// person's message and the server's reply behind it, and never the key,
// though the server repeats it.
func TestAFailedTaskLogsItsCauseToTheLogFileWithoutTheKey(t *testing.T) {
	const key = "env-key-0a1b2c3d4e5f"
	srv := compat.NewServer(func(*compat.Request) compat.Reply {
		return compat.Reply{Status: 400, ErrorMessage: "no such deployment for key " + key + " (Authorization: Bearer " + key + ")"}
	})
	url, stop := srv.Start()
	defer stop()

	dir := t.TempDir()
	prev := slog.Default()
	stopLog, err := StartLog(dir, io.Discard)
	require.NoError(t, err)
	t.Cleanup(func() { slog.SetDefault(prev) })

	a := newAppWith(t, Config{DataDir: dir, Keyring: &fakeKeyring{}, BaseURL: url, APIKey: key, Model: "m"})
	c, err := a.Conversations.CreateConversation()
	require.NoError(t, err)
	task, err := a.Runner.SendChat(c.ID, "hello")
	require.NoError(t, err)
	waitFor(t, func() bool {
		got, err := a.Runner.GetTask(task.ID)
		return err == nil && got.Status == chat.StatusError
	})
	got, err := a.Runner.GetTask(task.ID)
	require.NoError(t, err)
	assert.Contains(t, got.ErrorMessage, "The model server rejected the request (HTTP 400)")
	assert.NotContains(t, got.ErrorMessage, key)
	a.Shutdown(context.Background())
	require.NoError(t, stopLog())

	b, err := os.ReadFile(filepath.Join(dir, "logs", "errand.log"))
	require.NoError(t, err)
	log := string(b)
	var line string
	for _, l := range strings.Split(log, "\n") {
		if strings.Contains(l, `msg="task failed"`) {
			line = l
		}
	}
	require.NotEmpty(t, line, "a line for the failed task: %s", log)
	assert.Contains(t, line, "task="+task.ID)
	assert.Contains(t, line, "code=model")
	assert.Contains(t, line, "The model server rejected the request (HTTP 400)")
	assert.Contains(t, line, "caused by: OpenAI API error: 400 Bad Request", "the server's reply behind the message")
	assert.NotContains(t, log, key)
	assertNotInFiles(t, dir, key)
}

// A refusal of a person's input names its field in the JSON the window
// gets, so the window marks that field; an error about no field names none.
func TestAnInvalidInputsFieldReachesTheWindow(t *testing.T) {
	a := newApp(t)
	sent := func(err error) map[string]string {
		t.Helper()
		require.Error(t, err)
		text, ok := FormatError(err).(string)
		require.True(t, ok)
		var out map[string]string
		require.NoError(t, json.Unmarshal([]byte(text), &out))
		return out
	}

	st, err := a.Settings.GetSettings()
	require.NoError(t, err)
	st.Limits.MaxSteps = 0
	_, err = a.Settings.SaveSettings(st)
	got := sent(err)
	assert.Equal(t, "maxSteps", got["field"])
	assert.Equal(t, "The step limit must be between 1 and 10000.", got["message"])

	_, err = a.Providers.SaveProvider(ProviderInput{Preset: "custom", BaseURL: "ftp://x", Model: "m"})
	assert.Equal(t, "baseUrl", sent(err)["field"])

	_, err = a.Memory.AddFact(chat.Fact{Key: "editor", Value: "", Scope: chat.ScopeGlobal})
	assert.Equal(t, "value", sent(err)["field"])

	got = sent(chat.Errorf(chat.CodeConflict, "The task is still working."))
	_, named := got["field"]
	assert.False(t, named, "no field is named: %v", got)
}

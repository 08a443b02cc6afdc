package app

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/errand-app/errand/backend/chat"
	"github.com/errand-app/errand/backend/modelserver/compat"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/zalando/go-keyring"
)

// fakeKeyring is an OS keyring in memory.
type fakeKeyring struct {
	mu   sync.Mutex
	keys map[string]string
}

func (f *fakeKeyring) Set(s, u, p string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.keys == nil {
		f.keys = map[string]string{}
	}
	f.keys[s+"/"+u] = p
	return nil
}

func (f *fakeKeyring) Get(s, u string) (string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if v, ok := f.keys[s+"/"+u]; ok {
		return v, nil
	}
	return "", keyring.ErrNotFound
}

func (f *fakeKeyring) Delete(s, u string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	delete(f.keys, s+"/"+u)
	return nil
}

func newApp(t *testing.T) *App {
	t.Helper()
	return newAppWith(t, Config{DataDir: t.TempDir(), Keyring: &fakeKeyring{}})
}

func newAppWith(t *testing.T, cfg Config) *App {
	t.Helper()
	a, err := New(context.Background(), cfg)
	require.NoError(t, err)
	t.Cleanup(func() { a.Shutdown(context.Background()) })
	return a
}

func code(err error) string {
	if err == nil {
		return ""
	}
	return frontendError(err).Code
}

func TestBadInputGetsClearErrorsAndChangesNothing(t *testing.T) {
	t.Parallel()
	a := newApp(t)
	c, err := a.Conversations.CreateConversation()
	require.NoError(t, err)

	_, err = a.Runner.StartTask(c.ID, "   \n ")
	assert.Equal(t, chat.CodeInvalid, code(err))
	_, err = a.Runner.SendChat(c.ID, "")
	assert.Equal(t, chat.CodeInvalid, code(err))
	_, err = a.Runner.StartTask("", "hello")
	assert.Equal(t, chat.CodeInvalid, code(err))
	_, err = a.Runner.StartTask("missing", "hello")
	assert.Equal(t, chat.CodeNotFound, code(err))
	_, err = a.Runner.StopTask("missing")
	assert.Equal(t, chat.CodeNotFound, code(err))
	assert.Equal(t, chat.CodeNotFound, code(a.Runner.UserResponse("missing", "yes")))
	assert.Equal(t, chat.CodeInvalid, code(a.Runner.UserResponse("", "yes")))
	_, err = a.Conversations.RenameConversation(c.ID, "  ")
	assert.Equal(t, chat.CodeInvalid, code(err))
	_, err = a.Conversations.LoadConversation("missing")
	assert.Equal(t, chat.CodeNotFound, code(err))
	assert.Equal(t, chat.CodeNotFound, code(a.Conversations.DeleteConversation("missing")))

	view, err := a.Conversations.LoadConversation(c.ID)
	require.NoError(t, err)
	assert.Empty(t, view.Messages)
	assert.Empty(t, view.Tasks)
	assert.Equal(t, "", view.Conversation.Title)
}

func TestDemoTaskAnsweredThroughTheBindings(t *testing.T) {
	t.Parallel()
	a := newApp(t)
	info, err := a.Conversations.ModelInfo()
	require.NoError(t, err)
	assert.True(t, info.Demo)
	c, err := a.Conversations.CreateConversation()
	require.NoError(t, err)
	task, err := a.Runner.StartTask(c.ID, "Sort my photos")
	require.NoError(t, err)

	waitFor(t, func() bool {
		got, err := a.Runner.GetTask(task.ID)
		return err == nil && got.Status == chat.StatusWaitingUser
	})
	got, _ := a.Runner.GetTask(task.ID)
	require.NotEmpty(t, got.PendingChoices)
	require.NoError(t, a.Runner.UserResponse(task.ID, got.PendingChoices[0]))
	waitFor(t, func() bool {
		got, err := a.Runner.GetTask(task.ID)
		return err == nil && got.Status == chat.StatusCompleted
	})

	list, err := a.Conversations.ListConversations()
	require.NoError(t, err)
	require.Len(t, list, 1)
	assert.Equal(t, "Sort my photos", list[0].Title)
	assert.Nil(t, list[0].ActiveTask)

	res, err := a.Runner.StopTask(task.ID)
	require.NoError(t, err)
	assert.False(t, res.Stopped)
	assert.Contains(t, res.Message, "already completed")
}

func TestDeleteStopsTheRunningTaskFirst(t *testing.T) {
	t.Parallel()
	a := newApp(t)
	c, err := a.Conversations.CreateConversation()
	require.NoError(t, err)
	task, err := a.Runner.StartTask(c.ID, "Something long")
	require.NoError(t, err)
	require.NoError(t, a.Conversations.DeleteConversation(c.ID))
	_, ok := a.runner.ActiveTask(c.ID)
	assert.False(t, ok)
	_, err = a.Runner.GetTask(task.ID)
	assert.Equal(t, chat.CodeNotFound, code(err))
}

func TestFormatErrorCodesEverythingAsJSONText(t *testing.T) {
	t.Parallel()
	assert.Nil(t, FormatError(nil))
	// Wails turns the formatter's value into new Error(value) in the
	// window: it must be text, or the message is lost.
	text, ok := FormatError(chat.Errorf(chat.CodeConflict, "busy")).(string)
	require.True(t, ok)
	var fe FrontendError
	require.NoError(t, json.Unmarshal([]byte(text), &fe))
	assert.Equal(t, FrontendError{Code: chat.CodeConflict, Message: "busy"}, fe)
	fe = frontendError(context.DeadlineExceeded)
	assert.Equal(t, chat.CodeInternal, fe.Code)
	assert.Contains(t, fe.Message, "Something went wrong inside Errand")
}

func TestConfigFromEnv(t *testing.T) {
	t.Setenv("ERRAND_DATA_DIR", "/tmp/x")
	t.Setenv("OPENAI_BASE_URL", "")
	t.Setenv("OPENAI_API_KEY", "")
	t.Setenv("ERRAND_MODEL", "")
	c, err := ConfigFromEnv()
	require.NoError(t, err)
	assert.Equal(t, "/tmp/x", c.DataDir)
	assert.Empty(t, c.APIKey)

	t.Setenv("OPENAI_API_KEY", "sk-test")
	c, err = ConfigFromEnv()
	require.NoError(t, err)
	assert.Equal(t, "sk-test", c.APIKey)

	t.Setenv("OPENAI_BASE_URL", "http://localhost:11434/v1")
	t.Setenv("ERRAND_MODEL", "llama3.1")
	c, err = ConfigFromEnv()
	require.NoError(t, err)
	assert.Equal(t, "http://localhost:11434/v1", c.BaseURL)
	assert.Equal(t, "llama3.1", c.Model)
}

func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal("timed out")
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func TestSettingsAreValidatedAndStored(t *testing.T) {
	t.Parallel()
	a := newApp(t)
	s, err := a.Settings.GetSettings()
	require.NoError(t, err)
	assert.Equal(t, 50, s.Limits.MaxSteps)
	assert.False(t, s.AutoApprove["writes"], "writes ask by default")

	bad := s
	bad.Limits.MaxSteps = 0
	_, err = a.Settings.SaveSettings(bad)
	assert.Equal(t, chat.CodeInvalid, code(err))
	bad = s
	bad.AutoApprove = map[string]bool{"everything": true}
	_, err = a.Settings.SaveSettings(bad)
	assert.Equal(t, chat.CodeInvalid, code(err))

	s.Limits.MaxCostUSD = 2.5
	s.AutoApprove["writes"] = true
	s.Prices["my-model"] = chat.Price{InputPerMTok: 1, OutputPerMTok: 2}
	saved, err := a.Settings.SaveSettings(s)
	require.NoError(t, err)
	assert.Equal(t, 2.5, saved.Limits.MaxCostUSD)
	again, err := a.Settings.GetSettings()
	require.NoError(t, err)
	assert.Equal(t, saved, again)
}

func TestWorkspaceFolder(t *testing.T) {
	t.Parallel()
	a := newApp(t)
	c, err := a.Conversations.CreateConversation()
	require.NoError(t, err)
	dir, err := a.Conversations.WorkspaceDir(c.ID)
	require.NoError(t, err)
	assert.Contains(t, dir, c.ID, "each conversation has its own default folder")

	_, err = a.Conversations.SetWorkspace(c.ID, "relative/path")
	assert.Equal(t, chat.CodeInvalid, code(err))
	_, err = a.Conversations.SetWorkspace(c.ID, "/does/not/exist")
	assert.Equal(t, chat.CodeInvalid, code(err))
	chosen := t.TempDir()
	got, err := a.Conversations.SetWorkspace(c.ID, chosen)
	require.NoError(t, err)
	assert.Equal(t, chosen, got.Workspace)
	dir, _ = a.Conversations.WorkspaceDir(c.ID)
	assert.Equal(t, chosen, dir)
	got, err = a.Conversations.SetWorkspace(c.ID, "")
	require.NoError(t, err)
	assert.Empty(t, got.Workspace)
}

func TestApprovalBindingsRefuseWhatIsNotWaiting(t *testing.T) {
	t.Parallel()
	a := newApp(t)
	assert.Equal(t, chat.CodeNotFound, code(a.Runner.ApproveTool("missing", "c", false)))
	assert.Equal(t, chat.CodeNotFound, code(a.Runner.DenyTool("missing", "c", "no")))
	assert.Equal(t, chat.CodeNotFound, code(a.Runner.ContinueTask("missing")))
	_, err := a.Runner.RetryTask("missing")
	assert.Equal(t, chat.CodeNotFound, code(err))
	assert.Equal(t, chat.CodeInvalid, code(a.Runner.ApproveTool("", "c", false)))
}

func TestOneErrandPerDataFolder(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	first, err := New(context.Background(), Config{DataDir: dir, Keyring: &fakeKeyring{}})
	require.NoError(t, err)
	assert.True(t, first.Health.Status().Ready)
	assert.False(t, first.Health.Status().ReadOnly)

	_, err = New(context.Background(), Config{DataDir: dir, Keyring: &fakeKeyring{}})
	require.Error(t, err)
	assert.Equal(t, chat.CodeConflict, code(err))
	assert.Contains(t, err.Error(), "already running")
	_, err = Start(context.Background(), Config{DataDir: dir, Keyring: &fakeKeyring{}})
	assert.Equal(t, chat.CodeConflict, code(err), "Start takes the folder before the window, as New does")
	h := Unavailable(Config{DataDir: dir}, err)
	assert.False(t, h.Status().Ready)
	assert.Contains(t, h.Status().Message, "already running")

	first.Shutdown(context.Background())
	again, err := New(context.Background(), Config{DataDir: dir, Keyring: &fakeKeyring{}})
	require.NoError(t, err, "the lock goes with the first instance")
	again.Shutdown(context.Background())
}

// Start opens Errand beside the window's start: its services are bound at
// once, and the page is served only once they are filled in, so that the
// window's first call finds them ready.
func TestThePageIsServedOnceErrandIsOpen(t *testing.T) {
	t.Parallel()
	a, err := Start(context.Background(), Config{DataDir: t.TempDir(), Keyring: &fakeKeyring{}})
	require.NoError(t, err)
	bound := a.Bound()
	page := a.Page(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		assert.NotNil(t, a.Conversations.store, "the services are filled in before the page")
		_, _ = w.Write([]byte("<!doctype html>"))
	}))
	rec := httptest.NewRecorder()
	page.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/", nil))
	assert.Equal(t, "<!doctype html>", rec.Body.String())
	t.Cleanup(func() { a.Shutdown(context.Background()) })
	assert.Same(t, a.Conversations, bound[2], "the services bound are the ones filled in")
	first, err := a.Health.FirstScreen(50, 100)
	require.NoError(t, err)
	assert.True(t, first.Status.Ready)
	require.NotNil(t, first.Open)
	list, err := a.Conversations.ListConversations()
	require.NoError(t, err)
	assert.Len(t, list, 1)
}

// Until open has ended the page is served nothing: a request that goes away
// while it waits is answered 503, and the page's handler never runs.
func TestThePageWaitsForTheOpen(t *testing.T) {
	t.Parallel()
	a := unopened(func() {})
	served := 0
	page := a.Page(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { served++ }))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	rec := httptest.NewRecorder()
	page.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/", nil).WithContext(ctx))
	assert.Equal(t, http.StatusServiceUnavailable, rec.Code)
	assert.Zero(t, served, "nothing is served before the open has ended")
	close(a.opened)
	page.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest(http.MethodGet, "/", nil))
	assert.Equal(t, 1, served, "once open, the page is served")
}

// Closing the window with a task at work asks first; the answer decides.
// With nothing at work (or only a task waiting for the person), it closes.
func TestQuittingWithATaskAtWorkAsksFirst(t *testing.T) {
	t.Parallel()
	srv := compat.NewServer(func(*compat.Request) compat.Reply {
		return compat.Reply{Text: "Working on it", HangAfterText: true}
	})
	url, stop := srv.Start()
	defer stop()
	a := newAppWith(t, Config{DataDir: t.TempDir(), Keyring: &fakeKeyring{}, BaseURL: url, APIKey: "k", Model: "m"})
	var asked []string
	quit := false
	a.askQuit = func(_ context.Context, q string) bool {
		asked = append(asked, q)
		return quit
	}
	assert.False(t, a.BeforeClose(t.Context()), "nothing at work: the window closes")
	assert.Empty(t, asked)

	c, err := a.Conversations.CreateConversation()
	require.NoError(t, err)
	_, err = a.Runner.StartTask(c.ID, "work")
	require.NoError(t, err)
	require.Eventually(t, func() bool { return a.runner.Working() == 1 }, time.Minute, 10*time.Millisecond)
	assert.True(t, a.BeforeClose(t.Context()), "Cancel keeps the window open")
	require.Len(t, asked, 1)
	assert.Contains(t, asked[0], "A task is still working")
	quit = true
	assert.False(t, a.BeforeClose(t.Context()), "Quit closes it")
}

// Package app is the only Go package that knows Wails exists. It wires the
// backend together, binds the services the frontend calls (AgentTaskRunner,
// Conversations), forwards the runner's events to the window, and maps
// errors to {code, message} once, for every bound method.
package app

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/errand-app/errand/app/webmemory"
	"github.com/errand-app/errand/backend/agent"
	"github.com/errand-app/errand/backend/chat"
	"github.com/errand-app/errand/backend/logfile"
	"github.com/errand-app/errand/backend/mcp"
	"github.com/errand-app/errand/backend/modelserver/demo"
	"github.com/errand-app/errand/backend/providers"
	"github.com/errand-app/errand/backend/secrets"
	"github.com/errand-app/errand/backend/store"
	"github.com/errand-app/errand/backend/tools"
	"github.com/wailsapp/wails/v2/pkg/runtime"
)

// App owns the backend for the life of the window.
type App struct {
	store    *store.Store
	runner   *agent.Runner
	idle     *idleRelease // gives back memory when the tasks stop working
	events   *bridge
	secrets  *secrets.Store
	resolver *providers.Resolver
	stopDemo func()
	mcp      *mcp.Manager
	mcpLate  *lateMCP
	// late runs what the first screen does not need, once it is shown.
	late lateStart

	// releaseWindow asks the window to give back memory (webmemory.Release).
	releaseWindow func(context.Context)

	unlock func()
	// opened is closed once open has ended; failed says it could not
	// open (Health then says why, and nothing else runs).
	opened chan struct{}
	failed bool
	// askQuit asks whether to quit with tasks at work (nil: the native dialog).
	askQuit func(ctx context.Context, question string) bool

	notifier    *notifier
	desktop     *wailsDesktop
	desktopDone chan struct{} // ends the notifier's sender
	desktopMu   sync.Mutex    // orders the desktop's late start and its stop
	desktopOff  bool          // stopped: it starts no more

	// The bound services.
	Health        *Health
	Runner        *AgentTaskRunner
	Conversations *Conversations
	Settings      *Settings
	Providers     *Providers
	Memory        *Memory
	Prompts       *Prompts
	Archive       *Archive
	Window        *Window
	// devBound are services bound in the development build only.
	devBound    []any
	MCP         *MCP
	Agents      *Agents
	Checkpoints *Checkpoints
	About       *About
	Attachments *Attachments
}

// New opens the database, ends tasks a previous run left unfinished, and
// connects to the model (starting the demo model when none is configured).
func New(ctx context.Context, cfg Config) (*App, error) {
	unlock, err := lockDataDir(cfg.DataDir)
	if err != nil {
		return nil, err
	}
	a := unopened(unlock)
	defer close(a.opened)
	if err := a.open(ctx, cfg); err != nil {
		return nil, err
	}
	return a, nil
}

// Start is New beside the window's own start: it takes the data folder
// (another Errand holding it is its error), and the services it returns
// can be bound at once; they are filled in once the database is open (on
// an empty data folder, making it waits for the disk). The page waits for
// that (WhenOpen), and so do Startup, BeforeClose and Shutdown. If it
// cannot open, Health says why and nothing else runs.
func Start(ctx context.Context, cfg Config) (*App, error) {
	unlock, err := lockDataDir(cfg.DataDir)
	if err != nil {
		return nil, err
	}
	a := unopened(unlock)
	go func() {
		defer close(a.opened)
		if err := a.open(ctx, cfg); err != nil {
			slog.Error("Errand could not start", "err", err)
			a.failed = true
			a.Health.status, a.Health.first = unavailable(cfg, err), nil
		}
	}()
	return a, nil
}

// unopened makes the bound services of the data folder unlock frees,
// empty until open fills them in.
func unopened(unlock func()) *App {
	a := &App{
		unlock: unlock, events: &bridge{}, stopDemo: func() {}, desktopDone: make(chan struct{}), opened: make(chan struct{}),
		Runner: &AgentTaskRunner{}, Conversations: &Conversations{}, Settings: &Settings{}, Providers: &Providers{},
		Memory: &Memory{}, Prompts: &Prompts{}, Archive: &Archive{}, Window: &Window{}, MCP: &MCP{},
		Agents: &Agents{}, Checkpoints: &Checkpoints{}, About: &About{}, Attachments: &Attachments{},
	}
	a.Health = &Health{opened: a.opened}
	a.releaseWindow = webmemory.Release
	a.Archive.dialogs, a.devBound = withDevDialogs(nativeDialogs{win: &a.Conversations.dialogs})
	return a
}

// WhenOpen holds the page's requests until open has ended, so that the
// window calls no service before it is filled in. A request that goes
// away meanwhile (the window closed) is answered 503 and served nothing.
func (a *App) WhenOpen(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-a.opened:
			next.ServeHTTP(w, r)
		case <-r.Context().Done():
			http.Error(w, "Errand is closing", http.StatusServiceUnavailable)
		}
	})
}

// open is New's work once the data folder is taken, on the services
// unopened made; when it fails, it lets the folder go.
func (a *App) open(ctx context.Context, cfg Config) error {
	logfile.Secrets.Add(cfg.APIKey)
	unlock := a.unlock
	st, err := store.Open(ctx, filepath.Join(cfg.DataDir, store.FileName))
	if err != nil {
		unlock()
		return err
	}
	a.store = st
	a.notifier = newNotifier(func() bool {
		ctx, cancel := callCtx()
		defer cancel()
		s, err := st.Settings(ctx)
		return err == nil && s.Notifications
	}, func(id string) string {
		ctx, cancel := callCtx()
		defer cancel()
		if c, err := st.GetConversation(ctx, id); err == nil && c.Title != "" {
			return c.Title
		}
		return "New conversation"
	})
	a.idle = newIdleRelease(a.releaseMemory)
	a.events.tasks = func(t chat.Task) {
		a.notifier.taskUpdated(t)
		a.idle.taskUpdated(t)
	}
	a.Health.status = Status{Ready: true, ReadOnly: st.ReadOnly(), DataDir: cfg.DataDir}
	if st.ReadOnly() {
		a.Health.status.Message = fmt.Sprintf("The database at %s is read-only: you can read everything, but nothing new can be saved.", st.Path())
	}
	demoURL, stopDemo, err := demo.Start()
	if err != nil {
		st.Close()
		unlock()
		return fmt.Errorf("start the demo model: %w", err)
	}
	a.stopDemo = stopDemo
	ring := cfg.Keyring
	if ring == nil {
		ring = secrets.OSKeyring{}
	}
	a.secrets = secrets.Open(ring, cfg.DataDir)
	a.resolver = &providers.Resolver{
		Env:      providers.Env{BaseURL: cfg.BaseURL, APIKey: cfg.APIKey, Model: cfg.Model},
		Settings: st.Settings,
		Secrets:  a.secrets,
	}
	models := &models{store: st, resolver: a.resolver, demoURL: demoURL}
	workspaces := filepath.Join(cfg.DataDir, "workspaces")
	a.mcp = newMCPManager(st, a.events)
	a.mcpLate = newLateMCP(a.mcp, st, a.secrets)
	a.late.add(a.mcpLate.start)
	keeper, err := openKeeper(ctx, cfg.DataDir, st)
	if err != nil {
		stopDemo()
		st.Close()
		unlock()
		return err
	}
	// Counting the checkpoints' contents walks their folder: on the late
	// start, not before the window (else the first task's first
	// checkpoint would count them).
	a.late.add(func() { keeper.Size() })
	files := openAttachments(cfg.DataDir, st, &a.late)
	a.runner = agent.New(agent.Options{
		Store:         st,
		Providers:     models.forConversation,
		ModelProvider: models.forModel,
		Events:        a.events,
		Tools:         tools.Builtin(),
		Workspace: func(ctx context.Context, conversationID string) (*tools.Workspace, error) {
			return openWorkspace(ctx, st, workspaces, cfg.DataDir, conversationID)
		},
		Facts:       st,
		ToolSource:  a.mcpLate,
		Checkpoints: keeper.ForTask,
		Attachments: files,
	})
	// Readying the tools runs bwrap once: after the first screen.
	a.late.add(a.runner.PrepareTools)
	if interrupted, waiting, err := a.runner.Recover(ctx); err != nil {
		slog.Error("recover unfinished tasks", "err", err)
	} else if interrupted+waiting > 0 {
		slog.Info("tasks left by the last run", "interrupted", interrupted, "waiting", waiting)
	}
	a.idle.count(a.runner.Working)
	*a.Runner = AgentTaskRunner{runner: a.runner, files: files}
	c := a.Conversations
	c.store, c.search, c.events, c.runner, c.models, c.workspaces, c.files = st, st, a.events, a.runner, models, workspaces, files
	a.Archive.store, a.Archive.files = st, files
	*a.Settings = Settings{store: st, runner: a.runner, keeper: keeper}
	*a.Checkpoints = Checkpoints{keeper: keeper, tasks: st, events: a.events}
	*a.Memory = Memory{store: st, events: a.events}
	*a.Prompts = Prompts{store: st}
	*a.Window = Window{notifier: a.notifier, ready: a.late.run, release: a.releaseMemory, snapshot: snapshotIn(cfg.DataDir, st.ReadOnly(), a.Health, newFirstStart(cfg.FirstStart, cfg.CaptureFirstStart))}
	*a.MCP = MCP{store: st, manager: a.mcp, late: a.mcpLate, env: a.secrets}
	*a.Agents = Agents{store: st, runner: a.runner, events: a.events, dialogs: &a.Conversations.dialogs}
	*a.About = About{dataDir: cfg.DataDir, resolver: a.resolver, openFolder: openInFileManager}
	*a.Attachments = Attachments{files: files, openDir: filepath.Join(cfg.DataDir, "opened"), open: openInFileManager}
	*a.Providers = Providers{runner: a.runner, store: st, secrets: a.secrets, resolver: a.resolver, models: models}
	a.Health.first = &firstScreen{conversations: a.Conversations, settings: a.Settings, agents: a.Agents}
	return nil
}

// Bound lists the services to bind to the frontend.
func (a *App) Bound() []any {
	return append([]any{a.Health, a.Runner, a.Conversations, a.Settings, a.Providers, a.Memory, a.Prompts, a.Archive, a.Window, a.MCP, a.Agents, a.Checkpoints, a.About, a.Attachments}, a.devBound...)
}

// Startup is Wails' OnStartup: from here on events reach the window, and
// native dialogs have a parent. Desktop notifications and the MCP servers
// start once the window has shown its first screen (Window.Ready), or
// lateStartAfter from now if it never says so; then what the start alone
// needed is given back.
func (a *App) Startup(ctx context.Context) {
	if <-a.opened; a.failed {
		return
	}
	a.events.attach(ctx)
	a.Conversations.dialogs.set(ctx)
	a.late.add(func() { a.startNotifications(ctx) })
	a.late.add(a.releaseMemory)
	time.AfterFunc(lateStartAfter, a.late.run)
}

// startNotifications readies desktop notifications and sends those of
// tasks that change from now on.
func (a *App) startNotifications(ctx context.Context) {
	a.desktopMu.Lock()
	defer a.desktopMu.Unlock()
	if a.desktopOff {
		return
	}
	a.desktop = startDesktop(ctx)
	active, err := a.store.ActiveTasks(ctx)
	if err != nil {
		slog.Error("read unfinished tasks", "err", err)
	}
	a.notifier.attach(a.desktop, active)
	go a.notifier.send(a.desktopDone)
}

// BeforeClose is Wails' OnBeforeClose (the window's close button, Ctrl+Q):
// with tasks at work it asks first, since quitting cuts them off (each can
// be resumed when Errand opens again). True keeps the window open.
func (a *App) BeforeClose(ctx context.Context) bool {
	if <-a.opened; a.failed {
		return false
	}
	n := a.runner.Working()
	if n == 0 {
		return false
	}
	ask := a.askQuit
	if ask == nil {
		ask = askQuitDialog
	}
	return !ask(ctx, quitQuestion(n))
}

// quitQuestion is what the person is asked before quitting with n tasks at work.
func quitQuestion(n int) string {
	tasks := "A task is"
	if n > 1 {
		tasks = fmt.Sprintf("%d tasks are", n)
	}
	return tasks + " still working. Quit Errand anyway? Quitting stops the work; you can resume it when Errand opens again."
}

// askQuitDialog asks with the native dialog; true to quit.
func askQuitDialog(ctx context.Context, question string) bool {
	answer, err := runtime.MessageDialog(ctx, runtime.MessageDialogOptions{
		Type: runtime.QuestionDialog, Title: "Quit Errand?", Message: question,
		Buttons: []string{"Quit", "Cancel"}, DefaultButton: "Cancel", CancelButton: "Cancel",
	})
	if err != nil {
		slog.Warn("quit dialog", "err", err)
		return true
	}
	// GTK's question dialog answers Yes or No; the others name the button.
	return answer == "Yes" || answer == "Quit"
}

// Shutdown is Wails' OnShutdown: tasks are stopped and stored, the MCP
// servers stopped with every process they started, then the database is
// closed.
func (a *App) Shutdown(context.Context) {
	if <-a.opened; a.failed {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if err := a.runner.Shutdown(ctx); err != nil {
		slog.Error("shutdown", "err", err)
	}
	a.late.cancel()
	a.idle.stop()
	a.mcp.Close()
	a.stopDemo()
	a.desktopMu.Lock()
	if !a.desktopOff {
		a.desktopOff = true
		close(a.desktopDone)
		if a.desktop != nil {
			a.desktop.stop()
		}
	}
	a.desktopMu.Unlock()
	if err := a.store.Close(); err != nil {
		slog.Error("close database", "err", err)
	}
	a.unlock()
}

// FrontendError is what a bound method's promise rejects with.
type FrontendError struct {
	Code    string `json:"code"`
	Message string `json:"message"`
	// Details is what went wrong underneath an internal or storage error
	// — its chain of causes, scrubbed of secrets — for "Copy details";
	// empty when it would say no more than Message.
	Details string `json:"details,omitempty"`
	// Field is the input field an invalid error is about, as the input's
	// JSON names it ("maxSteps", "baseUrl"), for the window to mark;
	// empty when the error is about no one field.
	Field string `json:"field,omitempty"`
}

// FormatError is the Wails ErrorFormatter. The Wails runtime rejects a
// bound call's promise with new Error(value), which turns an object into
// "[object Object]"; so the FrontendError travels as its JSON text, which
// becomes the rejection's message and the frontend parses back.
func FormatError(err error) any {
	if err == nil {
		return nil
	}
	b, _ := json.Marshal(frontendError(err))
	return string(b)
}

// frontendError maps any error to a FrontendError. An internal or
// storage error is logged with its causes, which go to Details as well.
// No message or details holds a key Errand knows (logfile.Secrets).
func frontendError(err error) FrontendError {
	code := chat.ErrorCode(err)
	fe := FrontendError{Code: code, Message: chat.ErrorMessage(err), Field: chat.ErrorField(err)}
	if code != chat.CodeInternal && code != chat.CodeStorage {
		return fe
	}
	var ce *chat.Error
	if !errors.As(err, &ce) {
		fe.Message = "Something went wrong inside Errand: " + err.Error()
	}
	slog.Error("error shown in the window", "code", code, "err", err)
	fe.Message = logfile.Secrets.Redact(fe.Message)
	if details := logfile.Secrets.Redact(chat.Details(err)); !strings.Contains(fe.Message, details) {
		fe.Details = details
	}
	return fe
}

package app

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/errand-app/errand/backend/agent"
	"github.com/errand-app/errand/backend/attach"
	"github.com/errand-app/errand/backend/chat"
	"github.com/errand-app/errand/backend/tools"
	"github.com/google/uuid"
	"github.com/pkg/browser"
	"github.com/wailsapp/wails/v2/pkg/runtime"
)

// Conversations is the bound service for the conversation list and history.
type Conversations struct {
	store      chat.Store
	search     chat.Searcher
	events     *bridge
	runner     *agent.Runner
	models     *models
	workspaces string        // where default workspace folders live
	dialogs    windowContext // the Wails context, for the folder picker
	files      *attach.Service
}

// windowContext holds the Wails context once the window has started: it is
// set by Startup and read by bound calls, which may run at the same time.
type windowContext struct {
	mu  sync.Mutex
	ctx context.Context
}

func (w *windowContext) set(ctx context.Context) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.ctx = ctx
}

// get is the window's context, or nil before the window has started.
func (w *windowContext) get() context.Context {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.ctx
}

// CreateConversation starts a new, empty conversation in the settings'
// default mode.
func (s *Conversations) CreateConversation() (_ chat.Conversation, err error) {
	defer recovered(&err)
	ctx, cancel := callCtx()
	defer cancel()
	st, err := s.store.Settings(ctx)
	if err != nil {
		return chat.Conversation{}, err
	}
	now := time.Now().UTC()
	c := chat.Conversation{ID: uuid.NewString(), Mode: st.DefaultMode, CreatedAt: now, UpdatedAt: now}
	if err := s.store.CreateConversation(ctx, c); err != nil {
		return chat.Conversation{}, err
	}
	return c, nil
}

// ListConversations lists every conversation, newest activity first.
func (s *Conversations) ListConversations() (_ []chat.ConversationSummary, err error) {
	defer recovered(&err)
	ctx, cancel := callCtx()
	defer cancel()
	return s.store.ListConversations(ctx)
}

// LoadConversation returns a conversation with all its messages and tasks.
func (s *Conversations) LoadConversation(id string) (_ chat.ConversationView, err error) {
	defer recovered(&err)
	if err := requireID("conversation", id); err != nil {
		return chat.ConversationView{}, err
	}
	ctx, cancel := callCtx()
	defer cancel()
	return s.store.LoadConversation(ctx, id)
}

// ListConversationsPage lists one page of conversations, newest activity
// first: limit of them (1 to 500) whose title contains query, ignoring
// case ("" for all), after cursor (a page's nextCursor, "" for the first
// page). A cursor that is not a page's nextCursor is refused.
// agent, when not "", keeps only the conversations with that agent.
// archived lists the Archived view instead of the list.
func (s *Conversations) ListConversationsPage(query, cursor string, limit int, agent string, archived bool) (_ chat.ConversationPage, err error) {
	defer recovered(&err)
	if agent != "" {
		if err := requireID("agent", agent); err != nil {
			return chat.ConversationPage{}, err
		}
	}
	ctx, cancel := callCtx()
	defer cancel()
	return s.store.ConversationsPage(ctx, chat.ConversationQuery{Title: strings.TrimSpace(query), Cursor: cursor, Limit: limit, Agent: agent, Archived: archived})
}

// SetAgent chooses the conversation's agent, from its next task on; it is
// refused while a task is unfinished there. A conversation that has
// messages gets a notice of the switch, and the model is told of it.
func (s *Conversations) SetAgent(id, agentID string) (_ chat.Conversation, err error) {
	defer recovered(&err)
	if err := requireID("conversation", id); err != nil {
		return chat.Conversation{}, err
	}
	if err := requireID("agent", agentID); err != nil {
		return chat.Conversation{}, err
	}
	ctx, cancel := callCtx()
	defer cancel()
	d, err := s.store.Agent(ctx, agentID)
	if err != nil {
		return chat.Conversation{}, err
	}
	if _, busy := s.runner.ActiveTask(id); busy {
		return chat.Conversation{}, chat.Errorf(chat.CodeConflict, "the agent can be switched between tasks only; stop this one or wait for it to finish")
	}
	before, err := s.store.GetConversation(ctx, id)
	if err != nil {
		return before, err
	}
	c, err := s.store.SetAgent(ctx, id, d.ID)
	if err != nil || before.AgentID == c.AgentID {
		return c, err
	}
	page, err := s.store.MessagesBefore(ctx, id, "", 1)
	if err != nil || len(page.Messages) == 0 {
		return c, err
	}
	m, err := s.store.AddMessage(ctx, chat.Message{ID: uuid.NewString(), ConversationID: id, Role: chat.RoleSystem,
		Content: "Switched to the agent " + d.Name, CreatedAt: time.Now().UTC()})
	if err != nil {
		return c, err
	}
	s.events.MessageStored(m)
	return c, nil
}

// OpenConversation returns a conversation with its latest limit messages
// (1 to 500), the tasks they need and the whole usage; hasOlder tells
// whether earlier messages exist (see GetMessagesPage).
func (s *Conversations) OpenConversation(id string, limit int) (_ chat.ConversationView, err error) {
	defer recovered(&err)
	if err := requireID("conversation", id); err != nil {
		return chat.ConversationView{}, err
	}
	ctx, cancel := callCtx()
	defer cancel()
	return s.store.OpenConversation(ctx, id, limit)
}

// GetMessagesPage returns up to limit messages (1 to 500) of a
// conversation that come just before the message beforeMessageID, or its
// latest messages when beforeMessageID is "".
func (s *Conversations) GetMessagesPage(conversationID, beforeMessageID string, limit int) (_ chat.MessagePage, err error) {
	defer recovered(&err)
	if err := requireID("conversation", conversationID); err != nil {
		return chat.MessagePage{}, err
	}
	ctx, cancel := callCtx()
	defer cancel()
	return s.store.MessagesBefore(ctx, conversationID, beforeMessageID, limit)
}

// GetMessagesAfter returns up to limit messages (1 to 500) of a
// conversation that come just after the message afterMessageID, or its
// first messages when afterMessageID is "" (how Home reaches the start of
// a long conversation at once).
func (s *Conversations) GetMessagesAfter(conversationID, afterMessageID string, limit int) (_ chat.MessagePage, err error) {
	defer recovered(&err)
	if err := requireID("conversation", conversationID); err != nil {
		return chat.MessagePage{}, err
	}
	ctx, cancel := callCtx()
	defer cancel()
	return s.store.MessagesAfter(ctx, conversationID, afterMessageID, limit)
}

// GetMessagesAround returns about limit messages (1 to 500) of a
// conversation around the message messageID, that message included: how
// a message far back is opened. A message on another branch makes that
// branch current first (refused while a task runs there).
func (s *Conversations) GetMessagesAround(conversationID, messageID string, limit int) (_ chat.MessagePage, err error) {
	defer recovered(&err)
	if err := requireID("conversation", conversationID); err != nil {
		return chat.MessagePage{}, err
	}
	ctx, cancel := callCtx()
	defer cancel()
	// A message on another branch (a search hit) opens that branch.
	if err := s.store.SwitchBranch(ctx, conversationID, messageID); err != nil {
		return chat.MessagePage{Messages: []chat.Message{}}, err
	}
	return s.store.MessagesAround(ctx, conversationID, messageID, limit)
}

// SearchMessages finds the newest messages, across every conversation,
// that hold every word of query (the last one also as a word's start),
// at most limit (1 to 50) of them. The query is taken literally: any
// text gives results or none, never a syntax error.
func (s *Conversations) SearchMessages(query string, limit int) (_ []chat.SearchHit, err error) {
	defer recovered(&err)
	ctx, cancel := callCtx()
	defer cancel()
	return s.search.Search(ctx, query, limit)
}

// PlanHistory returns every revision of a task's plan, oldest first: what
// "Plan history" shows, each revision beside the one before it.
func (s *Conversations) PlanHistory(taskID string) (_ []chat.Plan, err error) {
	defer recovered(&err)
	return byID("task", taskID, s.store.PlanRevisions)
}

// RenameConversation sets the conversation's title.
func (s *Conversations) RenameConversation(id, title string) (_ chat.Conversation, err error) {
	defer recovered(&err)
	if err := requireID("conversation", id); err != nil {
		return chat.Conversation{}, err
	}
	title, err = chat.CleanTitle(title)
	if err != nil {
		return chat.Conversation{}, err
	}
	ctx, cancel := callCtx()
	defer cancel()
	return s.store.RenameConversation(ctx, id, title)
}

// SetMode remembers the conversation's mode: "auto", "agent" or "chat".
func (s *Conversations) SetMode(id, mode string) (_ chat.Conversation, err error) {
	defer recovered(&err)
	if err := requireID("conversation", id); err != nil {
		return chat.Conversation{}, err
	}
	ctx, cancel := callCtx()
	defer cancel()
	return s.store.SetMode(ctx, id, chat.TaskMode(mode))
}

// DeleteConversation deletes a conversation, stopping its task first.
func (s *Conversations) DeleteConversation(id string) (err error) {
	defer recovered(&err)
	if err := requireID("conversation", id); err != nil {
		return err
	}
	ctx, cancel := callCtx()
	defer cancel()
	if t, ok := s.runner.ActiveTask(id); ok {
		if _, err := s.runner.Stop(ctx, t.ID); err != nil {
			return err
		}
	}
	if err := s.store.DeleteConversation(ctx, id); err != nil {
		return err
	}
	// The files no other message carries went with their records.
	if err := s.files.Sweep(ctx); err != nil {
		slog.Warn("remove the deleted conversation's files", "err", err)
	}
	return nil
}

// ModelInfo tells which model answers by default, and whether it is the
// demo.
func (s *Conversations) ModelInfo() (_ ModelInfo, err error) {
	defer recovered(&err)
	ctx, cancel := callCtx()
	defer cancel()
	return s.models.info(ctx, "")
}

// ConversationModel tells which model answers in a conversation.
func (s *Conversations) ConversationModel(id string) (_ ModelInfo, err error) {
	defer recovered(&err)
	if err := requireID("conversation", id); err != nil {
		return ModelInfo{}, err
	}
	ctx, cancel := callCtx()
	defer cancel()
	c, err := s.store.GetConversation(ctx, id)
	if err != nil {
		return ModelInfo{}, err
	}
	return s.models.info(ctx, c.Model)
}

// SetModel chooses the model for a conversation; "" returns to the default.
func (s *Conversations) SetModel(id, model string) (_ chat.Conversation, err error) {
	defer recovered(&err)
	if err := requireID("conversation", id); err != nil {
		return chat.Conversation{}, err
	}
	model = strings.TrimSpace(model)
	if err := chat.CheckModelName(model); err != nil {
		return chat.Conversation{}, err
	}
	ctx, cancel := callCtx()
	defer cancel()
	return s.store.SetModel(ctx, id, model)
}

// WorkspaceDir is the folder the conversation's tools work in.
func (s *Conversations) WorkspaceDir(id string) (_ string, err error) {
	defer recovered(&err)
	if err := requireID("conversation", id); err != nil {
		return "", err
	}
	ctx, cancel := callCtx()
	defer cancel()
	c, err := s.store.GetConversation(ctx, id)
	if err != nil {
		return "", err
	}
	return workspaceDir(s.workspaces, c), nil
}

// WorkspaceInfo is a conversation's workspace folder as the person sees it.
type WorkspaceInfo struct {
	Path string `json:"path"`
	// Default: the conversation's own folder in Errand's data folder (made
	// when first needed), not one the person chose.
	Default bool `json:"default"`
	// Missing: a chosen folder that is no longer there; the tools cannot
	// work until another is chosen.
	Missing bool `json:"missing"`
}

// Workspace tells which folder the conversation's tools work in, and
// whether a chosen one went missing.
func (s *Conversations) Workspace(id string) (_ WorkspaceInfo, err error) {
	defer recovered(&err)
	if err := requireID("conversation", id); err != nil {
		return WorkspaceInfo{}, err
	}
	ctx, cancel := callCtx()
	defer cancel()
	c, err := s.store.GetConversation(ctx, id)
	if err != nil {
		return WorkspaceInfo{}, err
	}
	return s.workspaceOf(c), nil
}

// workspaceOf is the workspace folder of a conversation already read.
func (s *Conversations) workspaceOf(c chat.Conversation) WorkspaceInfo {
	info := WorkspaceInfo{Path: workspaceDir(s.workspaces, c), Default: c.Workspace == ""}
	if !info.Default {
		fi, err := os.Stat(info.Path)
		info.Missing = err != nil || !fi.IsDir()
	}
	return info
}

// readyWorkspace is the conversation's workspace folder, the default one
// made if it is not there yet.
func (s *Conversations) readyWorkspace(id string) (string, error) {
	info, err := s.Workspace(id)
	if err != nil {
		return "", err
	}
	if info.Default {
		if err := os.MkdirAll(info.Path, 0o755); err != nil {
			return "", chat.Wrap(chat.CodeInternal, err, "could not make the workspace folder %s: %v", chat.Quote(info.Path), err)
		}
	}
	return info.Path, nil
}

// OpenWorkspaceFolder shows the conversation's workspace folder in the
// file manager.
func (s *Conversations) OpenWorkspaceFolder(id string) (err error) {
	defer recovered(&err)
	dir, err := s.readyWorkspace(id)
	if err != nil {
		return err
	}
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		return chat.Errorf(chat.CodeNotFound, "the folder %s is no longer there; choose another", chat.Quote(dir))
	}
	if err := browser.OpenFile(dir); err != nil {
		return chat.Wrap(chat.CodeInternal, err, "could not open the folder: %v", err)
	}
	return nil
}

// SetWorkspace makes dir the conversation's workspace folder; "" returns to
// the default one. The folder must exist.
func (s *Conversations) SetWorkspace(id, dir string) (_ chat.Conversation, err error) {
	defer recovered(&err)
	if err := requireID("conversation", id); err != nil {
		return chat.Conversation{}, err
	}
	dir = strings.TrimSpace(dir)
	if dir != "" {
		if err := chat.CheckPath(dir); err != nil {
			return chat.Conversation{}, err
		}
		if !filepath.IsAbs(dir) {
			return chat.Conversation{}, chat.Errorf(chat.CodeInvalid, "the workspace must be an absolute path")
		}
		fi, err := os.Stat(dir)
		if err != nil || !fi.IsDir() {
			return chat.Conversation{}, chat.Errorf(chat.CodeInvalid, "%s is not a folder", chat.Quote(dir))
		}
		dir = filepath.Clean(dir)
	}
	ctx, cancel := callCtx()
	defer cancel()
	return s.store.SetWorkspace(ctx, id, dir)
}

// ChooseWorkspace asks for a folder with the native picker and makes it the
// conversation's workspace. Cancelling the picker changes nothing.
func (s *Conversations) ChooseWorkspace(id string) (_ chat.Conversation, err error) {
	defer recovered(&err)
	// The default folder is made first, so the picker opens in it.
	current, err := s.readyWorkspace(id)
	if err != nil {
		return chat.Conversation{}, err
	}
	win := s.dialogs.get()
	if win == nil {
		return chat.Conversation{}, chat.Errorf(chat.CodeConflict, "the window is not ready")
	}
	dir, err := runtime.OpenDirectoryDialog(win, runtime.OpenDialogOptions{
		Title: "Choose the workspace folder", DefaultDirectory: pickerStart(current), CanCreateDirectories: true,
	})
	if err != nil {
		return chat.Conversation{}, fmt.Errorf("folder picker: %w", err)
	}
	if dir == "" {
		ctx, cancel := callCtx()
		defer cancel()
		return s.store.GetConversation(ctx, id)
	}
	return s.SetWorkspace(id, dir)
}

// pickerStart is where the folder picker opens: the workspace when it
// exists, else (a chosen folder since removed) the nearest folder above it
// that does, else the home folder.
func pickerStart(dir string) string {
	for d := dir; d != "" && d != filepath.Dir(d); d = filepath.Dir(d) {
		if fi, err := os.Stat(d); err == nil && fi.IsDir() {
			return d
		}
	}
	home, _ := os.UserHomeDir()
	return home
}

func workspaceDir(root string, c chat.Conversation) string {
	if c.Workspace != "" {
		return c.Workspace
	}
	return filepath.Join(root, c.ID)
}

// openWorkspace opens a conversation's workspace folder for its tools,
// which may never reach into Errand's data folder, dataDir.
func openWorkspace(ctx context.Context, st chat.Store, root, dataDir, conversationID string) (*tools.Workspace, error) {
	c, err := st.GetConversation(ctx, conversationID)
	if err != nil {
		return nil, err
	}
	return tools.OpenWorkspace(workspaceDir(root, c), dataDir)
}

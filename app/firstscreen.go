package app

import (
	"log/slog"
	"sync"

	"github.com/errand-app/errand/backend/chat"
)

// FirstScreen is what the window shows first, read in one call: whether
// Errand can work and, when it can, the first page of the conversation
// list and the conversation the window opens, with what the screen around
// them needs. A part that could not be read is left out (and logged): the
// window then asks for it alone, and that call says why it fails.
type FirstScreen struct {
	Status       Status                 `json:"status"`
	ModelInfo    *ModelInfo             `json:"modelInfo,omitempty"`
	ShowThinking *bool                  `json:"showThinking,omitempty"`
	Agents       []chat.AgentDefinition `json:"agents,omitempty"`
	// Conversations is the list's first page, as ListConversationsPage
	// reads it.
	Conversations *chat.ConversationPage `json:"conversations,omitempty"`
	// Open is the newest conversation, as OpenConversation reads it; with
	// none listed, a new empty one.
	Open *chat.ConversationView `json:"open,omitempty"`
	// Workspace is the open conversation's workspace folder, as Workspace
	// reads it: the bar under its title shows it in the first paint.
	Workspace *WorkspaceInfo `json:"workspace,omitempty"`
}

// firstScreen reads the first screen through the bound services.
type firstScreen struct {
	conversations *Conversations
	settings      *Settings
	agents        *Agents
	mu            sync.Mutex // one start at a time: never two new conversations
}

// FirstScreen reads the window's first screen: the list's first
// listLimit conversations and the newest one's last messageLimit messages.
// When Errand could not start, it holds the status only.
func (h *Health) FirstScreen(listLimit, messageLimit int) (_ FirstScreen, err error) {
	defer recovered(&err)
	return h.firstScreen(listLimit, messageLimit, true), nil
}

// firstScreen reads the first screen as FirstScreen returns it; with
// create false, an empty list opens nothing (Open stays nil) rather than
// a new conversation.
func (h *Health) firstScreen(listLimit, messageLimit int, create bool) FirstScreen {
	h.wait()
	out := FirstScreen{Status: h.status}
	if h.first != nil {
		h.first.read(&out, listLimit, messageLimit, create)
	}
	return out
}

// read fills what the screen needs; the sides are read beside the list.
func (f *firstScreen) read(out *FirstScreen, listLimit, messageLimit int, create bool) {
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		f.readSides(out)
	}()
	out.Conversations, out.Open = f.readConversation(listLimit, messageLimit, create)
	if out.Open != nil {
		ws := f.conversations.workspaceOf(out.Open.Conversation)
		out.Workspace = &ws
	}
	wg.Wait()
}

// readSides reads the model, the settings and the agents.
func (f *firstScreen) readSides(out *FirstScreen) {
	if info, err := f.conversations.ModelInfo(); got("model info", err) {
		out.ModelInfo = &info
	}
	if st, err := f.settings.GetSettings(); got("settings", err) {
		out.ShowThinking = &st.ShowThinking
	}
	if list, err := f.agents.ListAgents(); got("agents", err) {
		out.Agents = list
	}
}

// readConversation lists the first page and opens its newest
// conversation, or (with create) a new one when there is none.
func (f *firstScreen) readConversation(listLimit, messageLimit int, create bool) (*chat.ConversationPage, *chat.ConversationView) {
	f.mu.Lock()
	defer f.mu.Unlock()
	page, err := f.conversations.ListConversationsPage("", "", listLimit, "", false)
	if !got("conversation list", err) {
		return nil, nil
	}
	var id string
	if len(page.Items) > 0 {
		id = page.Items[0].ID
	} else if !create {
		return &page, nil
	} else {
		c, err := f.conversations.CreateConversation()
		if !got("new conversation", err) {
			return &page, nil
		}
		id = c.ID
	}
	view, err := f.conversations.OpenConversation(id, messageLimit)
	if !got("conversation", err) {
		return &page, nil
	}
	return &page, &view
}

// empty is whether the conversation list is empty: a first screen then
// opens a new conversation.
func (f *firstScreen) empty() bool {
	page, err := f.conversations.ListConversationsPage("", "", 1, "", false)
	return err == nil && len(page.Items) == 0
}

// got logs a part of the first screen that could not be read; true when
// it was read.
func got(part string, err error) bool {
	if err != nil {
		slog.Warn("first screen: left out", "part", part, "err", err)
	}
	return err == nil
}

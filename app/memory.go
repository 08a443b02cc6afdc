package app

import (
	"context"

	"github.com/errand-app/errand/backend/chat"
)

// factStore is what the Memory service needs of the store.
type factStore interface {
	Facts(ctx context.Context, conversationID string) ([]chat.Fact, error)
	AllFacts(ctx context.Context) ([]chat.Fact, map[string]string, error)
	GetFact(ctx context.Context, id string) (chat.Fact, error)
	AddFact(ctx context.Context, f chat.Fact) (chat.Fact, error)
	UpdateFact(ctx context.Context, f chat.Fact) (chat.Fact, error)
	DeleteFact(ctx context.Context, id string) (chat.Fact, error)
}

// Memory is the bound service for the facts the agent was asked to
// remember: the person sees, adds, edits and deletes them. Whether the
// agent uses them is the memoryEnabled setting (SaveSettings).
type Memory struct {
	store  factStore
	events interface{ FactsChanged(conversationID string) }
}

// ListFacts returns the global facts and, when conversationID is not
// empty, that conversation's (first), each most recently updated first.
func (m *Memory) ListFacts(conversationID string) (_ []chat.Fact, err error) {
	defer recovered(&err)
	if conversationID != "" {
		if err := requireID("conversation", conversationID); err != nil {
			return nil, err
		}
	}
	ctx, cancel := callCtx()
	defer cancel()
	return m.store.Facts(ctx, conversationID)
}

// AllFacts is every fact, with the titles of the conversations that hold
// some, by id.
type AllFacts struct {
	Facts  []chat.Fact       `json:"facts"`
	Titles map[string]string `json:"titles"`
}

// ListAllFacts returns every fact: the global ones, then each
// conversation's (the most recently active conversation first), with
// those conversations' titles ("" for one without a title yet).
func (m *Memory) ListAllFacts() (_ AllFacts, err error) {
	defer recovered(&err)
	ctx, cancel := callCtx()
	defer cancel()
	facts, titles, err := m.store.AllFacts(ctx)
	return AllFacts{Facts: facts, Titles: titles}, err
}

// AddFact stores a new fact: scope "global", or "conversation" with its
// conversationId. A key that is empty, over 4 KB or already there, an
// unknown scope, a value that looks like a secret, and one fact more than
// the most an owner keeps are refused with a message that says so.
func (m *Memory) AddFact(f chat.Fact) (_ chat.Fact, err error) {
	defer recovered(&err)
	ctx, cancel := callCtx()
	defer cancel()
	f.ID = ""
	out, err := m.store.AddFact(ctx, f)
	if err != nil {
		return out, err
	}
	m.events.FactsChanged(out.ConversationID)
	return out, nil
}

// UpdateFact changes the key, value or scope of the fact with f.id, under
// the same rules as AddFact.
func (m *Memory) UpdateFact(f chat.Fact) (_ chat.Fact, err error) {
	defer recovered(&err)
	if err := requireID("fact", f.ID); err != nil {
		return chat.Fact{}, err
	}
	ctx, cancel := callCtx()
	defer cancel()
	old, err := m.store.GetFact(ctx, f.ID)
	if err != nil {
		return chat.Fact{}, err
	}
	out, err := m.store.UpdateFact(ctx, f)
	if err != nil {
		return out, err
	}
	m.events.FactsChanged(out.ConversationID)
	if old.ConversationID != out.ConversationID {
		m.events.FactsChanged(old.ConversationID)
	}
	return out, nil
}

// DeleteFact deletes the fact with id.
func (m *Memory) DeleteFact(id string) (err error) {
	defer recovered(&err)
	if err := requireID("fact", id); err != nil {
		return err
	}
	ctx, cancel := callCtx()
	defer cancel()
	f, err := m.store.DeleteFact(ctx, id)
	if err != nil {
		return err
	}
	m.events.FactsChanged(f.ConversationID)
	return nil
}

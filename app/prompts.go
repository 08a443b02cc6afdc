package app

import (
	"context"

	"github.com/errand-app/errand/backend/chat"
)

// promptStore is what the Prompts service needs of the store.
type promptStore interface {
	Prompts(ctx context.Context) ([]chat.SavedPrompt, error)
	CreatePrompt(ctx context.Context, p chat.SavedPrompt) (chat.SavedPrompt, error)
	UpdatePrompt(ctx context.Context, p chat.SavedPrompt) (chat.SavedPrompt, error)
	DeletePrompt(ctx context.Context, id string) error
}

// Prompts is the bound service for saved prompts: messages kept under a
// name, offered by the composer's "/" menu and edited in Settings.
type Prompts struct {
	store promptStore
}

// ListPrompts returns the saved prompts by name.
func (s *Prompts) ListPrompts() (_ []chat.SavedPrompt, err error) {
	defer recovered(&err)
	ctx, cancel := callCtx()
	defer cancel()
	return s.store.Prompts(ctx)
}

// CreatePrompt saves text under name. An empty or over-long name or text,
// and a name another prompt has (whatever its case), are refused with the
// field at fault, and nothing is saved.
func (s *Prompts) CreatePrompt(name, text string) (_ chat.SavedPrompt, err error) {
	defer recovered(&err)
	ctx, cancel := callCtx()
	defer cancel()
	return s.store.CreatePrompt(ctx, chat.SavedPrompt{Name: name, Text: text})
}

// UpdatePrompt renames the prompt with p.id or changes its text, under
// CreatePrompt's rules.
func (s *Prompts) UpdatePrompt(p chat.SavedPrompt) (_ chat.SavedPrompt, err error) {
	defer recovered(&err)
	if err := requireID("prompt", p.ID); err != nil {
		return chat.SavedPrompt{}, err
	}
	ctx, cancel := callCtx()
	defer cancel()
	return s.store.UpdatePrompt(ctx, p)
}

// DeletePrompt deletes the prompt with id.
func (s *Prompts) DeletePrompt(id string) (err error) {
	defer recovered(&err)
	if err := requireID("prompt", id); err != nil {
		return err
	}
	ctx, cancel := callCtx()
	defer cancel()
	return s.store.DeletePrompt(ctx, id)
}

package agent

import (
	"context"
	"errors"
	"strings"
	"sync"

	"github.com/errand-app/errand/backend/chat"
	"github.com/errand-app/errand/backend/llm"
	"github.com/google/uuid"
)

// Regenerate runs the last task on the conversation's current branch
// again: a new reply to the same prompt, beside the old one, which stays
// as another version. mode overrides the task's mode ("" keeps it; "agent"
// or "chat" runs the prompt as a task or as a chat reply). It is refused
// while a task runs in the conversation.
func (r *Runner) Regenerate(ctx context.Context, conversationID string, mode chat.TaskMode) (chat.Task, error) {
	if mode != "" && mode != chat.ModeAgent && mode != chat.ModeChat {
		return chat.Task{}, chat.Errorf(chat.CodeInvalid, "unknown task mode %q", mode)
	}
	if err := r.idle(conversationID, "a reply cannot be regenerated"); err != nil {
		return chat.Task{}, err
	}
	turn, err := r.opts.Store.LastTurn(ctx, conversationID)
	if err != nil {
		return chat.Task{}, err
	}
	if mode == "" {
		mode = turn.Task.Mode
	}
	return r.begin(ctx, conversationID, turn.Task.OriginalPrompt, mode, beginning{from: &branchFrom{after: turn.AfterID, noPrompt: true}})
}

// EditAndResend sends text in place of the person's message id: a new
// branch from the message before it, beside the old one, which stays as
// another version. The task runs in the edited message's mode.
func (r *Runner) EditAndResend(ctx context.Context, conversationID, id, text string) (chat.Task, error) {
	text = strings.TrimSpace(text)
	if text == "" {
		return chat.Task{}, chat.Errorf(chat.CodeInvalid, "the edited message is empty; write something to send, or cancel the edit")
	}
	if err := r.idle(conversationID, "a message cannot be edited"); err != nil {
		return chat.Task{}, err
	}
	m, err := r.opts.Store.GetMessage(ctx, conversationID, id)
	if err != nil {
		return chat.Task{}, err
	}
	if m.Role != chat.RoleUser {
		return chat.Task{}, chat.Errorf(chat.CodeInvalid, "only your own messages can be edited")
	}
	mode := chat.ModeAgent
	if m.TaskID != "" {
		if t, err := r.opts.Store.GetTask(ctx, m.TaskID); err == nil {
			mode = t.Mode
		}
	}
	return r.begin(ctx, conversationID, text, mode, beginning{from: &branchFrom{after: m.ParentID}})
}

// idle fails with CodeConflict when a task runs in the conversation.
func (r *Runner) idle(conversationID, what string) error {
	if _, busy := r.ActiveTask(conversationID); busy {
		return chat.Errorf(chat.CodeConflict,
			"%s while a task is in progress in this conversation; stop it or wait for it to finish", what)
	}
	return nil
}

// VariationCount is how many variations of a reply Variations writes.
const VariationCount = 3

// Variations writes VariationCount more replies in place of the reply id,
// in parallel, each on the model models names at its place ("" or none:
// the conversation's), as chat replies to the conversation up to it. They
// are stored as versions of that reply, off the current branch (showing
// one, with ShowVersion or SwitchBranch, keeps it). It is refused while a
// task runs; a model that fails fails the whole call and stores nothing.
func (r *Runner) Variations(ctx context.Context, conversationID, id string, models []string) ([]chat.Message, error) {
	if len(models) > VariationCount {
		return nil, chat.Errorf(chat.CodeInvalid, "at most %d models, one per variation", VariationCount)
	}
	if err := r.idle(conversationID, "variations cannot be written"); err != nil {
		return nil, err
	}
	if !r.beginVariations(conversationID) {
		return nil, chat.Errorf(chat.CodeConflict, "variations are already being written in this conversation; wait for them")
	}
	defer r.endVariations(conversationID)
	reply, err := r.opts.Store.GetMessage(ctx, conversationID, id)
	if err != nil {
		return nil, err
	}
	if reply.Role != chat.RoleAssistant {
		return nil, chat.Errorf(chat.CodeInvalid, "variations are of the agent's replies only")
	}
	branch, err := r.opts.Store.Messages(ctx, conversationID)
	if err != nil {
		return nil, err
	}
	at := -1
	for i, m := range branch {
		if m.ID == id {
			at = i
		}
	}
	if at < 0 {
		return nil, chat.Errorf(chat.CodeInvalid, "this reply is not on the branch shown; show it first")
	}
	history := branch[:at]
	req := llm.Request{Messages: buildContext(ChatSystemPrompt, history, false, r.opts.Attachments)}
	replies := make([]llm.Response, VariationCount)
	errs := make([]error, VariationCount)
	var wg sync.WaitGroup
	for i := range replies {
		model := ""
		if i < len(models) {
			model = strings.TrimSpace(models[i])
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			p, err := r.variationProvider(ctx, conversationID, model)
			if err == nil {
				replies[i], err = streamPatiently(ctx, p, req, llm.Deltas{}, "conversation", conversationID, "call", "variation")
			}
			errs[i] = err
		}()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	out := make([]chat.Message, 0, VariationCount)
	for _, res := range replies {
		u := res.Usage
		m, err := r.opts.Store.AddVersion(ctx, chat.Message{
			ID: uuid.NewString(), ConversationID: conversationID, Role: chat.RoleAssistant,
			Content: res.Content, Usage: &u, CreatedAt: clock(),
		}, id)
		if err != nil {
			return nil, err
		}
		out = append(out, m)
	}
	return out, nil
}

// beginVariations marks the conversation as having variations written,
// unless it has already.
func (r *Runner) beginVariations(conversationID string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.varying[conversationID] {
		return false
	}
	r.varying[conversationID] = true
	return true
}

func (r *Runner) endVariations(conversationID string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	delete(r.varying, conversationID)
}

// variationProvider is the provider of a variation's model ("" for the
// conversation's).
func (r *Runner) variationProvider(ctx context.Context, conversationID, model string) (llm.Provider, error) {
	if model == "" || r.opts.ModelProvider == nil {
		return r.provider(ctx, conversationID, "")
	}
	return r.opts.ModelProvider(ctx, model)
}

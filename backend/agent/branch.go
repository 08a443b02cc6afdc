package agent

import (
	"context"
	"strings"

	"github.com/errand-app/errand/backend/chat"
)

// Regenerate runs the task that wrote the reply replyID ("" for the last
// on the conversation's current branch) again: a new reply to the same
// prompt, beside the old one and what followed it, which stay as another
// version. mode overrides the task's mode ("" keeps it; "agent" or "chat"
// runs the prompt as a task or as a chat reply). It is refused while a
// task runs in the conversation.
func (r *Runner) Regenerate(ctx context.Context, conversationID, replyID string, mode chat.TaskMode) (chat.Task, error) {
	if mode != "" && mode != chat.ModeAgent && mode != chat.ModeChat {
		return chat.Task{}, chat.Errorf(chat.CodeInvalid, "unknown task mode %q", mode)
	}
	if err := r.idle(conversationID, "a reply cannot be regenerated"); err != nil {
		return chat.Task{}, err
	}
	turn, err := r.opts.Store.TurnOf(ctx, conversationID, replyID)
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
// another version. The task runs in the edited message's mode. The new
// version carries the files the message carried (with them, the text may
// be empty).
func (r *Runner) EditAndResend(ctx context.Context, conversationID, id, text string) (chat.Task, error) {
	text = strings.TrimSpace(text)
	if err := r.idle(conversationID, "a message cannot be edited"); err != nil {
		return chat.Task{}, err
	}
	m, err := r.opts.Store.GetMessage(ctx, conversationID, id)
	if err != nil {
		return chat.Task{}, err
	}
	if text == "" && len(m.Attachments) == 0 {
		return chat.Task{}, chat.Errorf(chat.CodeInvalid, "the edited message is empty; write something to send, or cancel the edit")
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
	return r.begin(ctx, conversationID, text, mode, beginning{from: &branchFrom{after: m.ParentID}, attachments: m.Attachments})
}

// idle fails with CodeConflict when a task runs in the conversation.
func (r *Runner) idle(conversationID, what string) error {
	if _, busy := r.ActiveTask(conversationID); busy {
		return chat.Errorf(chat.CodeConflict,
			"%s while a task is in progress in this conversation; stop it or wait for it to finish", what)
	}
	return nil
}

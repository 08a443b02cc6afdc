package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"

	"github.com/errand-app/errand/backend/chat"
	"github.com/errand-app/errand/backend/tools"
)

// ToolEndConversation ends the conversation early, with the reason; it is
// offered only to an agent whose definition allows early termination.
const ToolEndConversation = "end_conversation"

var endConversationControl = control{
	spec: tools.Spec{
		Name: ToolEndConversation,
		Description: "End the conversation early, with the reason, which the user sees. " +
			"Only when it cannot or should not go on (the user wants to stop, or it is off its purpose); finished work ends with task_complete.",
		Schema: tools.Object(map[string]any{"reason": stringProp("Why the conversation ends, for the user; at most 1 KB.")}, "reason"),
	},
	parse: parseEndConversation,
}

// offeredTo reports whether the agent def is offered the control tool name.
func offeredTo(def chat.AgentDefinition, name string) bool {
	return name != ToolEndConversation || def.AllowEarlyTermination
}

func parseEndConversation(args json.RawMessage) (act, error) {
	var a struct {
		Reason string `json:"reason"`
	}
	if err := json.Unmarshal(args, &a); err != nil {
		return nil, err
	}
	reason, err := chat.CleanEndReason(a.Reason)
	if err != nil {
		return nil, fmt.Errorf("end_conversation: %s", chat.ErrorMessage(err))
	}
	if reason == "" {
		return nil, fmt.Errorf(`end_conversation needs a non-empty "reason" string`)
	}
	return func(ctx context.Context, rn *run, _ string) (outcome, error) {
		rn.setEndReason(reason)
		return outcome{res: tools.Result{Content: "The conversation is ended."}, summary: "Ended the conversation: " + reason, done: true}, nil
	}, nil
}

// setEndReason records that the agent ends the conversation (reason) or,
// with "", that it no longer does. The end is stored when the task
// completes (endIfEnding): a message the person queued meanwhile keeps
// the task, and the conversation, going.
func (rn *run) setEndReason(reason string) {
	rn.mu.Lock()
	defer rn.mu.Unlock()
	rn.endReason = reason
}

func (rn *run) ended() bool {
	rn.mu.Lock()
	defer rn.mu.Unlock()
	return rn.endReason != ""
}

// endIfEnding stores and publishes the agent's end of the conversation,
// if it ends it; the task then completes without a reflection.
func (rn *run) endIfEnding() error {
	rn.mu.Lock()
	reason := rn.endReason
	rn.mu.Unlock()
	if reason == "" {
		return nil
	}
	return rn.concludeConversation(chat.ConversationEnd{State: chat.StateEnded, By: chat.EndedByAgent, Reason: reason})
}

// concludeConversation stores how the task's conversation ended, then
// publishes the conversation.
func (rn *run) concludeConversation(end chat.ConversationEnd) error {
	ctx, cancel := storeCtx()
	defer cancel()
	c, err := rn.r.opts.Store.EndConversation(ctx, rn.snapshot().ConversationID, end)
	if err != nil {
		return err
	}
	rn.r.opts.Events.ConversationUpdated(c)
	return nil
}

// completed follows a completed task: a proactive agent's conversation
// is completed with it (unless the agent ended it early).
func (rn *run) completed() {
	if rn.def.Mode != chat.ChatProactive || rn.ended() {
		return
	}
	if err := rn.concludeConversation(chat.ConversationEnd{State: chat.StateCompleted}); err != nil {
		slog.Warn("mark the conversation completed", "task", rn.snapshot().ID, "err", err)
	}
}

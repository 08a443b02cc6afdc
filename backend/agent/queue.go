package agent

import (
	"context"
	"strings"

	"github.com/errand-app/errand/backend/chat"
)

// Queue stores a message the person adds while the conversation's task
// works, marked queued, and publishes it: the task's next step gives it
// to the model (see takeQueued). A task waiting for an answer takes the
// text as the answer instead (Respond).
func (r *Runner) Queue(ctx context.Context, conversationID, text string) (chat.Message, error) {
	return r.QueueWith(ctx, conversationID, text, nil)
}

// QueueWith is Queue of a message that carries files; with files, the
// text may be empty.
func (r *Runner) QueueWith(ctx context.Context, conversationID, text string, atts []chat.Attachment) (chat.Message, error) {
	text = strings.TrimSpace(text)
	if text == "" && len(atts) == 0 {
		return chat.Message{}, chat.Errorf(chat.CodeInvalid, "the message is empty")
	}
	if err := chat.CheckMessage(text); err != nil {
		return chat.Message{}, err
	}
	r.mu.Lock()
	rn := r.byConv[conversationID]
	r.mu.Unlock()
	if rn == nil {
		return chat.Message{}, errNothingToQueue
	}
	m := rn.newMessage(chat.RoleUser, text)
	m.Attachments = atts
	m.Delivery = chat.DeliveryQueued
	return rn.queue(ctx, m)
}

var errNothingToQueue = chat.Errorf(chat.CodeConflict,
	"no task is working in this conversation, so there is nothing to add the message to; send it to start a new task")

// queue stores m unless the task has ended or waits for an answer. The
// model's view (win) leaves it out until takeQueued delivers it.
func (rn *run) queue(ctx context.Context, m chat.Message) (chat.Message, error) {
	rn.mu.Lock()
	defer rn.mu.Unlock()
	if rn.done {
		return m, errNothingToQueue
	}
	if rn.task.Status == chat.StatusWaitingUser {
		return m, chat.Errorf(chat.CodeConflict, "the task is waiting for your answer; send the text as the answer")
	}
	stored, err := rn.r.opts.Store.AddMessage(ctx, m)
	if err != nil {
		return m, err
	}
	rn.r.opts.Events.MessageStored(stored)
	return stored, nil
}

// takeQueued delivers the messages the person added while the task
// worked, in order, at a step boundary (after the last step's tool
// results): they move to the end of the transcript, lose their queued
// mark, and join the model's view. It returns how many there were.
func (rn *run) takeQueued() (int, error) {
	rn.mu.Lock()
	defer rn.mu.Unlock()
	if rn.done {
		return 0, errEnded
	}
	ctx, cancel := storeCtx()
	defer cancel()
	msgs, err := rn.r.opts.Store.TakeQueued(ctx, rn.task.ID)
	if err != nil {
		return 0, err
	}
	rn.win.observe(msgs...)
	for _, m := range msgs {
		rn.r.opts.Events.MessageStored(m)
	}
	return len(msgs), nil
}

// completeUnlessQueued completes the task, unless the person added a
// message meanwhile: then the task goes on with it (the person asked for
// more before it ended). It reports whether the task goes on.
func (rn *run) completeUnlessQueued(summary string) (bool, error) {
	n, err := rn.takeQueued()
	if err != nil || n > 0 {
		return n > 0, err
	}
	return false, rn.complete(summary)
}

// sendNowReason is what the model is told of the tool call denied when
// the person sent their queued message instead of deciding on it.
const sendNowReason = "The user sent a message instead of deciding on this call; read it (next) before going on."

// SendNow delivers a queued message at once instead of when the task next
// steps: a tool call waiting for approval is denied (the model is told the
// person wrote instead, and reads the message next); a task paused at a
// limit goes on (as Continue does) with the message. A task at work takes
// it at its next step anyway; one waiting for an answer wants the answer.
// A message its task ended before reading starts a task that answers it.
func (r *Runner) SendNow(ctx context.Context, conversationID, messageID string) error {
	m, err := r.opts.Store.GetMessage(ctx, conversationID, messageID)
	if err != nil {
		return err
	}
	if m.Delivery == chat.DeliveryNotDelivered {
		return r.answerUndelivered(ctx, m)
	}
	if m.Delivery != chat.DeliveryQueued {
		return chat.Errorf(chat.CodeConflict, "the message is not waiting to be delivered")
	}
	rn := r.lookup(m.TaskID)
	if rn == nil {
		return errNothingToQueue
	}
	t := rn.snapshot()
	switch {
	case t.Status == chat.StatusWaitingApproval && t.PendingApproval != nil:
		return rn.deliver(waitApproval, t.PendingApproval.CallID, decision{text: sendNowReason})
	case t.Status == chat.StatusPaused:
		return rn.deliver(waitProceed, "", decision{approved: true})
	case t.Status == chat.StatusWaitingUser:
		return chat.Errorf(chat.CodeConflict, "the task is waiting for your answer; answer its question first")
	}
	return nil
}

// answerUndelivered starts a task that answers a message its task ended
// before reading, in the conversation's mode, as if it had just been sent;
// the message is then marked delivered. Only a message no later one of
// the person's followed can be: the task starts after the branch's last
// message (a notice may follow it), so nothing moves to another branch.
func (r *Runner) answerUndelivered(ctx context.Context, m chat.Message) error {
	if err := r.idle(m.ConversationID, "the message cannot be sent now"); err != nil {
		return err
	}
	after, err := r.opts.Store.MessagesSince(ctx, m.ConversationID, m.Seq)
	if err != nil {
		return err
	}
	tip := m.ID
	for _, later := range after {
		if later.Role == chat.RoleUser {
			return chat.Errorf(chat.CodeConflict, "a later message of yours already went to the agent; this one stays in the conversation for the tasks you start")
		}
		tip = later.ID
	}
	conv, err := r.opts.Store.GetConversation(ctx, m.ConversationID)
	if err != nil {
		return err
	}
	how := beginning{from: &branchFrom{after: tip, noPrompt: true}, attachments: m.Attachments}
	mode := conv.Mode
	if mode != chat.ModeAgent && mode != chat.ModeChat {
		if mode, err = r.decide(ctx, conv, m.Content, &how); err != nil {
			return err
		}
	}
	if _, err := r.begin(ctx, m.ConversationID, m.Content, mode, how); err != nil {
		return err
	}
	delivered, err := r.opts.Store.MarkDelivered(ctx, m.ConversationID, m.ID)
	if err != nil {
		return err
	}
	r.opts.Events.MessageStored(delivered)
	return nil
}

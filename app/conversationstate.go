package app

import (
	"time"

	"github.com/errand-app/errand/backend/chat"
	"github.com/google/uuid"
)

// EndConversation ends the conversation at the person's word, with their
// reason (may be empty; at most 1 KB): its unfinished task is stopped,
// the conversation is stored as ended by the person, and the transcript
// says so. A reason over 1 KB is refused before anything changes.
func (s *Conversations) EndConversation(id, reason string) (_ chat.Conversation, err error) {
	defer recovered(&err)
	if err := requireID("conversation", id); err != nil {
		return chat.Conversation{}, err
	}
	reason, err = chat.CleanEndReason(reason)
	if err != nil {
		return chat.Conversation{}, err
	}
	ctx, cancel := callCtx()
	defer cancel()
	if _, err := s.store.GetConversation(ctx, id); err != nil {
		return chat.Conversation{}, err
	}
	if err := s.stopActive(id); err != nil {
		return chat.Conversation{}, err
	}
	c, err := s.store.EndConversation(ctx, id, chat.ConversationEnd{State: chat.StateEnded, By: chat.EndedByPerson, Reason: reason})
	if err != nil {
		return c, err
	}
	notice := "You ended the conversation."
	if reason != "" {
		notice = "You ended the conversation: " + reason
	}
	m, err := s.store.AddMessage(ctx, chat.Message{ID: uuid.NewString(), ConversationID: id, Role: chat.RoleSystem,
		Content: notice, CreatedAt: time.Now().UTC()})
	if err != nil {
		return c, err
	}
	s.events.ConversationUpdated(c)
	s.events.MessageStored(m)
	return c, nil
}

// ArchiveConversation takes the conversation out of the list into the
// Archived view. A conversation whose task is unfinished is refused
// (CodeConflict), unless stopTask says the person confirmed stopping it:
// then the task is stopped first.
func (s *Conversations) ArchiveConversation(id string, stopTask bool) (_ chat.Conversation, err error) {
	defer recovered(&err)
	if err := requireID("conversation", id); err != nil {
		return chat.Conversation{}, err
	}
	ctx, cancel := callCtx()
	defer cancel()
	if _, busy := s.runner.ActiveTask(id); busy && !stopTask {
		return chat.Conversation{}, chat.Errorf(chat.CodeConflict, "this conversation has a task in progress; stop it before archiving the conversation")
	}
	if stopTask {
		if err := s.stopActive(id); err != nil {
			return chat.Conversation{}, err
		}
	}
	return s.published(s.store.ArchiveConversation(ctx, id, true))
}

// RestoreConversation brings an archived conversation back to the list.
func (s *Conversations) RestoreConversation(id string) (_ chat.Conversation, err error) {
	defer recovered(&err)
	if err := requireID("conversation", id); err != nil {
		return chat.Conversation{}, err
	}
	ctx, cancel := callCtx()
	defer cancel()
	return s.published(s.store.ArchiveConversation(ctx, id, false))
}

// stopActive stops the conversation's unfinished task, if it has one.
func (s *Conversations) stopActive(id string) error {
	t, ok := s.runner.ActiveTask(id)
	if !ok {
		return nil
	}
	ctx, cancel := callCtx()
	defer cancel()
	_, err := s.runner.Stop(ctx, t.ID)
	return err
}

// published publishes a conversation a call stored, and returns it.
func (s *Conversations) published(c chat.Conversation, err error) (chat.Conversation, error) {
	if err == nil {
		s.events.ConversationUpdated(c)
	}
	return c, err
}

// AgentStats counts each agent's conversations and completed tasks, and
// tells when it was last used (Settings → Agents).
func (s *Agents) AgentStats() (_ []chat.AgentStats, err error) {
	defer recovered(&err)
	ctx, cancel := callCtx()
	defer cancel()
	return s.store.AgentStats(ctx)
}

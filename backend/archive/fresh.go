package archive

import (
	"strings"
	"time"

	"github.com/errand-app/errand/backend/chat"
	"github.com/google/uuid"
)

// fresh checks the archive's conversations and gives each, and everything
// in it, a new id; references between them (a message's task and summary)
// follow. A task that had not ended when it was exported is stored as
// cancelled: nothing runs it here. A workspace folder is not carried over
// (it names another computer's folder); the conversation uses its own.
func fresh(recs []chat.ConversationRecord) ([]chat.ConversationRecord, error) {
	out := make([]chat.ConversationRecord, 0, len(recs))
	for i, r := range recs {
		r, err := freshRecord(r)
		if err != nil {
			return nil, chat.Wrap(chat.CodeInvalid, err, "conversation %d of the file: %s", i+1, chat.ErrorMessage(err))
		}
		out = append(out, r)
	}
	return out, nil
}

func freshRecord(r chat.ConversationRecord) (chat.ConversationRecord, error) {
	c := r.Conversation
	title := ""
	if c.Title != "" {
		var err error
		if title, err = chat.CleanTitle(c.Title); err != nil {
			return r, err
		}
	}
	if err := chat.CheckModelName(c.Model); err != nil {
		return r, err
	}
	c.ID, c.Title, c.Workspace = uuid.NewString(), title, ""
	c.EndReason, _ = chat.CleanEndReason(c.EndReason) // within 1 KB: checked on reading
	if c.CreatedAt.IsZero() {
		c.CreatedAt = time.Now().UTC()
	}
	if c.UpdatedAt.Before(c.CreatedAt) {
		c.UpdatedAt = c.CreatedAt
	}
	ids := map[string]string{} // old id → new id, tasks and summaries
	tasks := make([]chat.Task, 0, len(r.Tasks))
	for _, t := range r.Tasks {
		if t.Mode != chat.ModeAgent && t.Mode != chat.ModeChat {
			return r, chat.Errorf(chat.CodeInvalid, "a task has the unknown mode %s", chat.Quote(string(t.Mode)))
		}
		if !knownStatus(t.Status) {
			return r, chat.Errorf(chat.CodeInvalid, "a task has the unknown status %s", chat.Quote(string(t.Status)))
		}
		if err := checkTask(t); err != nil {
			return r, err
		}
		if _, dup := ids[t.ID]; dup || t.ID == "" {
			return r, chat.Errorf(chat.CodeInvalid, "a task has a missing or repeated id")
		}
		ids[t.ID] = uuid.NewString()
		t.ID, t.ConversationID = ids[t.ID], c.ID
		if t.Active() {
			ended := c.UpdatedAt
			t.Status, t.EndedAt, t.ErrorMessage = chat.StatusCancelled, &ended, "It had not finished when it was exported."
			t.PendingQuestion, t.PendingChoices, t.PendingApproval, t.PauseReason = "", nil, nil, ""
			t.CurrentTool, t.CurrentCallID = "", ""
		}
		tasks = append(tasks, t)
	}
	sums := make([]chat.Summary, 0, len(r.Summaries))
	for _, s := range r.Summaries {
		if _, dup := ids[s.ID]; dup || s.ID == "" {
			return r, chat.Errorf(chat.CodeInvalid, "a summary has a missing or repeated id")
		}
		if err := checkSummary(s); err != nil {
			return r, err
		}
		ids[s.ID] = uuid.NewString()
		s.ID, s.ConversationID = ids[s.ID], c.ID
		sums = append(sums, s)
	}
	msgs, err := freshMessages(r, ids, c.ID)
	if err != nil {
		return r, err
	}
	facts := make([]chat.Fact, 0, len(r.Facts))
	for _, f := range r.Facts {
		f, err := cleanFact(f, c.ID)
		if err != nil {
			return r, err
		}
		facts = append(facts, f)
	}
	return chat.ConversationRecord{Conversation: c, Messages: msgs, Tasks: tasks, Summaries: sums, Facts: facts}, nil
}

// freshMessages checks the record's messages and gives each a new id in
// the conversation conversationID; the tasks and summaries they name
// (ids maps their old ids to new ones), and their parents, follow. Every
// version is kept: a parent must come before its children, and the
// current branch (OffBranch 0) must be one path from a first message.
func freshMessages(r chat.ConversationRecord, ids map[string]string, conversationID string) ([]chat.Message, error) {
	tree := r.InTree()
	msgs := make([]chat.Message, 0, len(r.Messages))
	newIDs := map[string]string{"": ""}   // old message id → new
	onBranch := map[string]bool{"": true} // messages of the current branch, and its start
	continued := map[string]bool{}        // those with a continuation on it
	var lastSeq int64
	for i, m := range r.Messages {
		if !knownRole(m.Role) {
			return nil, chat.Errorf(chat.CodeInvalid, "message %d has the unknown role %s", i+1, chat.Quote(string(m.Role)))
		}
		if err := checkMessage(i, m); err != nil {
			return nil, err
		}
		if i > 0 && m.Seq <= lastSeq {
			return nil, chat.Errorf(chat.CodeInvalid, "the messages are out of order at message %d", i+1)
		}
		lastSeq = m.Seq
		if _, dup := newIDs[m.ID]; dup {
			return nil, chat.Errorf(chat.CodeInvalid, "message %d has a missing or repeated id", i+1)
		}
		var err error
		if m.TaskID, err = ref(ids, m.TaskID, "task", i); err != nil {
			return nil, err
		}
		if m.SummaryID, err = ref(ids, m.SummaryID, "summary", i); err != nil {
			return nil, err
		}
		parent, ok := newIDs[m.ParentID]
		if !ok {
			return nil, chat.Errorf(chat.CodeInvalid, "message %d continues a message that is not before it in the file", i+1)
		}
		if m.OffBranch < 0 {
			return nil, chat.Errorf(chat.CodeInvalid, "message %d has a negative place off the branch", i+1)
		}
		newIDs[m.ID] = uuid.NewString()
		m.ID, m.ParentID, m.ConversationID, m.Streaming = newIDs[m.ID], parent, conversationID, false
		if tree && m.OffBranch == 0 && m.Delivery != chat.DeliveryQueued { // a queued message is nobody's version
			if !onBranch[parent] || continued[parent] {
				return nil, chat.Errorf(chat.CodeInvalid, "message %d is on the current branch but does not continue it", i+1)
			}
			onBranch[m.ID], continued[parent] = true, true
		}
		msgs = append(msgs, m)
	}
	renumber(msgs)
	return msgs, nil
}

// ref is the new id of a task or summary a message names ("" for none).
func ref(ids map[string]string, old, what string, i int) (string, error) {
	if old == "" {
		return "", nil
	}
	id, ok := ids[old]
	if !ok {
		return "", chat.Errorf(chat.CodeInvalid, "message %d names a %s the file does not hold", i+1, what)
	}
	return id, nil
}

// cleanFact checks a fact as the memory does and gives it a new id and
// its owner (conversationID, "" for a global fact).
func cleanFact(f chat.Fact, conversationID string) (chat.Fact, error) {
	f.ConversationID, f.Scope = conversationID, chat.ScopeConversation
	if conversationID == "" {
		f.Scope = chat.ScopeGlobal
	}
	f, err := chat.CleanFact(f)
	if err != nil {
		return f, err
	}
	f.ID = uuid.NewString()
	if f.CreatedAt.IsZero() {
		f.CreatedAt = time.Now().UTC()
	}
	if f.UpdatedAt.IsZero() {
		f.UpdatedAt = f.CreatedAt
	}
	return f, nil
}

func knownRole(r chat.Role) bool {
	switch r {
	case chat.RoleUser, chat.RoleAssistant, chat.RoleTool, chat.RoleSystem:
		return true
	}
	return false
}

func knownStatus(s chat.TaskStatus) bool {
	switch s {
	case chat.StatusRunning, chat.StatusThinking, chat.StatusToolExecuting, chat.StatusWaitingUser,
		chat.StatusWaitingApproval, chat.StatusPaused, chat.StatusInterrupted,
		chat.StatusCompleted, chat.StatusCancelled, chat.StatusError:
		return true
	}
	return false
}

// freshPrompts checks a backup's saved prompts as if typed here and gives
// each a new id. More than Errand keeps, or two of one name, is damage.
func freshPrompts(in []chat.SavedPrompt) ([]chat.SavedPrompt, error) {
	if len(in) > chat.MaxSavedPrompts {
		return nil, chat.Errorf(chat.CodeInvalid, "the file holds %d saved prompts, more than the %d Errand keeps", len(in), chat.MaxSavedPrompts)
	}
	out := make([]chat.SavedPrompt, 0, len(in))
	names := map[string]bool{}
	for i, p := range in {
		p, err := chat.CleanPrompt(p)
		if err != nil {
			return nil, chat.Wrap(chat.CodeInvalid, err, "saved prompt %d of the file: %s", i+1, chat.ErrorMessage(err))
		}
		key := strings.ToLower(p.Name)
		if names[key] {
			return nil, chat.Errorf(chat.CodeInvalid, "the file is damaged: two saved prompts are named %s", chat.Quote(p.Name))
		}
		names[key] = true
		p.ID = uuid.NewString()
		if p.CreatedAt.IsZero() {
			p.CreatedAt = time.Now().UTC()
		}
		if p.UpdatedAt.Before(p.CreatedAt) {
			p.UpdatedAt = p.CreatedAt
		}
		out = append(out, p)
	}
	return out, nil
}

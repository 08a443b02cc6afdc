package chat

// ConversationRecord is a conversation with everything that belongs to
// it — messages in order (streamed text whole, every version with its
// parent and place off the current branch), tasks, compaction summaries,
// facts — as an export holds it.
type ConversationRecord struct {
	Conversation Conversation `json:"conversation"`
	Messages     []Message    `json:"messages"`
	Tasks        []Task       `json:"tasks"`
	Summaries    []Summary    `json:"summaries"`
	Facts        []Fact       `json:"facts"`
}

// InTree reports whether the record's messages say where each is in the
// conversation's tree. One written before the tree has no parent and
// nothing off the branch: its messages are one branch, in order.
func (r ConversationRecord) InTree() bool {
	for _, m := range r.Messages {
		if m.ParentID != "" || m.OffBranch != 0 {
			return true
		}
	}
	return false
}

// Restore is what a backup puts back besides its conversations.
type Restore struct {
	// Settings replace the current ones when set.
	Settings *Settings
	// Facts are global facts to add.
	Facts []Fact
	// Prompts are saved prompts to add; one whose name is taken is left out.
	Prompts []SavedPrompt
}

package chat

// ConversationRecord is a conversation with everything that belongs to
// it — messages in order (streamed text whole), tasks, compaction
// summaries, facts — as an export holds it.
type ConversationRecord struct {
	Conversation Conversation `json:"conversation"`
	Messages     []Message    `json:"messages"`
	Tasks        []Task       `json:"tasks"`
	Summaries    []Summary    `json:"summaries"`
	Facts        []Fact       `json:"facts"`
}

// Restore is what a backup puts back besides its conversations.
type Restore struct {
	// Settings replace the current ones when set.
	Settings *Settings
	// Facts are global facts to add.
	Facts []Fact
}

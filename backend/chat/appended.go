package chat

// Appended tells where streamed text landed in a stored message: what a
// receiver needs to apply the text to its own copy, without the whole
// message (which grows with every append).
type Appended struct {
	ConversationID string
	TaskID         string
	// Offset is the byte length of the message's content before the text.
	Offset int
	// Rev is the message's revision once the text is in.
	Rev int
}

// StreamEnd is a message whose stream ended with its task: the message as
// stored, but without its content and reasoning, which were published as
// they were appended (a reply of megabytes is not read or sent again), and
// their lengths in bytes, so that a copy built from what was published can
// be checked.
type StreamEnd struct {
	Message        Message
	ContentBytes   int
	ReasoningBytes int
}

// Finished is what FinishTask stored with a task's final state.
type Finished struct {
	// Messages are the messages added to close the task, and those still
	// queued for it, moved to its end as not delivered.
	Messages []Message
	// Ended are the task's messages that were streaming: they end with
	// the text stored.
	Ended []StreamEnd
}

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

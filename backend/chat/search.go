package chat

import (
	"context"
	"time"
	"unicode/utf8"
)

// MaxSearchLen is the longest search text, in bytes.
const MaxSearchLen = 500

// MaxSearchResults is the most hits one search returns.
const MaxSearchResults = 50

// SearchHit is one message that matches a search.
type SearchHit struct {
	ConversationID    string `json:"conversationId"`
	ConversationTitle string `json:"conversationTitle"`
	MessageID         string `json:"messageId"`
	Role              Role   `json:"role"`
	// Snippet is the part of the message around the match, in pieces:
	// Match marks the pieces the search found. The text is the message's
	// own, to be shown as text, never as markup.
	Snippet   []SnippetPart `json:"snippet"`
	CreatedAt time.Time     `json:"createdAt" ts_type:"string"`
}

// SnippetPart is a piece of a snippet; Match is true where the search
// text was found.
type SnippetPart struct {
	Text  string `json:"text"`
	Match bool   `json:"match,omitempty"`
}

// Searcher finds messages across every conversation.
type Searcher interface {
	// Search returns up to limit (1 to MaxSearchResults) messages holding
	// every word of text, newest first. The text is taken literally:
	// whatever it holds, the result is hits or none, never a syntax error.
	Search(ctx context.Context, text string, limit int) ([]SearchHit, error)
}

// CheckSearch refuses search text that is too long or not UTF-8, and a
// limit out of range.
func CheckSearch(text string, limit int) error {
	if len(text) > MaxSearchLen || !utf8.ValidString(text) {
		return Errorf(CodeInvalid, "the search text must be UTF-8 text of at most %d bytes", MaxSearchLen)
	}
	if limit < 1 || limit > MaxSearchResults {
		return Errorf(CodeInvalid, "a search returns 1 to %d results, not %d", MaxSearchResults, limit)
	}
	return nil
}

package chat

import (
	"context"
	"unicode/utf8"
)

// MaxPageSize is the most conversations or messages one page may hold.
const MaxPageSize = 500

// MaxFilterLen is the longest title filter, in bytes.
const MaxFilterLen = 200

// ConversationQuery asks for one page of the conversation list, most
// recently active first.
type ConversationQuery struct {
	// Title keeps only conversations whose title contains it, ignoring
	// case (ASCII letters); "" keeps every conversation.
	Title string
	// Cursor continues a list where an earlier page ended (its
	// NextCursor); "" starts at the top.
	Cursor string
	// Limit is the page's size, 1 to MaxPageSize.
	Limit int
	// Agent keeps only the conversations with that agent ("errand" holds
	// those with none set); "" keeps every conversation.
	Agent string
	// Archived lists the archived conversations (the Archived view)
	// instead of the others.
	Archived bool
}

// ConversationPage is one page of the conversation list.
type ConversationPage struct {
	Items []ConversationSummary `json:"items"`
	// NextCursor continues the list after the last item; "" when there is
	// nothing more.
	NextCursor string `json:"nextCursor"`
}

// MessagePage is a run of consecutive messages of one conversation, oldest
// first.
type MessagePage struct {
	Messages []Message `json:"messages"`
	// HasOlder and HasNewer tell whether the conversation holds messages
	// before the first and after the last of this page.
	HasOlder bool `json:"hasOlder"`
	HasNewer bool `json:"hasNewer"`
}

// HistoryPager reads a long history a page at a time: what it costs
// depends on the page's size, never on the length of the history.
type HistoryPager interface {
	// ConversationsPage returns one page of the conversation list. A cursor
	// that is not one this store made is a CodeInvalid error.
	ConversationsPage(ctx context.Context, q ConversationQuery) (ConversationPage, error)
	// OpenConversation returns a conversation with its latest limit
	// messages, its active and latest tasks and those the messages belong
	// to, and its usage over every task, read in one transaction so they
	// agree with each other. View.HasOlder tells whether earlier messages exist.
	OpenConversation(ctx context.Context, id string, limit int) (ConversationView, error)
	// MessagesBefore returns up to limit messages that come just before the
	// message beforeID ("" for the latest messages).
	MessagesBefore(ctx context.Context, conversationID, beforeID string, limit int) (MessagePage, error)
	// MessagesAfter returns up to limit messages that come just after the
	// message afterID ("" for the first messages).
	MessagesAfter(ctx context.Context, conversationID, afterID string, limit int) (MessagePage, error)
	// MessagesAround returns about limit messages around the message id,
	// that message included: a view of a message far back.
	MessagesAround(ctx context.Context, conversationID, id string, limit int) (MessagePage, error)
}

// CheckPageSize refuses a page size outside 1..MaxPageSize.
func CheckPageSize(limit int) error {
	if limit < 1 || limit > MaxPageSize {
		return Errorf(CodeInvalid, "a page holds 1 to %d items, not %d", MaxPageSize, limit)
	}
	return nil
}

// CheckTitleFilter refuses a title filter that cannot be a title's part:
// too long or not UTF-8.
func CheckTitleFilter(s string) error {
	if len(s) > MaxFilterLen || !utf8.ValidString(s) {
		return Errorf(CodeInvalid, "the search text must be UTF-8 text of at most %d bytes", MaxFilterLen)
	}
	return nil
}

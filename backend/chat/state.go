package chat

import (
	"strings"
	"time"
)

// ConversationState is where a conversation stands: going on, finished by
// its agent, or ended early (by the agent's end_conversation or the
// person's End conversation), with the reason given.
type ConversationState string

const (
	StateActive    ConversationState = "active"
	StateCompleted ConversationState = "completed"
	StateEnded     ConversationState = "ended"
)

// Who ended a conversation early.
const (
	EndedByAgent  = "agent"
	EndedByPerson = "person"
)

// MaxEndReasonBytes bounds the reason a conversation was ended with.
const MaxEndReasonBytes = 1024

// ConversationEnd is how a conversation ended: its state, and for an early
// end who ended it and why.
type ConversationEnd struct {
	State  ConversationState
	By     string
	Reason string
}

// CleanEndReason trims the reason a conversation is ended with, makes its
// control characters (line breaks aside) spaces, and refuses one over
// MaxEndReasonBytes. An empty reason is allowed (the person may give none).
func CleanEndReason(reason string) (string, error) {
	if len(reason) > MaxEndReasonBytes {
		return "", Invalidf("reason", "The reason is %s; the most it can be is 1 KB.", sizeOf(len(reason)))
	}
	lines := strings.Split(reason, "\n")
	for i, l := range lines {
		lines[i] = StripControls(l)
	}
	return strings.TrimSpace(strings.Join(lines, "\n")), nil
}

// AgentStats is how much an agent is used: its conversations (archived
// ones too), its tasks that completed, and when its latest task started
// (nil: never).
type AgentStats struct {
	AgentID        string     `json:"agentId"`
	Conversations  int        `json:"conversations"`
	CompletedTasks int        `json:"completedTasks"`
	LastUsedAt     *time.Time `json:"lastUsedAt,omitempty" ts_type:"string"`
}

// Package mode decides, for one message in Auto mode, whether the agent
// loop should work on it as a task or a direct reply should answer it. The
// decision is local and fast (no model call): a table of weighted signals
// read from the message and the conversation's depth. A message that starts
// with /task or /chat decides for itself.
package mode

import (
	"strings"

	"github.com/errand-app/errand/backend/chat"
)

// Decision is the local verdict on one message.
type Decision struct {
	Mode chat.TaskMode
	// Sure is false when the signals nearly cancel out; a caller may then
	// ask the model (one cheap classification call) when a setting allows.
	Sure bool
	// Score is the signals' sum: at or above threshold means a task.
	Score float64
	// Reasons names the signals that fired, for the log and the tests.
	Reasons []string
}

// threshold is the score from which a message is worked on as a task;
// margin is how far from it a score must be for the decision to be sure.
const (
	threshold = 2.0
	margin    = 1.5
)

// Decide returns the local decision for text, the depth being how many
// messages the conversation held before it.
func Decide(text string, depth int) Decision {
	m := read(text, depth)
	d := Decision{Mode: chat.ModeChat}
	for _, s := range signals {
		if w := s.weigh(m); w != 0 {
			d.Score += w
			d.Reasons = append(d.Reasons, s.name)
		}
	}
	if d.Score >= threshold {
		d.Mode = chat.ModeAgent
	}
	d.Sure = d.Score >= threshold+margin || d.Score <= threshold-margin
	return d
}

// Forced reads a leading /task or /chat: the mode it forces and the
// message without the command. ok is false when text starts with neither.
// A command with nothing after it is an error.
func Forced(text string) (m chat.TaskMode, rest string, ok bool, err error) {
	trimmed := strings.TrimLeft(text, " \t\r\n")
	for cmd, forced := range commands {
		after, found := strings.CutPrefix(trimmed, cmd)
		if !found || (after != "" && !startsWithSpace(after)) {
			continue
		}
		rest = strings.TrimSpace(after)
		if rest == "" {
			return "", "", true, chat.Errorf(chat.CodeInvalid,
				"%s needs a message after it, e.g. \"%s rename the photos by date\".", cmd, cmd)
		}
		return forced, rest, true, nil
	}
	return "", text, false, nil
}

var commands = map[string]chat.TaskMode{"/task": chat.ModeAgent, "/chat": chat.ModeChat}

func startsWithSpace(s string) bool {
	return strings.IndexAny(s[:1], " \t\r\n") == 0
}

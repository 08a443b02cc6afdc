package chat

import "strings"

// ModeAuto is a conversation's mode when Errand decides, message by
// message, whether the agent loop or a direct reply answers. It is only
// ever a conversation's setting: a task itself runs as ModeAgent or
// ModeChat.
const ModeAuto TaskMode = "auto"

// ParseMode accepts the three modes a conversation can be in (auto, agent,
// chat) by name, in any case.
func ParseMode(s string) (TaskMode, error) {
	switch m := TaskMode(strings.ToLower(strings.TrimSpace(s))); m {
	case ModeAuto, ModeAgent, ModeChat:
		return m, nil
	}
	return "", Errorf(CodeInvalid, "Unknown mode %s: choose auto, agent or chat.", Quote(s))
}

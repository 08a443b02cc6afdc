package chat

import (
	"regexp"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"
)

// ChatMode says who starts a conversation with an agent.
type ChatMode string

const (
	// ChatReactive: the person starts, the agent answers.
	ChatReactive ChatMode = "reactive"
	// ChatProactive: the agent speaks first, as soon as a conversation
	// with it is opened.
	ChatProactive ChatMode = "proactive"
)

// AgentDefinition is a named agent: its instructions, its tools, its
// model and limits, and how the conversation with it goes. The built-in
// ones (BuiltinAgents) are Errand's own; the person's are stored.
type AgentDefinition struct {
	// ID is a slug: lower-case letters, digits and dashes.
	ID          string `json:"id"`
	Name        string `json:"name"`
	Description string `json:"description"`
	// Color is a CSS hex colour (#rrggbb) for the agent's badge.
	Color string `json:"color"`
	// Instructions are the agent's system prompt; Errand's agentic-mode
	// rules always follow them.
	Instructions string `json:"instructions"`
	// AllTools offers every built-in tool (and new ones as they come);
	// otherwise only Tools. A name in Tools is a built-in tool, or one of
	// an external server's tools, namespaced "server__tool", which is
	// offered only when a server provides it (see CheckAgent).
	AllTools bool     `json:"allTools"`
	Tools    []string `json:"tools"`
	// Model overrides the default model; the conversation's own choice
	// wins over it.
	Model string `json:"model"`
	// Limits override the settings' limits for the agent's tasks, each
	// one that is above 0.
	Limits Limits   `json:"limits"`
	Mode   ChatMode `json:"mode"`
	// CanUserType: the composer is open while the agent works (the default
	// an input hint overrides). AllowEarlyTermination shows "End
	// conversation".
	CanUserType           bool `json:"canUserType"`
	AllowEarlyTermination bool `json:"allowEarlyTermination"`
	// ShowHistory false shows the person only the current question (and
	// what follows it), not the conversation before it; everything is
	// still stored and exported. ShowEndButton false hides the button that
	// stops or ends the conversation. Both default to true (AgentDefaults),
	// and an input hint overrides them per message.
	ShowHistory   bool `json:"showHistory"`
	ShowEndButton bool `json:"showEndButton"`
	// TypeDuringOpening lets the person type while a proactive agent's
	// first turn runs; otherwise the composer is locked until it has
	// spoken.
	TypeDuringOpening bool `json:"typeDuringOpening"`
	// Opening is what a proactive agent does first: the instruction its
	// first request carries in place of a message from the person.
	Opening   string    `json:"opening"`
	BuiltIn   bool      `json:"builtIn"`
	CreatedAt time.Time `json:"createdAt" ts_type:"string"`
	UpdatedAt time.Time `json:"updatedAt" ts_type:"string"`
}

// The built-in agents' ids. A conversation with no agent set talks to
// Errand.
const (
	AgentErrand      = "errand"
	AgentInterviewer = "interviewer"
	AgentQuiz        = "quiz"
)

// Limits on an agent definition.
const (
	MaxInstructionsLen = 100 * 1024
	MaxAgentNameLen    = 60
	MaxAgentDescLen    = 500
	MaxAgentTools      = 200
	MaxAgentIDLen      = 40
)

var (
	slugRe       = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[a-z0-9]+(?:-[a-z0-9]+)*$`) })
	colorRe      = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^#[0-9a-fA-F]{6}$`) })
	namespacedRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_-]*__[A-Za-z0-9][A-Za-z0-9_-]*$`)
	})
)

// IsNamespacedTool reports whether name looks like an external server's
// tool, "server__tool": such a name is kept in a definition even before
// any server provides it.
func IsNamespacedTool(name string) bool { return namespacedRe().MatchString(name) }

// hasVisible reports whether s has a character one can see: not a space,
// a format character (zero-width, bidi) or a blank filler (Hangul, Braille).
func hasVisible(s string) bool {
	return strings.IndexFunc(s, func(r rune) bool {
		switch r {
		case '\u115f', '\u1160', '\u3164', '\uffa0', '\u2800':
			return false
		}
		return unicode.IsGraphic(r) && !unicode.IsSpace(r) && !unicode.Is(unicode.Cf, r)
	}) >= 0
}

// CheckAgent refuses a definition that cannot be saved: a bad slug, an
// empty or over-long name, instructions over 100 KB, a tool that is
// neither built in (known reports the built-in ones) nor namespaced, an
// unknown chat mode, a bad colour, limits out of range.
func CheckAgent(d AgentDefinition, known func(tool string) bool) error {
	switch {
	case d.ID == "":
		return Invalidf("id", "The agent needs an id.")
	case len(d.ID) > MaxAgentIDLen || !slugRe().MatchString(d.ID):
		return Invalidf("id", "The agent id %s must be lower-case letters, digits and dashes, at most %d characters.", Quote(d.ID), MaxAgentIDLen)
	case !hasVisible(d.Name):
		return Invalidf("name", "The agent needs a name (one with characters you can see).")
	case len([]rune(d.Name)) > MaxAgentNameLen || StripControls(d.Name) != d.Name:
		return Invalidf("name", "The agent's name must be one line of at most %d characters.", MaxAgentNameLen)
	case len([]rune(d.Description)) > MaxAgentDescLen:
		return Invalidf("description", "The agent's description is longer than %d characters.", MaxAgentDescLen)
	case strings.IndexFunc(d.Description, func(r rune) bool { return r != '\n' && r != '\t' && unsafeRune(r) }) >= 0 || !utf8.ValidString(d.Description):
		return Invalidf("description", "The agent's description must not hold control or bidi characters.")
	case len(d.Instructions) > MaxInstructionsLen:
		return Invalidf("instructions", "The agent's instructions are %s; the most they can be is 100 KB.", sizeOf(len(d.Instructions)))
	case len(d.Opening) > MaxInstructionsLen:
		return Invalidf("opening", "The agent's opening is longer than 100 KB.")
	case d.Mode != ChatReactive && d.Mode != ChatProactive:
		return Invalidf("mode", "The chat mode must be %q or %q (it is %s).", ChatReactive, ChatProactive, Quote(string(d.Mode)))
	case d.TypeDuringOpening && d.Mode != ChatProactive:
		return Invalidf("typeDuringOpening", "Only a proactive agent has an opening turn to type during; turn this off or make the agent proactive.")
	case d.Color != "" && !colorRe().MatchString(d.Color):
		return Invalidf("color", "The agent's colour must look like #3366cc.")
	case len(d.Tools) > MaxAgentTools:
		return Invalidf("tools", "An agent has at most %d tools.", MaxAgentTools)
	}
	if err := CheckModelName(d.Model); err != nil {
		return OnField("model", err)
	}
	if err := checkAgentLimits(d.Limits); err != nil {
		return err
	}
	seen := map[string]bool{}
	for _, t := range d.Tools {
		if seen[t] {
			return Invalidf("tools", "The tool %s is listed twice.", Quote(t))
		}
		seen[t] = true
		if !known(t) && !IsNamespacedTool(t) {
			return Invalidf("tools", "Unknown tool %s.", Quote(t))
		}
	}
	return nil
}

// checkAgentLimits: 0 means "the settings' limit"; anything else must be
// a limit the settings could hold.
func checkAgentLimits(l Limits) error {
	switch {
	case l.MaxSteps < 0 || l.MaxSteps > MaxStepsLimit:
		return Invalidf("maxSteps", "The agent's step limit must be between 0 (the default) and %d.", MaxStepsLimit)
	case !(l.MaxMinutes >= 0 && l.MaxMinutes <= MaxMinutesLimit):
		return Invalidf("maxMinutes", "The agent's time limit must be between 0 (the default) and %d minutes.", MaxMinutesLimit)
	case !(l.MaxCostUSD >= 0 && l.MaxCostUSD <= MaxSpendLimit):
		return Invalidf("maxCostUsd", "The agent's spend limit must be between $0 (the default) and $%d.", MaxSpendLimit)
	}
	return nil
}

// Over returns base with each limit the agent sets (above 0) in its place.
func (l Limits) Over(base Limits) Limits {
	if l.MaxSteps > 0 {
		base.MaxSteps = l.MaxSteps
	}
	if l.MaxMinutes > 0 {
		base.MaxMinutes = l.MaxMinutes
	}
	if l.MaxCostUSD > 0 {
		base.MaxCostUSD = l.MaxCostUSD
	}
	return base
}

// Allows reports whether the agent offers the tool (control tools aside).
func (d AgentDefinition) Allows(tool string) bool {
	return d.AllTools || contains(d.Tools, tool)
}

// IsBuiltinAgent reports whether id names a built-in agent.
func IsBuiltinAgent(id string) bool {
	_, ok := BuiltinAgent(id)
	return ok
}

// BuiltinAgent returns the built-in agent with that id.
func BuiltinAgent(id string) (AgentDefinition, bool) {
	for _, d := range BuiltinAgents() {
		if d.ID == id {
			return d, true
		}
	}
	return AgentDefinition{}, false
}

// AgentDefaults is a definition with the defaults a stored or imported one
// starts from before its JSON is read: a field it does not name (one from
// before the field existed) keeps its default.
func AgentDefaults() AgentDefinition {
	return AgentDefinition{ShowHistory: true, ShowEndButton: true}
}

// BuiltinAgents are Errand's own agents, in the order they are listed.
func BuiltinAgents() []AgentDefinition {
	return []AgentDefinition{
		{
			ID: AgentErrand, Name: "Errand", Color: "#3b6fd8", BuiltIn: true,
			Description:  "The general agent: works on any task with every built-in tool.",
			Instructions: "You are Errand, an AI agent working on a task for the user in a desktop app.",
			AllTools:     true, Mode: ChatReactive, CanUserType: true, ShowHistory: true, ShowEndButton: true,
		},
		{
			ID: AgentInterviewer, Name: "Interviewer", Color: "#8a4fd0", BuiltIn: true,
			Description: "Collects requirements or feedback with forms and choices, then writes a summary.",
			Instructions: "You are Interviewer, an agent that collects requirements or feedback from the person.\n" +
				"Ask with ask_user, preferring a form (fields) for related facts and choices for a pick among options. " +
				"Ask one thing at a time, never more than five questions in all. " +
				"When you have what you need, write a clear, structured summary of the answers and call task_complete.",
			Mode: ChatProactive, AllowEarlyTermination: true, ShowHistory: true, ShowEndButton: true,
			Opening: "Greet the person in one sentence, say what you will collect, and ask your first question with a form.",
		},
		{
			ID: AgentQuiz, Name: "Quiz", Color: "#d0802a", BuiltIn: true,
			Description: "Asks for a topic, then multiple-choice questions, and scores the answers.",
			Instructions: "You are Quiz, an agent that quizzes the person on a topic of their choice.\n" +
				"First ask for the topic with ask_user (offer a few topics as choices, with allow_other). " +
				"Then ask three multiple-choice questions, one at a time, each with ask_user and four choices; " +
				"say after each whether the answer was right. Finally give the score (right answers out of three) and call task_complete.",
			Mode: ChatProactive, AllowEarlyTermination: true, ShowHistory: true, ShowEndButton: true,
			Opening: "Greet the person in one sentence and ask which topic to be quizzed on.",
		},
	}
}

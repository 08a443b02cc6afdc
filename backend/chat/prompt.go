package chat

import (
	"strings"
	"time"
	"unicode/utf8"
)

// SavedPrompt is a message the person keeps under a name, to send again:
// typing "/" in an empty composer lists them.
type SavedPrompt struct {
	ID        string    `json:"id"`
	Name      string    `json:"name"`
	Text      string    `json:"text"`
	CreatedAt time.Time `json:"createdAt" ts_type:"string"`
	UpdatedAt time.Time `json:"updatedAt" ts_type:"string"`
}

// Limits on saved prompts.
const (
	// MaxPromptNameLen bounds a saved prompt's name, in characters.
	MaxPromptNameLen = 80
	// MaxSavedPrompts bounds how many prompts Errand keeps.
	MaxSavedPrompts = 1000
)

// CleanPrompt returns a saved prompt as Errand stores it: its name on one
// line without control or bidi characters, spaces collapsed; its text
// trimmed. An empty or over-long name (Field "name") and an empty or
// over-long text (Field "text") are refused.
func CleanPrompt(p SavedPrompt) (SavedPrompt, error) {
	if len(p.Name) > 4*MaxPromptNameLen+1024 {
		return p, Invalidf("name", "The name is longer than %d characters.", MaxPromptNameLen)
	}
	name := strings.Join(strings.Fields(StripControls(p.Name)), " ")
	switch {
	case name == "" || strings.IndexFunc(name, visible) < 0:
		return p, Invalidf("name", "The prompt needs a name.")
	case utf8.RuneCountInString(name) > MaxPromptNameLen:
		return p, Invalidf("name", "The name is longer than %d characters.", MaxPromptNameLen)
	}
	text := strings.TrimSpace(p.Text)
	if text == "" {
		return p, Invalidf("text", "The prompt's text is empty.")
	}
	if err := CheckMessage(text); err != nil {
		return p, OnField("text", err)
	}
	p.Name, p.Text = name, text
	return p, nil
}

// DuplicatePromptName is the error for a name another saved prompt has.
func DuplicatePromptName(name string) *Error {
	return &Error{Code: CodeConflict, Field: "name",
		Message: "There is already a prompt named " + Quote(name) + "; choose another name."}
}

// Package contextwin keeps a conversation inside a model's context window:
// the budget (the model's context length less a reserve for the reply), a
// token counter on a real tokenizer with a calibration for models that
// count differently, and the planning of compaction (which older turns are
// summarised, how big tool results are excerpted, what is left out when
// nothing else fits). It decides; the agent loop asks it and acts.
package contextwin

import (
	"strings"

	"github.com/errand-app/errand/backend/chat"
)

// DefaultContextLength is the context length of a model nothing else
// tells about: small enough for a local server's default.
const DefaultContextLength = 8192

// MaxReserve is the most tokens kept free for the model's reply.
const MaxReserve = 4096

// Source says where a context length came from.
type Source string

const (
	SourceSetting  Source = "setting"  // the person's per-model setting
	SourceProvider Source = "provider" // the model server said so
	SourceKnown    Source = "known"    // the table of well-known models
	SourceDefault  Source = "default"  // DefaultContextLength
)

// known holds the context lengths of well-known hosted models, by name
// prefix; the longest matching prefix wins. Local servers (Ollama, LM
// Studio) run models with a context of their own choosing, far below what
// the model could do, so local model names are deliberately absent.
var known = []struct {
	prefix string
	tokens int
}{
	{"gpt-4o", 128_000},
	{"gpt-4.1", 1_047_576},
	{"gpt-4-turbo", 128_000},
	{"gpt-4", 8_192},
	{"gpt-3.5-turbo", 16_385},
	{"gpt-5", 400_000},
	{"o1", 200_000},
	{"o3", 200_000},
	{"o4-mini", 200_000},
	{"claude-", 200_000},
	{"gemini-1.5", 1_048_576},
	{"gemini-2", 1_048_576},
	{"errand-demo", 32_768},
}

// ContextLength resolves a model's context length: the person's setting
// first, then what the provider reported (0 when it did not), then the
// table of well-known models, else DefaultContextLength. A value out of
// range (see CheckContextLength) is passed over.
func ContextLength(model string, settings map[string]int, reported int) (int, Source) {
	if n, ok := settings[model]; ok && CheckContextLength(n) == nil {
		return n, SourceSetting
	}
	if CheckContextLength(reported) == nil {
		return reported, SourceProvider
	}
	if n := knownLength(model); n > 0 {
		return n, SourceKnown
	}
	return DefaultContextLength, SourceDefault
}

// knownLength looks a model up in the table; an OpenRouter-style vendor
// prefix ("openai/gpt-4o") is ignored.
func knownLength(model string) int {
	name := strings.ToLower(model)
	if i := strings.LastIndexByte(name, '/'); i >= 0 {
		name = name[i+1:]
	}
	best, n := 0, 0
	for _, k := range known {
		if strings.HasPrefix(name, k.prefix) && len(k.prefix) > best {
			best, n = len(k.prefix), k.tokens
		}
	}
	return n
}

// CheckContextLength refuses a context length Errand cannot work in: zero,
// negative, below chat.MinContextLength or above chat.MaxContextLength.
func CheckContextLength(n int) error {
	if n < chat.MinContextLength || n > chat.MaxContextLength {
		return chat.Errorf(chat.CodeInvalid, "a context length must be between %d and %d tokens (it is %d)",
			chat.MinContextLength, chat.MaxContextLength, n)
	}
	return nil
}

// Budget is what one request may hold.
type Budget struct {
	// Length is the model's context length.
	Length int
	// Reserve is kept free for the model's reply.
	Reserve int
}

// NewBudget returns the budget of a model with the given context length:
// the reserve is a quarter of it, at most MaxReserve.
func NewBudget(length int) Budget {
	return Budget{Length: length, Reserve: min(MaxReserve, length/4)}
}

// Input is the most tokens a request may hold.
func (b Budget) Input() int { return b.Length - b.Reserve }

// CompactAt is the size of the history past which older turns are
// summarised: about three quarters of the input budget.
func (b Budget) CompactAt() int { return b.Input() * 3 / 4 }

// Keep is how much of the history stays verbatim after compaction: recent
// turns up to a third of the input budget.
func (b Budget) Keep() int { return b.Input() / 3 }

// Squeeze returns the budget with its input cut to a fraction, for a retry
// after the server said the request was too long despite our count.
func (b Budget) Squeeze(fraction float64) Budget {
	in := int(float64(b.Input()) * fraction)
	return Budget{Length: in + b.Reserve, Reserve: b.Reserve}
}

package chat

import (
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Limits on what a person, a model server or a file can hand Errand. Each
// is far above any sensible use and far below what would hurt.
const (
	// MaxPricePerMTok bounds a price, in US dollars per million tokens.
	MaxPricePerMTok = 10000
	// MaxContextLength bounds a model's context length, in tokens;
	// MinContextLength is the least Errand works in (its instructions and
	// tools alone take about a thousand tokens).
	MaxContextLength = 10_000_000
	MinContextLength = 1024
	// MaxModelEntries bounds the price and context-length tables.
	MaxModelEntries = 1000
	// MaxStepsLimit, MaxMinutesLimit and MaxSpendLimit bound the limits a
	// task starts with; MaxStepDelayMS bounds the delay between steps.
	MaxStepsLimit   = 10000
	MaxMinutesLimit = 24 * 60
	MaxSpendLimit   = 10000
	MaxStepDelayMS  = 60000
	// MaxMCPCallTimeoutSec bounds the MCP call timeout.
	MaxMCPCallTimeoutSec = 3600
	// MinModelTimeoutSec and MaxModelTimeoutSec bound the model's first-byte
	// and idle timeouts: below a few seconds a model that is merely slow
	// would be cut.
	MinModelTimeoutSec = 5
	MaxModelTimeoutSec = 3600
	// The checkpoint storage limit, in MB, and how many folders it may skip.
	MinCheckpointLimitMB = 10
	MaxCheckpointLimitMB = 1 << 20
	MaxCheckpointExclude = 100
	// MaxSystemPromptLen bounds the agent's instructions, in bytes.
	MaxSystemPromptLen = 20000
	// MaxModelNameLen bounds a model's name, in bytes.
	MaxModelNameLen = 200
	// MaxTitleLen bounds a conversation's title, in characters.
	MaxTitleLen = 200
	// MaxKeyLen bounds an API key, in bytes.
	MaxKeyLen = 4096
	// MaxMessageBytes bounds what a person writes in one message.
	MaxMessageBytes = 1 << 20
	// MaxPathLen bounds a folder path, in bytes.
	MaxPathLen = 4096
	// MaxIDLen bounds an id; Errand's own are 36 bytes.
	MaxIDLen = 128
	// MaxURLLen bounds a server address, in bytes.
	MaxURLLen = 2048
	// CostCeilingUSD is the most one computed cost can be: a price table
	// that makes more of a step is wrong, and the sum of such costs must
	// stay a finite number.
	CostCeilingUSD = 1e12
)

// quoteLen is how much of a long input an error message repeats.
const quoteLen = 40

// Quote quotes s for an error message, cut to a short prefix when it is
// long, so that an error never repeats a huge input back.
func Quote(s string) string {
	if len(s) <= quoteLen {
		return fmt.Sprintf("%q", s)
	}
	cut := quoteLen
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return fmt.Sprintf("%q… (%d bytes)", s[:cut], len(s))
}

// Finite reports whether v is neither NaN nor infinite.
func Finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

// CheckFinite refuses a number that is NaN or infinite; field names it.
func CheckFinite(field string, v float64) error {
	if !Finite(v) {
		return Errorf(CodeInvalid, "%s must be a finite number (it is %v)", field, v)
	}
	return nil
}

// ClampCost makes a computed cost a number that can be stored, added and
// shown: NaN and negative costs count as 0, and anything above
// CostCeilingUSD (infinity included) as CostCeilingUSD.
func ClampCost(v float64) float64 {
	switch {
	case math.IsNaN(v) || v < 0:
		return 0
	case v > CostCeilingUSD:
		return CostCeilingUSD
	}
	return v
}

// bidiControl reports the characters that reorder text: embeddings,
// overrides and isolates (U+202A–U+202E, U+2066–U+2069). In a title they
// can make one name look like another.
func bidiControl(r rune) bool {
	return (r >= 0x202A && r <= 0x202E) || (r >= 0x2066 && r <= 0x2069)
}

// unsafeRune reports a control character (C0, DEL, C1) or a bidi control.
func unsafeRune(r rune) bool { return unicode.IsControl(r) || bidiControl(r) }

// StripControls returns s as valid UTF-8 without bidi controls, each other
// control character (a line break, a tab, NUL…) made a space.
func StripControls(s string) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	if strings.IndexFunc(s, unsafeRune) < 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range s {
		switch {
		case bidiControl(r):
		case unicode.IsControl(r):
			b.WriteByte(' ')
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// CleanTitle returns the title as Errand stores it: on one line, without
// control or bidi characters, spaces collapsed. It refuses an empty title
// and one longer than MaxTitleLen characters.
func CleanTitle(title string) (string, error) {
	if len(title) > 4*MaxTitleLen+1024 {
		return "", Invalidf("title", "The title is longer than %d characters.", MaxTitleLen)
	}
	t := strings.Join(strings.Fields(StripControls(title)), " ")
	if t == "" {
		return "", Invalidf("title", "The title is empty.")
	}
	if strings.IndexFunc(t, visible) < 0 {
		return "", Errorf(CodeInvalid, "the title has no visible character")
	}
	if utf8.RuneCountInString(t) > MaxTitleLen {
		return "", Invalidf("title", "The title is longer than %d characters.", MaxTitleLen)
	}
	return t, nil
}

// visible reports a character that shows: not a space, a format character
// (zero-width space, joiners) or one of the blank letters (Hangul fillers,
// the blank Braille pattern).
func visible(r rune) bool {
	switch r {
	case 0x115F, 0x1160, 0x3164, 0xFFA0, 0x2800:
		return false
	}
	return unicode.IsGraphic(r) && !unicode.IsSpace(r) && !unicode.Is(unicode.Cf, r)
}

// CheckModelName refuses a model name that is too long or holds control
// or bidi characters. The empty name (the default model) passes.
func CheckModelName(name string) error {
	if len(name) > MaxModelNameLen {
		return Errorf(CodeInvalid, "The model name %s is longer than %d characters.", Quote(name), MaxModelNameLen)
	}
	if !utf8.ValidString(name) || strings.IndexFunc(name, unsafeRune) >= 0 {
		return Errorf(CodeInvalid, "The model name %s holds a control character.", Quote(name))
	}
	return nil
}

// CheckKey refuses an API key that cannot travel in a request header: one
// with a line break, NUL or another control character, or longer than
// MaxKeyLen. The message never repeats the key.
func CheckKey(key string) error {
	if len(key) > MaxKeyLen {
		return Invalidf("apiKey", "The API key is longer than %d characters; paste the key alone.", MaxKeyLen)
	}
	if !utf8.ValidString(key) || strings.IndexFunc(key, unicode.IsControl) >= 0 {
		return Invalidf("apiKey", "The API key holds a line break or another control character; paste the key alone, on one line.")
	}
	return nil
}

// CheckMessage refuses a message longer than MaxMessageBytes.
func CheckMessage(text string) error {
	if len(text) > MaxMessageBytes {
		return Errorf(CodeInvalid, "the message is %s; Errand takes at most %s in one message",
			sizeOf(len(text)), sizeOf(MaxMessageBytes))
	}
	return nil
}

// CheckPath refuses a folder path that is too long or holds a control
// character.
func CheckPath(path string) error {
	if len(path) > MaxPathLen {
		return Errorf(CodeInvalid, "the path %s is longer than %d characters", Quote(path), MaxPathLen)
	}
	if !utf8.ValidString(path) || strings.IndexFunc(path, unicode.IsControl) >= 0 {
		return Errorf(CodeInvalid, "the path %s holds a control character", Quote(path))
	}
	return nil
}

// CheckID refuses an empty id, and one that cannot be an id (too long, or
// with control characters); what names the kind ("task"). The message
// quotes at most a short prefix.
func CheckID(what, id string) error {
	if strings.TrimSpace(id) == "" {
		return Errorf(CodeInvalid, "no %s id was given", what)
	}
	if len(id) > MaxIDLen || !utf8.ValidString(id) || strings.IndexFunc(id, unsafeRune) >= 0 {
		return Errorf(CodeInvalid, "%s is not a %s id", Quote(id), what)
	}
	return nil
}

func sizeOf(n int) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d bytes", n)
}

// CheckSettings refuses settings with a number out of its range (NaN and
// infinities included) or a model name that cannot be one. Each error is
// a sentence that names the field, and carries it (its JSON name). The
// tool risks are the caller's to check.
func CheckSettings(st Settings) error {
	if err := checkNumbers(st); err != nil {
		return err
	}
	if _, err := ParseMode(string(st.DefaultMode)); err != nil {
		return Invalidf("defaultMode", "The default mode must be auto, agent or chat, not %s.", Quote(string(st.DefaultMode)))
	}
	for _, name := range st.CheckpointExclude {
		if name == "" || name == "." || name == ".." || strings.ContainsAny(name, `/\`) {
			return Invalidf("checkpointExclude", "An excluded folder is a folder name such as node_modules, not %s.", Quote(name))
		}
	}
	if err := checkTables(st); err != nil {
		return err
	}
	if err := CheckModelName(st.Provider.Model); err != nil {
		return OnField("model", err)
	}
	if len(st.Provider.BaseURL) > MaxURLLen {
		return Invalidf("baseUrl", "The server address is longer than %d characters.", MaxURLLen)
	}
	return nil
}

// checkNumbers refuses a limit, delay, timeout or size out of its range.
func checkNumbers(st Settings) error {
	l := st.Limits
	switch {
	case l.MaxSteps < 1 || l.MaxSteps > MaxStepsLimit:
		return Invalidf("maxSteps", "The step limit must be between 1 and %d.", MaxStepsLimit)
	case !(l.MaxMinutes > 0 && l.MaxMinutes <= MaxMinutesLimit):
		return Invalidf("maxMinutes", "The time limit must be more than 0 and at most %d minutes.", MaxMinutesLimit)
	case !(l.MaxCostUSD > 0 && l.MaxCostUSD <= MaxSpendLimit):
		return Invalidf("maxCostUsd", "The spend limit must be more than $0 and at most $%d.", MaxSpendLimit)
	case st.StepDelayMS < 0 || st.StepDelayMS > MaxStepDelayMS:
		return Invalidf("stepDelayMs", "The delay between steps must be between 0 and %d ms.", MaxStepDelayMS)
	case st.MCPCallTimeoutSec < 1 || st.MCPCallTimeoutSec > MaxMCPCallTimeoutSec:
		return Invalidf("mcpCallTimeoutSec", "The MCP call timeout must be between 1 and %d seconds.", MaxMCPCallTimeoutSec)
	case st.ModelFirstByteTimeoutSec < MinModelTimeoutSec || st.ModelFirstByteTimeoutSec > MaxModelTimeoutSec:
		return Invalidf("modelFirstByteTimeoutSec", "The model first-byte timeout must be between %d and %d seconds.", MinModelTimeoutSec, MaxModelTimeoutSec)
	case st.ModelIdleTimeoutSec < MinModelTimeoutSec || st.ModelIdleTimeoutSec > MaxModelTimeoutSec:
		return Invalidf("modelIdleTimeoutSec", "The model idle timeout must be between %d and %d seconds.", MinModelTimeoutSec, MaxModelTimeoutSec)
	case st.CheckpointLimitMB < MinCheckpointLimitMB || st.CheckpointLimitMB > MaxCheckpointLimitMB:
		return Invalidf("checkpointLimitMb", "The checkpoint storage limit must be between %d and %d MB.", MinCheckpointLimitMB, MaxCheckpointLimitMB)
	case len(st.CheckpointExclude) > MaxCheckpointExclude:
		return Invalidf("checkpointExclude", "At most %d folders can be excluded from checkpoints.", MaxCheckpointExclude)
	case len(st.SystemPrompt) > MaxSystemPromptLen:
		return Invalidf("systemPrompt", "The system prompt is longer than %d characters.", MaxSystemPromptLen)
	case len(st.Prices) > MaxModelEntries:
		return Invalidf("prices", "The price table has %d models; the most it takes is %d.", len(st.Prices), MaxModelEntries)
	case len(st.ReasoningEffort) > MaxModelEntries:
		return Invalidf("reasoningEffort", "The reasoning-effort table has %d models; the most it takes is %d.", len(st.ReasoningEffort), MaxModelEntries)
	case len(st.ContextLengths) > MaxModelEntries:
		return Invalidf("contextLengths", "The context-length table has %d models; the most it takes is %d.", len(st.ContextLengths), MaxModelEntries)
	case st.ReflectionRounds < 0 || st.ReflectionRounds > MaxReflectionRounds:
		return Invalidf("reflectionRounds", "The reflection rounds must be between 0 (off) and %d.", MaxReflectionRounds)
	}
	return nil
}

// checkTables refuses a context length or a price out of its range, or
// one for a model name that cannot be one.
func checkTables(st Settings) error {
	for model, n := range st.ContextLengths {
		if err := checkTableModel("contextLengths", "A context length", model); err != nil {
			return err
		}
		if n < MinContextLength || n > MaxContextLength {
			return Invalidf("contextLengths", "The context length of %s must be between %d and %d tokens (it is %d).",
				Quote(model), MinContextLength, MaxContextLength, n)
		}
	}
	for model, e := range st.ReasoningEffort {
		if err := checkTableModel("reasoningEffort", "A reasoning effort", model); err != nil {
			return err
		}
		if !e.Valid() {
			return Invalidf("reasoningEffort", "The reasoning effort of %s must be low, medium or high, not %s.", Quote(model), Quote(string(e)))
		}
	}
	for model, p := range st.Prices {
		if err := checkTableModel("prices", "A price", model); err != nil {
			return err
		}
		for _, v := range []struct {
			name  string
			price float64
		}{{"input", p.InputPerMTok}, {"output", p.OutputPerMTok}} {
			if !(v.price >= 0 && v.price <= MaxPricePerMTok) {
				return Invalidf("prices", "The %s price of %s must be between $0 and $%d per million tokens (it is %v).",
					v.name, Quote(model), MaxPricePerMTok, v.price)
			}
		}
	}
	return nil
}

func checkTableModel(field, what, model string) error {
	if strings.TrimSpace(model) == "" {
		return Invalidf(field, "%s needs a model name.", what)
	}
	return OnField(field, CheckModelName(model))
}

// MarshalJSON encodes the task with every number finite, so that encoding
// a task can never fail: a cost or limit that is not a finite number is
// sent as the nearest one that is.
func (t Task) MarshalJSON() ([]byte, error) {
	type plain Task // without this method
	p := plain(t)
	p.CostUSD = ClampCost(p.CostUSD)
	p.Limits.MaxMinutes = finiteOr(p.Limits.MaxMinutes)
	p.Limits.MaxCostUSD = finiteOr(p.Limits.MaxCostUSD)
	return json.Marshal(p)
}

// finiteOr maps NaN to 0 and the infinities to the largest float64s.
func finiteOr(v float64) float64 {
	switch {
	case math.IsNaN(v):
		return 0
	case math.IsInf(v, 1):
		return math.MaxFloat64
	case math.IsInf(v, -1):
		return -math.MaxFloat64
	}
	return v
}

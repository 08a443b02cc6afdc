package contextwin

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/errand-app/errand/backend/chat"
	"github.com/errand-app/errand/backend/llm"
)

// Unit is messages the model must see together, or not at all: a user
// message, an assistant reply, or an assistant's tool calls followed by
// their results. Leaving out or summarising whole units keeps every tool
// call paired with its result.
type Unit struct {
	Messages []llm.Message
	// Tokens is the unit's uncalibrated count.
	Tokens int
	// Seq is the stored sequence number of the last message it covers.
	Seq int64
	// Pinned units are never left out: the request the task works on.
	Pinned bool
}

// Unit counts msgs as one unit.
func (c *Counter) Unit(msgs []llm.Message, seq int64) Unit {
	n := 0
	for _, m := range msgs {
		n += c.Message(m)
	}
	return Unit{Messages: msgs, Tokens: n, Seq: seq}
}

// Sizes of tool results in excerpts, in characters.
const (
	// OldResultChars is the most an older turn's tool result keeps.
	OldResultChars = 2000
	// TightResultChars is what is kept when nothing else fits.
	TightResultChars = 400
	// recentUnits are the latest units, sent verbatim while they fit.
	recentUnits = 2
)

// Excerpt cuts s to about max characters: its head and its tail, with a
// note of what was left out between them. Shorter text is returned as is.
func Excerpt(s string, max int) string {
	if utf8.RuneCountInString(s) <= max {
		return s
	}
	r := []rune(s)
	head, tail := max*2/3, max/3
	omitted := len(r) - head - tail
	return string(r[:head]) +
		fmt.Sprintf("\n[… %d characters omitted; the full result is stored and shown to the person …]\n", omitted) +
		string(r[len(r)-tail:])
}

// excerptUnit returns u with its tool results cut to max characters.
func (c *Counter) excerptUnit(u Unit, max int) Unit {
	changed := false
	msgs := make([]llm.Message, len(u.Messages))
	for i, m := range u.Messages {
		if m.Role == chat.RoleTool || (m.Role == chat.RoleUser && !u.Pinned) {
			if cut := Excerpt(m.Content, max); len(cut) != len(m.Content) {
				m.Content, changed = cut, true
			}
		}
		msgs[i] = m
	}
	if !changed {
		return u
	}
	out := c.Unit(msgs, u.Seq)
	out.Pinned = u.Pinned
	return out
}

// Fitted is the history as it goes to the model.
type Fitted struct {
	Messages []llm.Message
	// Tokens is the uncalibrated count of Messages.
	Tokens int
	// Dropped counts the units left out to make it fit.
	Dropped int
	// Excerpted is true when some tool result was cut.
	Excerpted bool
}

// Fit makes units fit in limit uncalibrated tokens, trying in order: all
// verbatim; the images of all but the latest units left out (named in
// the text: an old image costs much, and its gist is in the replies that
// followed it); tool results of all but the latest units excerpted; the
// oldest units that are not pinned left out; every tool result and
// message cut hard. ok is false when even that does not fit.
func (c *Counter) Fit(units []Unit, limit int) (f Fitted, ok bool) {
	if sum(units) <= limit {
		return join(units, 0, false), true
	}
	work := append([]Unit(nil), units...)
	for i := 0; i < len(work)-recentUnits; i++ {
		work[i] = c.withoutImages(work[i])
	}
	if sum(work) <= limit {
		return join(work, 0, true), true
	}
	for i := 0; i < len(work)-recentUnits; i++ {
		work[i] = c.excerptUnit(work[i], OldResultChars)
	}
	if sum(work) <= limit {
		return join(work, 0, true), true
	}
	// Leave out the oldest units, pinned ones excepted.
	dropped := 0
	for i := 0; i < len(work) && sum(work) > limit && len(work) > 1; {
		if work[i].Pinned || i == len(work)-1 {
			i++
			continue
		}
		work = append(work[:i], work[i+1:]...)
		dropped++
	}
	if sum(work) <= limit {
		return join(work, dropped, true), true
	}
	for i := range work {
		work[i] = c.excerptUnit(work[i], TightResultChars)
	}
	f = join(work, dropped, true)
	return f, f.Tokens <= limit
}

// Projected estimates what units cost once Fit has left out the images
// and excerpted the tool results of all but the latest ones: the size
// that decides whether to compact (an old image, and a big result that
// will go as an excerpt, do not count in full, so they go before any text
// is summarised). It is an estimate in proportion to the characters kept;
// Fit counts exactly.
func Projected(units []Unit) int {
	n := 0
	for i, u := range units {
		if i >= len(units)-recentUnits {
			n += u.Tokens
			continue
		}
		u.Tokens = max(0, u.Tokens-imageCost(u.Messages))
		total, kept := 0, 0
		for _, m := range u.Messages {
			total += len(m.Content)
			if m.Role == chat.RoleTool && len(m.Content) > OldResultChars*4 {
				kept += OldResultChars * 4 // runes are up to 4 bytes: never under-estimate
			} else {
				kept += len(m.Content)
			}
		}
		if total == 0 || kept == total {
			n += u.Tokens
			continue
		}
		n += int(float64(u.Tokens)*float64(kept)/float64(total)) + 32
	}
	return n
}

func sum(units []Unit) int {
	n := 0
	for _, u := range units {
		n += u.Tokens
	}
	return n
}

func join(units []Unit, dropped int, excerpted bool) Fitted {
	f := Fitted{Dropped: dropped, Excerpted: excerpted}
	for _, u := range units {
		f.Messages = append(f.Messages, u.Messages...)
		f.Tokens += u.Tokens
	}
	return f
}

// SplitForSummary returns how many leading units to summarise so that the
// rest, kept verbatim, holds at most keep tokens. The latest unit is
// always kept; 0 means there is nothing older to summarise.
func SplitForSummary(units []Unit, keep int) int {
	if len(units) < 2 {
		return 0
	}
	kept := units[len(units)-1].Tokens
	cut := len(units) - 1
	for cut > 0 && kept+units[cut-1].Tokens <= keep {
		cut--
		kept += units[cut].Tokens
	}
	return cut
}

// Render writes units as plain text for the summariser, one entry per
// unit, with tool results cut to OldResultChars.
func Render(units []Unit) []string {
	out := make([]string, 0, len(units))
	for _, u := range units {
		var b strings.Builder
		for _, m := range u.Messages {
			switch {
			case m.Role == chat.RoleTool:
				fmt.Fprintf(&b, "Tool result: %s\n", Excerpt(m.Content, OldResultChars))
			case len(m.ToolCalls) > 0:
				if m.Content != "" {
					fmt.Fprintf(&b, "Assistant: %s\n", m.Content)
				}
				for _, tc := range m.ToolCalls {
					fmt.Fprintf(&b, "Assistant called %s(%s)\n", tc.Name, Excerpt(tc.Arguments, OldResultChars))
				}
			case m.Role == chat.RoleUser:
				fmt.Fprintf(&b, "User: %s\n", Excerpt(m.Content, 4*OldResultChars))
			default:
				fmt.Fprintf(&b, "Assistant: %s\n", Excerpt(m.Content, 4*OldResultChars))
			}
		}
		out = append(out, b.String())
	}
	return out
}

// Chunks groups rendered entries into pieces of at most limit
// uncalibrated tokens each, in order; an entry bigger than limit on its
// own is cut to fit. The summariser reads one piece per call, so its
// input is bounded whatever the history holds.
func (c *Counter) Chunks(entries []string, limit int) []string {
	var out []string
	var cur strings.Builder
	n := 0
	for _, e := range entries {
		t := c.Text(e)
		for t > limit && len(e) > 64 {
			e = Excerpt(e, len([]rune(e))*limit/t*9/10)
			t = c.Text(e)
		}
		if n+t > limit && cur.Len() > 0 {
			out = append(out, cur.String())
			cur.Reset()
			n = 0
		}
		cur.WriteString(e)
		n += t
	}
	if cur.Len() > 0 {
		out = append(out, cur.String())
	}
	return out
}

package openai

import (
	"encoding/json"
	"strings"

	"github.com/errand-app/errand/backend/llm"
	"github.com/tidwall/gjson"
)

// replyReader splits the deltas of one reply into its reasoning and its
// answer, whatever shape the server gives them: a reasoning field
// (reasoning_content, reasoning, reasoning_details), content parts
// (Mistral's thinking and text parts) or <think> tags in the content.
type replyReader struct {
	out   llm.Deltas
	think thinkSplitter
	// fields is the reasoning of the fields and parts, tags that of the
	// <think> blocks; text is the answer.
	fields, tags, text strings.Builder
	// lead is the whitespace an answer began with, held back until its
	// first other character shows whether it leads the answer or only
	// parts it from the reasoning before.
	lead string
	// closedOnly is set when the reply closed a <think> block it never
	// opened: it began inside the block.
	closedOnly bool
}

// newReplyReader returns a reader for one reply. startInside makes it
// read the reply's content as inside a <think> block until it closes one
// (a model that earlier began its replies inside the block).
func newReplyReader(out llm.Deltas, startInside bool) *replyReader {
	r := &replyReader{out: out}
	r.think.inside, r.think.implicit = startInside, startInside
	return r
}

// delta reads one choice's delta.
func (r *replyReader) delta(d delta) {
	r.reasoning(fieldReasoning(d))
	raw := strings.TrimSpace(d.content.Raw)
	switch {
	case strings.HasPrefix(raw, "["), strings.HasPrefix(raw, "{"):
		r.parts(raw)
	case d.content.Type == gjson.String:
		r.content(d.content.String())
	}
}

// parts reads content sent as an array of parts (or as one part): a
// thinking part is reasoning, a text part is answer, anything else is
// left out.
func (r *replyReader) parts(raw string) {
	var parts []contentPart
	if strings.HasPrefix(raw, "{") {
		var one contentPart
		if json.Unmarshal([]byte(raw), &one) != nil {
			return
		}
		parts = []contentPart{one}
	} else if json.Unmarshal([]byte(raw), &parts) != nil {
		return
	}
	for _, p := range parts {
		switch p.Type {
		case "thinking":
			r.reasoning(p.thinking())
		case "text":
			r.content(stringOf(p.Text))
		}
	}
}

// contentPart is one part of content sent as an array. Fields are raw so
// that a value of an unexpected type is skipped, not an error.
type contentPart struct {
	Type     string          `json:"type"`
	Text     json.RawMessage `json:"text"`
	Thinking json.RawMessage `json:"thinking"`
}

// thinking is the text of a thinking part: a string, or text parts.
func (p contentPart) thinking() string {
	if s := stringOf(p.Thinking); s != "" {
		return s
	}
	var inner []contentPart
	if json.Unmarshal(p.Thinking, &inner) != nil {
		return ""
	}
	var b strings.Builder
	for _, q := range inner {
		if q.Type == "text" {
			b.WriteString(stringOf(q.Text))
		}
	}
	return b.String()
}

// content reads answer text, which may hold <think> blocks.
func (r *replyReader) content(s string) {
	r.think.feed(s, r)
}

// reasoning takes reasoning from a field or part.
func (r *replyReader) reasoning(s string) {
	if s == "" {
		return
	}
	r.fields.WriteString(s)
	r.out.OnReasoning(s)
}

// tagged takes reasoning from inside a <think> block.
func (r *replyReader) tagged(s string) {
	if s == "" {
		return
	}
	r.tags.WriteString(s)
	r.out.OnReasoning(s)
}

// answer takes answer text. Its leading whitespace is held back: after
// reasoning it is dropped (DeepSeek sends "\n\n" before its tool calls),
// so that the text streamed is the text kept.
func (r *replyReader) answer(s string) {
	if r.text.Len() == 0 {
		if strings.TrimLeft(s, spaces) == "" {
			r.lead += s
			return
		}
		if r.hasReasoning() {
			s = strings.TrimLeft(s, spaces)
		} else {
			s = r.lead + s
		}
		r.lead = ""
	}
	r.text.WriteString(s)
	r.out.OnText(s)
}

// spaces are the characters trimmed from the start of an answer.
const spaces = " \t\r\n"

func (r *replyReader) hasReasoning() bool { return r.fields.Len() > 0 || r.tags.Len() > 0 }

// closedUnopened is told that the reply closed a <think> block it never
// opened: what came as answer so far was reasoning.
func (r *replyReader) closedUnopened() {
	r.closedOnly = true
	r.tags.WriteString(r.lead + r.text.String())
	r.text.Reset()
	r.lead = ""
}

// finish ends the reply and returns its reasoning and answer. A reply
// read as inside a block that never closed one was all answer after all.
func (r *replyReader) finish() (reasoning, text string) {
	r.think.flush(r)
	if r.think.implicit {
		pre := r.tags.String()
		if r.fields.Len() > 0 {
			pre = strings.TrimLeft(pre, spaces)
		}
		r.tags.Reset()
		r.out.OnText(pre)
		text = pre + r.text.String()
	} else {
		text = r.text.String()
	}
	if text == "" && r.lead != "" && !r.hasReasoning() {
		r.out.OnText(r.lead) // an answer of whitespace alone
		text = r.lead
	}
	return r.fields.String() + r.tags.String(), text
}

// fieldReasoning is the reasoning a delta carries in a field of its own:
// reasoning_content (DeepSeek, GLM, Kimi, Qwen, vLLM), reasoning
// (OpenRouter, Groq, gpt-oss on Ollama) or, only when neither has text,
// the text of OpenRouter's reasoning_details (which repeats reasoning).
// A field of another type than expected is ignored.
func fieldReasoning(d delta) string {
	for _, f := range []gjson.Result{d.reasoningContent, d.reasoning} {
		if f.Type == gjson.String && f.Str != "" {
			return f.Str
		}
	}
	raw := d.reasoningDetails.Raw
	if !strings.HasPrefix(strings.TrimSpace(raw), "[") {
		return ""
	}
	var details []struct {
		Type    string          `json:"type"`
		Text    json.RawMessage `json:"text"`
		Summary json.RawMessage `json:"summary"`
	}
	if json.Unmarshal([]byte(raw), &details) != nil {
		return ""
	}
	var b strings.Builder
	for _, d := range details {
		switch d.Type {
		case "reasoning.text":
			b.WriteString(stringOf(d.Text))
		case "reasoning.summary":
			b.WriteString(stringOf(d.Summary))
		}
	}
	return b.String()
}

// stringOf is raw as a string when it is a JSON string, else "".
func stringOf(raw json.RawMessage) string {
	if len(raw) == 0 || raw[0] != '"' {
		return ""
	}
	var s string
	if json.Unmarshal(raw, &s) != nil {
		return ""
	}
	return s
}

const (
	openTag  = "<think>"
	closeTag = "</think>"
)

// thinkSplitter finds <think>…</think> blocks in streamed content, tags
// split across deltas too. It holds back at most a tag's length of text.
type thinkSplitter struct {
	inside bool
	// implicit: reading as inside a block no tag opened, until a close.
	implicit bool
	// seen: the reply had a block (opened or closed).
	seen bool
	// trim drops the whitespace that follows a tag.
	trim    bool
	pending string
}

// thinkSink receives what the splitter finds.
type thinkSink interface {
	tagged(string)
	answer(string)
	closedUnopened()
}

// feed reads the next piece of content.
func (s *thinkSplitter) feed(chunk string, to thinkSink) {
	buf := s.pending + chunk
	s.pending = ""
	for buf != "" {
		if s.inside {
			i := strings.Index(buf, closeTag)
			if i < 0 {
				keep := partialTag(buf, closeTag)
				s.emit(buf[:len(buf)-keep], to)
				s.pending = buf[len(buf)-keep:]
				return
			}
			s.emit(buf[:i], to)
			buf = buf[i+len(closeTag):]
			s.inside, s.implicit, s.seen, s.trim = false, false, true, true
			continue
		}
		open, end := strings.Index(buf, openTag), strings.Index(buf, closeTag)
		switch {
		case open >= 0 && (end < 0 || open < end):
			s.emit(buf[:open], to)
			buf = buf[open+len(openTag):]
			s.inside, s.seen, s.trim = true, true, true
		case end >= 0:
			// A close with no open: at the start of a reply, everything
			// before it was reasoning; after a block, a stray tag.
			if s.seen {
				s.emit(buf[:end], to)
			} else {
				to.closedUnopened()
				s.inside = true
				s.emit(buf[:end], to)
				s.inside, s.seen, s.trim = false, true, true
			}
			buf = buf[end+len(closeTag):]
		default:
			keep := max(partialTag(buf, openTag), partialTag(buf, closeTag))
			s.emit(buf[:len(buf)-keep], to)
			s.pending = buf[len(buf)-keep:]
			return
		}
	}
}

// flush ends the content: held-back text goes where it was.
func (s *thinkSplitter) flush(to thinkSink) {
	s.emit(s.pending, to)
	s.pending = ""
}

func (s *thinkSplitter) emit(text string, to thinkSink) {
	if s.trim {
		text = strings.TrimLeft(text, spaces)
		if text == "" {
			return
		}
		s.trim = false
	}
	if s.inside {
		to.tagged(text)
	} else {
		to.answer(text)
	}
}

// partialTag is the length of the longest end of buf that begins tag.
func partialTag(buf, tag string) int {
	for n := min(len(buf), len(tag)-1); n > 0; n-- {
		if strings.HasSuffix(buf, tag[:n]) {
			return n
		}
	}
	return 0
}

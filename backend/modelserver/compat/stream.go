package compat

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	mrand "math/rand/v2"
	"net/http"
	"strconv"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/errand-app/errand/backend/chat"
)

// errGone means the client went away before the reply was complete.
var errGone = errors.New("client went away")

// errClosed means the server was closed while the reply was held.
var errClosed = errors.New("server closed")

// response is one reply being written for one request.
type response struct {
	w       http.ResponseWriter
	ctx     context.Context
	closed  <-chan struct{}
	req     *Request
	reply   Reply
	calls   []chat.ToolCall // reply.ToolCalls with ids and arguments filled in
	prompt  int             // the counted prompt tokens, when the server counts
	id      string
	created int64
	sent    int // SSE events written
	// thinking is the server's Thinking (DeepSeek's thinking mode).
	thinking bool
	// holding, when set, is told when the HangAfterText wait starts (+1)
	// and ends (-1).
	holding func(delta int)
}

func newResponse(w http.ResponseWriter, r *http.Request, closed <-chan struct{}, req *Request, reply Reply) *response {
	calls := make([]chat.ToolCall, len(reply.ToolCalls))
	for i, tc := range reply.ToolCalls {
		if tc.ID == "" {
			tc.ID = "call_" + randomID()
		}
		if tc.Arguments == "" {
			tc.Arguments = "{}"
		}
		calls[i] = tc
	}
	return &response{
		w: w, ctx: r.Context(), closed: closed, req: req, reply: reply, calls: calls,
		id: "chatcmpl-" + randomID(), created: time.Now().Unix(),
	}
}

// stream writes the reply as server-sent events. It returns errGone if
// the client went away first and errClosed if the server was closed.
func (rs *response) stream() error {
	if rs.reply.Stall == StallBeforeHeaders {
		return rs.hold()
	}
	h := rs.w.Header()
	h.Set("Content-Type", "text/event-stream; charset=utf-8")
	h.Set("Cache-Control", "no-cache")
	rs.w.WriteHeader(http.StatusOK)
	if rs.reply.Stall == StallAfterHeaders {
		if err := http.NewResponseController(rs.w).Flush(); err != nil {
			return errGone
		}
		return rs.hold()
	}

	if err := rs.comment(); err != nil {
		return err
	}
	empty := ""
	if err := rs.send(Delta{Role: "assistant", Content: &empty}, nil); err != nil {
		return err
	}
	for _, d := range rs.textDeltas() {
		if err := rs.send(d, nil); err != nil {
			return err
		}
		if err := rs.comment(); err != nil {
			return err
		}
	}
	if rs.reply.StreamError != "" {
		return rs.writeStreamError()
	}
	if err := rs.afterText(); err != nil {
		return err
	}
	for i, tc := range rs.calls {
		first := ToolCallDelta{Index: i, ID: tc.ID, Type: "function", Function: FunctionDelta{Name: tc.Name}}
		if err := rs.send(Delta{ToolCalls: []ToolCallDelta{first}}, nil); err != nil {
			return err
		}
		for _, piece := range pieces(tc.Arguments, argPieceLen) {
			more := ToolCallDelta{Index: i, Function: FunctionDelta{Arguments: piece}}
			if err := rs.send(Delta{ToolCalls: []ToolCallDelta{more}}, nil); err != nil {
				return err
			}
		}
	}
	finish := rs.reply.finishReason()
	if err := rs.send(Delta{}, &finish); err != nil {
		return err
	}
	if rs.req.StreamOptions != nil && rs.req.StreamOptions.IncludeUsage {
		usage := rs.usage()
		if err := rs.write(Chunk{ID: rs.id, Object: "chat.completion.chunk", Created: rs.created, Model: rs.req.Model, Choices: []ChunkChoice{}, Usage: &usage}); err != nil {
			return err
		}
	}
	return rs.writeRaw([]byte("data: [DONE]\n\n"))
}

// textDeltas are the deltas of the reasoning and the text, in the
// reply's shape.
func (rs *response) textDeltas() []Delta {
	var out []Delta
	words := Words(rs.reply.Reasoning)
	switch rs.reply.ReasoningAs {
	case ReasoningField:
		for _, w := range words {
			out = append(out, Delta{Reasoning: &w})
		}
	case ThinkTags, ThinkClose:
		block := rs.reply.Reasoning + "</think>\n\n"
		if rs.reply.ReasoningAs == ThinkTags {
			block = "<think>\n" + block
		}
		if rs.reply.Reasoning == "" {
			block = ""
		}
		// Pieces of five bytes split the tags across chunks.
		for _, p := range pieces(block, 5) {
			if p != "" {
				out = append(out, Delta{Content: &p})
			}
		}
	case ThinkingParts:
		for _, w := range words {
			out = append(out, Delta{Parts: []DeltaPart{{Type: "thinking", Thinking: []DeltaPart{{Type: "text", Text: w}}}}})
		}
		for _, w := range Words(rs.reply.Text) {
			out = append(out, Delta{Parts: []DeltaPart{{Type: "text", Text: w}}})
		}
		return out
	default:
		for _, w := range words {
			out = append(out, Delta{ReasoningContent: &w})
		}
		if rs.thinking && len(words) > 0 && rs.reply.Text == "" && len(rs.calls) > 0 {
			// DeepSeek's thinking mode parts its reasoning from its tool
			// calls with two line ends of content.
			lineEnds := "\n\n"
			out = append(out, Delta{Content: &lineEnds})
		}
	}
	for _, w := range Words(rs.reply.Text) {
		out = append(out, Delta{Content: &w})
	}
	return out
}

// comment writes an SSE comment line when the reply asks for them.
func (rs *response) comment() error {
	if !rs.reply.Comments {
		return nil
	}
	return rs.writeRaw([]byte(": OPENROUTER PROCESSING\n\n"))
}

// writeStreamError ends the stream with an error event, as OpenRouter
// reports a failure after the 200 status.
func (rs *response) writeStreamError() error {
	data, err := json.Marshal(map[string]any{
		"id": rs.id, "object": "chat.completion.chunk", "created": rs.created, "model": rs.req.Model,
		"error":   map[string]any{"code": 502, "message": rs.reply.StreamError},
		"choices": []any{map[string]any{"index": 0, "delta": map[string]any{"content": ""}, "finish_reason": "error"}},
	})
	if err != nil {
		return err
	}
	return rs.writeRaw([]byte("data: " + string(data) + "\n\n"))
}

// complete writes the reply as one chat.completion object.
func (rs *response) complete() error {
	if rs.reply.Stall != NoStall {
		return rs.hold()
	}
	if err := rs.afterText(); err != nil {
		return err
	}
	msg := ReplyMessage{Role: "assistant"}
	if rs.reply.Text != "" || len(rs.calls) == 0 {
		msg.Content = &rs.reply.Text
	}
	if rs.reply.Reasoning != "" {
		msg.ReasoningContent = &rs.reply.Reasoning
	}
	for _, tc := range rs.calls {
		msg.ToolCalls = append(msg.ToolCalls, ToolCall{ID: tc.ID, Type: "function", Function: FunctionCall{Name: tc.Name, Arguments: tc.Arguments}})
	}
	writeJSON(rs.w, http.StatusOK, Completion{
		ID: rs.id, Object: "chat.completion", Created: rs.created, Model: rs.req.Model,
		Choices: []CompletionChoice{{Message: msg, FinishReason: rs.reply.finishReason()}},
		Usage:   rs.usage(),
	})
	return nil
}

// afterText carries out HangAfterText and DropAfterText.
func (rs *response) afterText() error {
	switch {
	case rs.reply.HangAfterText:
		return rs.hold()
	case rs.reply.DropAfterText:
		// The documented way to break the connection from a handler.
		panic(http.ErrAbortHandler)
	}
	return nil
}

// hold sends nothing until the client goes away (errGone) or the server
// is closed (errClosed).
func (rs *response) hold() error {
	if rs.holding != nil {
		rs.holding(1)
		defer rs.holding(-1)
	}
	select {
	case <-rs.ctx.Done():
		return errGone
	case <-rs.closed:
		return errClosed
	}
}

// send writes one chunk with a single choice, after the reply's delay.
func (rs *response) send(d Delta, finish *string) error {
	return rs.write(Chunk{
		ID: rs.id, Object: "chat.completion.chunk", Created: rs.created, Model: rs.req.Model,
		Choices: []ChunkChoice{{Delta: d, FinishReason: finish}},
	})
}

func (rs *response) write(c Chunk) error {
	data, err := json.Marshal(c)
	if err != nil {
		return err
	}
	return rs.writeRaw([]byte("data: " + string(data) + "\n\n"))
}

func (rs *response) writeRaw(event []byte) error {
	if rs.sent > 0 && rs.reply.ChunkDelay > 0 {
		t := time.NewTimer(rs.reply.ChunkDelay)
		defer t.Stop()
		select {
		case <-t.C:
		case <-rs.reply.Hurry:
		case <-rs.ctx.Done():
			return errGone
		case <-rs.closed:
			return errClosed
		}
	}
	if rs.ctx.Err() != nil {
		return errGone
	}
	if _, err := rs.w.Write(event); err != nil {
		return errGone
	}
	if err := http.NewResponseController(rs.w).Flush(); err != nil {
		return errGone
	}
	rs.sent++
	return nil
}

// usage is the reply's Usage, or an estimate when that is zero.
func (rs *response) usage() Usage {
	u := rs.reply.Usage
	if u == (chat.Usage{}) {
		u.PromptTokens = estimatePrompt(rs.req)
		if rs.prompt > 0 {
			u.PromptTokens = int64(rs.prompt)
		}
		n := len(rs.reply.Text) + len(rs.reply.Reasoning)
		for _, tc := range rs.calls {
			n += len(tc.Name) + len(tc.Arguments)
		}
		u.CompletionTokens = int64(n/4 + 1)
	}
	if u.TotalTokens == 0 {
		u.TotalTokens = u.PromptTokens + u.CompletionTokens
	}
	out := Usage{PromptTokens: u.PromptTokens, CompletionTokens: u.CompletionTokens, TotalTokens: u.TotalTokens}
	if u.CacheReadTokens > 0 {
		out.PromptTokensDetails = &PromptTokensDetails{CachedTokens: u.CacheReadTokens}
	}
	return out
}

// estimatePrompt guesses a request's prompt tokens at four characters a
// token plus a few per message.
func estimatePrompt(req *Request) int64 {
	n := 0
	for _, m := range req.Messages {
		n += 16 + len(m.Content.Text)
		if m.ReasoningContent != nil {
			n += len(*m.ReasoningContent)
		}
		for _, tc := range m.ToolCalls {
			n += len(tc.Function.Name) + len(tc.Function.Arguments)
		}
	}
	if len(req.Tools) > 0 {
		tools, _ := json.Marshal(req.Tools)
		n += len(tools)
	}
	return int64(n / 4)
}

// Words splits text into the chunks a stream sends: each word together
// with the whitespace before it. Joining the chunks gives text back.
func Words(text string) []string {
	var out []string
	start := 0
	prevSpace := true
	for i, r := range text {
		space := unicode.IsSpace(r)
		if space && !prevSpace && i > start {
			out = append(out, text[start:i])
			start = i
		}
		prevSpace = space
	}
	if start < len(text) {
		out = append(out, text[start:])
	}
	return out
}

// argPieceLen is the size in bytes of the argument pieces of a tool call.
const argPieceLen = 12

// pieces splits s into pieces of about n bytes, never inside a UTF-8
// sequence. An empty s is one empty piece.
func pieces(s string, n int) []string {
	if s == "" {
		return []string{""}
	}
	var out []string
	for len(s) > n {
		cut := n
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		if cut == 0 {
			_, cut = utf8.DecodeRuneInString(s)
		}
		out = append(out, s[:cut])
		s = s[cut:]
	}
	if s != "" {
		out = append(out, s)
	}
	return out
}

// idAlphabet and idLength make the server's ids: 24 letters and digits.
const (
	idAlphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
	idLength   = 24
)

// randomID returns 24 random letters and digits.
func randomID() string {
	b := make([]byte, idLength)
	_, _ = rand.Read(b)
	for i := range b {
		b[i] = idAlphabet[int(b[i])%len(idAlphabet)]
	}
	return string(b)
}

// SeededCallID is a tool call id shaped like the ones the server gives a
// call without one ("call_" and 24 letters and digits), the same for the
// same seed: for a script whose token counts must not vary from run to
// run (the tokens of a random id do).
func SeededCallID(seed uint64) string {
	r := mrand.New(mrand.NewPCG(seed, 7))
	b := make([]byte, idLength)
	for i := range b {
		b[i] = idAlphabet[r.IntN(len(idAlphabet))]
	}
	return "call_" + string(b)
}

// retryAfterHeaders sets the headers the OpenAI SDKs read to wait before
// retrying.
func retryAfterHeaders(h http.Header, d time.Duration) {
	if d <= 0 {
		return
	}
	h.Set("Retry-After-Ms", strconv.FormatInt(d.Milliseconds(), 10))
	h.Set("Retry-After", strconv.FormatInt(int64((d+time.Second-1)/time.Second), 10))
}

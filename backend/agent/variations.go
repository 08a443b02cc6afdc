package agent

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/errand-app/errand/backend/chat"
	"github.com/errand-app/errand/backend/llm"
	"github.com/google/uuid"
)

// Variations' rules.
const (
	// MaxVariations is the most variations one call writes;
	// DefaultVariations is how many the window offers first.
	MaxVariations     = 5
	DefaultVariations = 3
	// variationFlush is the shortest time between two progress reports
	// of one variation's text.
	variationFlush = 50 * time.Millisecond
)

// variationApproaches are the approaches the variations are told to take,
// one each, so that they are worth comparing.
var variationApproaches = [MaxVariations]string{
	"answer as directly and plainly as you can.",
	"take a different angle or structure from the obvious answer.",
	"be thorough: go step by step and cover what a quick answer would leave out.",
	"be brief: the shortest answer that fully serves the person.",
	"be inventive: try an unconventional approach.",
}

// variationNote tells a variation which it is and how it differs.
const variationNote = "\n\n## Variation %d of %d\nYou are writing one of %d alternative versions of your next reply, which the person will compare side by side. " +
	"Take a different approach from the other versions: %s"

// VariationsRequest is what the person asks Variations for.
type VariationsRequest struct {
	// Count is how many variations to write, 1 to MaxVariations.
	Count int `json:"count"`
	// Models names the model of each variation, by its place ("" or
	// none: the conversation's).
	Models []string `json:"models"`
}

// check refuses a count outside 1 to MaxVariations, or more models than
// variations, with the field at fault.
func (q VariationsRequest) check() error {
	if q.Count < 1 || q.Count > MaxVariations {
		return chat.Invalidf("count", "Choose between 1 and %d variations, not %d.", MaxVariations, q.Count)
	}
	if len(q.Models) > q.Count {
		return chat.Invalidf("models", "%d models were chosen for %d variations; choose at most one model per variation.", len(q.Models), q.Count)
	}
	return nil
}

// model is the model asked for at place i ("" for the conversation's).
func (q VariationsRequest) model(i int) string {
	if i < len(q.Models) {
		return strings.TrimSpace(q.Models[i])
	}
	return ""
}

// Variation is one variation as it is written (progress) and when it is
// done: its text so far, and once done its stored version, what it used
// and cost (its summary calls included) and how long it took.
type Variation struct {
	ConversationID string `json:"conversationId"`
	// ReplyID is the reply the variation is a version of.
	ReplyID string `json:"replyId"`
	Index   int    `json:"index"`
	Model   string `json:"model"`
	Text    string `json:"text"`
	// Rev grows with each report of the variation: a report older than
	// one already shown is stale.
	Rev       int        `json:"rev"`
	Done      bool       `json:"done"`
	Stopped   bool       `json:"stopped,omitempty"`
	Error     string     `json:"error,omitempty"`
	ElapsedMS int64      `json:"elapsedMs"`
	Usage     chat.Usage `json:"usage"`
	CostUSD   float64    `json:"costUsd"`
	// Message is the stored version (none for a variation that failed or
	// was stopped before it wrote anything).
	Message *chat.Message `json:"message,omitempty"`
}

// variationBase is what every variation of a reply starts from: the
// conversation's agent and its history before the reply, since the latest
// summary that covers only messages before it.
type variationBase struct {
	conversationID, replyID string
	def                     chat.AgentDefinition
	summary                 *chat.Summary
	history                 []chat.Message
}

// Variations writes req.Count more replies in place of the reply id, in
// parallel, each on the model req.Models names at its place, each told to
// take a different approach, and each built like a normal reply: the
// agent's instructions and memory, and the history fitted to the model's
// context budget (summarised when it is long). progress hears each one's
// text as it is written; StopVariations stops them, keeping what was
// written. They are stored as versions of the reply, off the current
// branch, and what they used is added to the conversation's totals. It is
// refused while a task runs; it fails only when every variation failed.
func (r *Runner) Variations(ctx context.Context, conversationID, id string, req VariationsRequest, progress func(Variation)) ([]Variation, error) {
	if err := req.check(); err != nil {
		return nil, err
	}
	if err := r.idle(conversationID, "variations cannot be written"); err != nil {
		return nil, err
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	if !r.beginVariations(conversationID, cancel) {
		return nil, chat.Errorf(chat.CodeConflict, "variations are already being written in this conversation; wait for them or stop them")
	}
	defer r.endVariations(conversationID)
	base, err := r.variationBase(ctx, conversationID, id)
	if err != nil {
		return nil, err
	}
	out := make([]Variation, req.Count)
	var wg sync.WaitGroup
	for i := range out {
		wg.Add(1)
		go func() {
			defer wg.Done()
			out[i] = r.variation(ctx, base, i, req, progress)
			if progress != nil {
				progress(out[i])
			}
		}()
	}
	wg.Wait()
	return out, r.payVariations(conversationID, out)
}

// StopVariations stops the variations being written in the conversation;
// it reports whether there were any.
func (r *Runner) StopVariations(conversationID string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	cancel, ok := r.varying[conversationID]
	if ok {
		cancel()
	}
	return ok
}

// payVariations adds what the variations used to the conversation's
// totals, and fails when every one of them failed.
func (r *Runner) payVariations(conversationID string, vs []Variation) error {
	var u chat.Usage
	cost, failed := 0.0, 0
	var first string
	for _, v := range vs {
		u, cost = u.Add(v.Usage), cost+v.CostUSD
		if v.Error != "" {
			failed++
			if first == "" {
				first = v.Error
			}
		}
	}
	ctx, cancel := storeCtx()
	defer cancel()
	if u != (chat.Usage{}) || cost > 0 {
		if err := r.opts.Store.AddConversationUsage(ctx, conversationID, u, cost); err != nil {
			return err
		}
	}
	if failed == len(vs) {
		return chat.Errorf(chat.CodeModel, "No variation could be written: %s", first)
	}
	return nil
}

// variationBase reads the reply's place: refused for a message that is not
// the agent's reply, or not on the branch shown.
func (r *Runner) variationBase(ctx context.Context, conversationID, id string) (variationBase, error) {
	b := variationBase{conversationID: conversationID, replyID: id}
	reply, err := r.opts.Store.GetMessage(ctx, conversationID, id)
	if err != nil {
		return b, err
	}
	if reply.Role != chat.RoleAssistant {
		return b, chat.Errorf(chat.CodeInvalid, "variations are of the agent's replies only")
	}
	conv, err := r.opts.Store.GetConversation(ctx, conversationID)
	if err != nil {
		return b, err
	}
	b.def = r.agentOf(ctx, conv.AgentID)
	branch, err := r.opts.Store.Messages(ctx, conversationID)
	if err != nil {
		return b, err
	}
	at := -1
	for i, m := range branch {
		if m.ID == id {
			at = i
		}
	}
	if at < 0 {
		return b, chat.Errorf(chat.CodeInvalid, "this reply is not on the branch shown; show it first")
	}
	sum, ok, err := r.opts.Store.LatestSummary(ctx, conversationID)
	if err != nil {
		return b, err
	}
	var after int64
	if ok && sum.ThroughSeq < reply.Seq {
		b.summary, after = &sum, sum.ThroughSeq
	}
	for _, m := range branch[:at] {
		if m.Seq > after && m.Delivery != chat.DeliveryQueued {
			b.history = append(b.history, m)
		}
	}
	return b, nil
}

// seed gives a window its view without reading the store: a summary and
// the messages after it.
func (w *window) seed(sum *chat.Summary, msgs []chat.Message) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.summary, w.msgs, w.loaded = sum, append([]chat.Message(nil), msgs...), true
	for i, m := range w.msgs {
		w.index[m.ID] = i
	}
}

// variation writes the variation at place i: never an error, a variation
// that failed says why in its Error.
func (r *Runner) variation(ctx context.Context, b variationBase, i int, req VariationsRequest, progress func(Variation)) Variation {
	v := Variation{ConversationID: b.conversationID, ReplyID: b.replyID, Index: i, Model: req.model(i)}
	start := time.Now()
	p, err := r.variationProvider(ctx, b.conversationID, b.def.Model, v.Model)
	if err != nil {
		return v.end(start, err)
	}
	v.Model = p.Model()
	rn := newRun(r, chat.Task{ConversationID: b.conversationID, Mode: chat.ModeChat}, func() {})
	rn.provider, rn.def, rn.ephemeral = p, b.def, true
	rn.win.seed(b.summary, b.history)
	settings := r.settings(ctx)
	system := rn.systemPrompt(settings, chat.ModeChat) + fmt.Sprintf(variationNote, i+1, req.Count, req.Count, variationApproaches[i])
	system = rn.withMemory(ctx, system, settings, false)
	view, err := rn.buildRequest(ctx, system, toolSet{}, false, 0)
	if err != nil {
		v.Usage, v.CostUSD = rn.paidOutside()
		v.Stopped = ctx.Err() != nil
		return v.end(start, err)
	}
	stream := &variationStream{v: v, progress: progress}
	resp, err := streamPatiently(ctx, p, view.req, llm.Deltas{Text: stream.write}, "conversation", b.conversationID, "call", "variation")
	v = stream.final(resp, err)
	if err == nil || ctx.Err() != nil {
		v.Usage = variationUsage(rn, view, resp, v.Text)
	}
	_ = rn.pay(ctx, v.Usage)
	v.Usage, v.CostUSD = rn.paidOutside()
	if ctx.Err() != nil {
		err, v.Stopped = nil, true
	}
	if err == nil && v.Text != "" {
		err = r.storeVariation(&v, b)
	}
	return v.end(start, err)
}

// variationUsage is what the call used as its server reported it, or, for
// a call stopped before the server said, Errand's own count of the request
// and of the text written.
func variationUsage(rn *run, view view, resp llm.Response, text string) chat.Usage {
	if resp.Usage != (chat.Usage{}) {
		return resp.Usage
	}
	u := chat.Usage{PromptTokens: int64(view.tokens), CompletionTokens: int64(rn.win.counter.Text(text))}
	u.TotalTokens = u.PromptTokens + u.CompletionTokens
	return u
}

// end marks the variation done, with its time and its error, if any (a
// stopped one has none).
func (v Variation) end(start time.Time, err error) Variation {
	v.Done, v.Rev = true, v.Rev+1
	v.ElapsedMS = time.Since(start).Milliseconds()
	if err != nil && !v.Stopped {
		v.Error = chat.ErrorMessage(err)
	}
	return v
}

// storeVariation stores the variation as a version of the reply.
func (r *Runner) storeVariation(v *Variation, b variationBase) error {
	ctx, cancel := storeCtx()
	defer cancel()
	u := v.Usage
	m, err := r.opts.Store.AddVersion(ctx, chat.Message{
		ID: uuid.NewString(), ConversationID: b.conversationID, Role: chat.RoleAssistant,
		Content: v.Text, Usage: &u, CostUSD: v.CostUSD, CreatedAt: clock(),
	}, b.replyID)
	if err == nil {
		v.Message = &m
	}
	return err
}

// variationStream collects a variation's text and reports it, at most
// every variationFlush.
type variationStream struct {
	mu       sync.Mutex
	v        Variation
	text     strings.Builder
	last     time.Time
	progress func(Variation)
}

func (s *variationStream) write(text string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.text.WriteString(text)
	if s.progress == nil || time.Since(s.last) < variationFlush {
		return
	}
	s.last = time.Now()
	s.v.Text, s.v.Rev = s.text.String(), s.v.Rev+1
	s.progress(s.v)
}

// final is the variation with its whole text: the server's answer, or
// what was written before the call ended.
func (s *variationStream) final(resp llm.Response, err error) Variation {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.v.Text = s.text.String()
	if err == nil && resp.Content != "" {
		s.v.Text = resp.Content
	}
	s.v.Text = strings.TrimSpace(s.v.Text)
	return s.v
}

// beginVariations marks the conversation as having variations written,
// unless it has already; cancel stops them.
func (r *Runner) beginVariations(conversationID string, cancel context.CancelFunc) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.varying[conversationID] != nil {
		return false
	}
	r.varying[conversationID] = cancel
	return true
}

func (r *Runner) endVariations(conversationID string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	delete(r.varying, conversationID)
}

// variationProvider is the provider of a variation's model ("" for the
// conversation's, as its agent asks).
func (r *Runner) variationProvider(ctx context.Context, conversationID, agentModel, model string) (llm.Provider, error) {
	if model == "" || r.opts.ModelProvider == nil {
		return r.provider(ctx, conversationID, agentModel)
	}
	return r.opts.ModelProvider(ctx, model)
}

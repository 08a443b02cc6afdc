package agent

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"

	"github.com/errand-app/errand/backend/chat"
	"github.com/errand-app/errand/backend/contextwin"
	"github.com/errand-app/errand/backend/llm"
	"github.com/google/uuid"
)

// Compaction rules.
const (
	// retrySummaryAfter is how many more messages a run waits, after a
	// summary failed, before it asks the model for one again.
	retrySummaryAfter = 10
	// maxSummaryChunks bounds the model calls of one compaction.
	maxSummaryChunks = 16
	// maxLogLines is the longest execution log the model sees.
	maxLogLines = 40
	// manualKeepTurns are the latest turns CompactNow leaves verbatim.
	manualKeepTurns = 2
	// noteTokens is kept free for the notes the view adds (left-out turns).
	noteTokens = 64
	// SummaryNotice is the text of the notice in the transcript where the
	// older messages were summarised for the model.
	SummaryNotice = "Earlier messages summarised"
)

// window is a run's view of its conversation for the model: the latest
// summary and the messages after it, read from the store once per run (on
// its first step) and kept up to date by the run's own writes, so a step
// costs the same in a long conversation as in a new one.
type window struct {
	mu      sync.Mutex
	loaded  bool
	summary *chat.Summary
	msgs    []chat.Message
	index   map[string]int      // msgs by id
	counts  map[string]msgCount // token counts by message id
	counter *contextwin.Counter
	// fixed counts the system prompts and tool sets, once for every task
	// of the model.
	fixed *fixedCounts
	// files gives the model its view of attachments (may be nil).
	files Files
	// failedAt is len(msgs) when a summary last failed (-1: none has).
	failedAt int
}

type msgCount struct {
	rev, size, tokens int
}

func newWindow(files Files) *window {
	return &window{index: map[string]int{}, counts: map[string]msgCount{}, failedAt: -1, files: files}
}

// load reads the latest summary and what follows it.
func (w *window) load(ctx context.Context, st Store, convID string) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.loaded {
		return nil
	}
	sum, ok, err := st.LatestSummary(ctx, convID)
	if err != nil {
		return err
	}
	var after int64
	if ok {
		w.summary, after = &sum, sum.ThroughSeq
	}
	msgs, err := st.MessagesSince(ctx, convID, after)
	if err != nil {
		return err
	}
	// A queued message joins the view when its task delivers it.
	w.msgs = msgs[:0]
	for _, m := range msgs {
		if m.Delivery == chat.DeliveryQueued {
			continue
		}
		w.index[m.ID] = len(w.msgs)
		w.msgs = append(w.msgs, m)
	}
	w.loaded = true
	return nil
}

// observe takes messages the run has stored: new ones are appended, a
// stored one is replaced. Before load it does nothing: load reads them.
func (w *window) observe(msgs ...chat.Message) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if !w.loaded {
		return
	}
	for _, m := range msgs {
		if i, ok := w.index[m.ID]; ok {
			w.msgs[i] = m
			continue
		}
		w.index[m.ID] = len(w.msgs)
		w.msgs = append(w.msgs, m)
	}
}

// forget drops the messages a new summary covers.
func (w *window) forget(sum chat.Summary) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.summary = &sum
	k := 0
	for k < len(w.msgs) && w.msgs[k].Seq <= sum.ThroughSeq {
		delete(w.index, w.msgs[k].ID)
		delete(w.counts, w.msgs[k].ID)
		k++
	}
	w.msgs = append([]chat.Message(nil), w.msgs[k:]...)
	for i, m := range w.msgs {
		w.index[m.ID] = i
	}
	w.failedAt = -1
}

// units returns the view's turns as units, counted (each stored message is
// counted once per revision), the unit holding the task's request pinned.
func (w *window) units(taskID string) ([]contextwin.Unit, []turn) {
	w.mu.Lock()
	defer w.mu.Unlock()
	ts := turns(w.msgs, w.files)
	us := make([]contextwin.Unit, len(ts))
	for i, t := range ts {
		n := 0
		for j, m := range t.msgs {
			n += w.count(t.src[j], m)
		}
		us[i] = contextwin.Unit{Messages: t.msgs, Tokens: n, Seq: t.seq}
		if src := t.src[0]; src != nil && src.Role == chat.RoleUser && src.TaskID == taskID && taskID != "" {
			us[i].Pinned = true
		}
	}
	return us, ts
}

// count counts one message of the view, from the cache when the stored
// message has not changed.
func (w *window) count(src *chat.Message, m llm.Message) int {
	if src == nil {
		return w.counter.Message(m)
	}
	size := len(m.Content) + len(m.Reasoning) + len(m.Images)
	if c, ok := w.counts[src.ID]; ok && c.rev == src.Rev && c.size == size {
		return c.tokens
	}
	n := w.counter.Message(m)
	w.counts[src.ID] = msgCount{rev: src.Rev, size: size, tokens: n}
	return n
}

// mayCompact reports whether the run should try a summary now: not again
// right after one failed, until the history has grown.
func (w *window) mayCompact() bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.failedAt < 0 || len(w.msgs) >= w.failedAt+retrySummaryAfter
}

func (w *window) summaryFailed() {
	w.mu.Lock()
	w.failedAt = len(w.msgs)
	w.mu.Unlock()
}

func (w *window) latest() *chat.Summary {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.summary
}

// view is one request's messages and what they cost.
type view struct {
	req    llm.Request
	raw    int // uncalibrated count
	tokens int // calibrated count
	length int // the model's context length
}

// buildRequest makes the step's request within the model's budget: the
// history since the latest summary, compacted first when it has passed
// about three quarters of the budget, then fitted (big tool results of
// older turns excerpted, the oldest turns left out with a note) so that
// Errand never sends a request its own count says is too long. squeeze
// cuts the budget, for the retry after a server said it was too long.
func (rn *run) buildRequest(ctx context.Context, system string, tools toolSet, agentMode bool, squeeze float64) (view, error) {
	w := rn.win
	t := rn.snapshot()
	if err := w.load(ctx, rn.r.opts.Store, t.ConversationID); err != nil {
		return view{}, err
	}
	settings := rn.r.settings(ctx)
	model := rn.provider.Model()
	length := rn.contextLength(settings)
	budget := contextwin.NewBudget(length)
	if squeeze > 0 {
		budget = budget.Squeeze(squeeze)
	}
	if w.counter == nil {
		w.counter, w.fixed = rn.r.counter(model), rn.r.fixedCountsOf(model)
	}
	c := w.counter
	factor := c.Factor()
	uncal := func(calibrated int) int { return int(float64(calibrated) / factor) }

	units, ts := w.units(t.ID)
	fixed := rn.fixedCost(system, tools, t)
	if fixed+contextwin.Projected(units) > uncal(budget.CompactAt()) || squeeze > 0 {
		if w.mayCompact() {
			// What stays verbatim leaves room to grow for a few steps: on a
			// small model the instructions take much of the budget.
			keep := min(budget.Keep(), max(0, uncal(budget.CompactAt())-fixed)/3)
			if squeeze > 0 {
				keep = 0 // compact hard: all but the latest turn
			}
			if _, err := rn.compact(ctx, units, ts, budget, keep); err != nil {
				if ctx.Err() != nil || errors.Is(err, errEnded) {
					return view{}, err
				}
				w.summaryFailed()
				slog.Warn("context compaction failed; older turns are left out or excerpted instead",
					"task", t.ID, "conversation", t.ConversationID, "err", chat.Details(err))
			}
			units, _ = w.units(t.ID)
			fixed = rn.fixedCost(system, tools, t)
		}
	}
	fit, ok := c.Fit(units, uncal(budget.Input())-fixed-noteTokens)
	if !ok && w.toolTokens(tools) > uncal(budget.Input())/2 {
		return view{}, chat.Errorf(chat.CodeModel,
			"The %d tools offered to the model take about %d tokens, more than half of its context window of %d tokens, so the conversation does not fit beside them. "+
				"Disable the MCP servers (or the tools) this conversation does not need in Settings, or use a model with a larger context.", len(tools.list), int(float64(w.toolTokens(tools))*factor), length)
	}
	if !ok {
		return view{}, chat.Errorf(chat.CodeModel,
			"The conversation does not fit the model's context window of %d tokens, even with older messages summarised and left out. "+
				"Raise the model's context length in Settings (if the model supports more) or start a new conversation.", length)
	}
	sys := rn.systemWithHistory(system, t, fit)
	msgs := []llm.Message{{Role: chat.RoleSystem, Content: sys}}
	open := t.OriginalPrompt == "" && agentMode
	if open {
		msgs = append(msgs, rn.openingMessage())
	}
	msgs = withNudge(append(msgs, fit.Messages...), agentMode)
	req := llm.Request{Messages: msgs, Tools: tools.list, ToolsKey: tools.key, ReasoningEffort: string(settings.ReasoningEffort[model])}
	// What c.Raw(req) would say, from the counts already made.
	raw := w.systemTokens(sys) + w.toolTokens(tools) + fit.Tokens + 3
	n := 1 + len(fit.Messages)
	if open {
		raw += c.Message(msgs[1])
		n++
	}
	if len(msgs) > n {
		raw += c.Message(msgs[n])
	}
	v := view{req: req, raw: raw, length: length}
	v.tokens = c.Scale(v.raw)
	return v, nil
}

// openingMessage stands, in a proactive task's requests, where the
// person's first message would be: the model's turn must follow a user
// turn, and the agent's definition says what it does first.
func (rn *run) openingMessage() llm.Message {
	text := opening
	if o := strings.TrimSpace(rn.def.Opening); o != "" {
		text += "\n\n" + o
	}
	return llm.Message{Role: chat.RoleUser, Content: text}
}

// systemTokens counts the system message, once for each text and model.
func (w *window) systemTokens(text string) int {
	return w.fixed.system(text, func() int { return w.counter.Message(systemMessage(text)) })
}

// toolTokens counts the tool definitions, once for each set and model
// (they change only when tools come or go, the settings or the agent
// change which are offered, or a smaller model gets their compact form).
func (w *window) toolTokens(tools toolSet) int {
	return w.fixed.toolsOf(tools, func() int { return w.counter.Tools(tools.list) })
}

// reported is the context length the provider's server reported, or 0.
func reported(p llm.Provider) int {
	if r, ok := p.(llm.ContextReporter); ok {
		return r.ReportedContextLength()
	}
	return 0
}

// fixedCost counts what every request holds besides the history: the
// system prompt with the summary block, and the tools.
func (rn *run) fixedCost(system string, tools toolSet, t chat.Task) int {
	w := rn.win
	return w.systemTokens(rn.systemWithHistory(system, t, contextwin.Fitted{})) + w.toolTokens(tools) + 3
}

// systemWithHistory is the system prompt followed, once older messages
// were summarised or left out, by what the model must still know: the
// summary, the execution log of the tools run before it, the request of
// the task when it is no longer in view, and a note of what was left out.
func (rn *run) systemWithHistory(system string, t chat.Task, fit contextwin.Fitted) string {
	sum := rn.win.latest()
	if sum == nil && fit.Dropped == 0 {
		return system
	}
	var b strings.Builder
	b.WriteString(system)
	b.WriteString("\n\n## Earlier in this conversation\n")
	if sum != nil {
		b.WriteString("The older messages were summarised to fit the model's context window:\n")
		b.WriteString(sum.Text)
		b.WriteString("\n")
		if sum.ToolLog != "" {
			b.WriteString("\n### Tools run earlier (execution log)\n")
			b.WriteString(sum.ToolLog)
			b.WriteString("\n")
		}
		if !rn.requestInView() && t.OriginalPrompt != "" {
			b.WriteString("\n### The current task, as the person asked\n")
			b.WriteString(contextwin.Excerpt(t.OriginalPrompt, 4*contextwin.OldResultChars))
			b.WriteString("\n")
		}
	}
	writePlan(&b, t.Plan)
	if fit.Dropped > 0 {
		fmt.Fprintf(&b, "\n[%d earlier turns are left out here to fit the model's context window; the person still sees them.]\n", fit.Dropped)
	}
	return b.String()
}

// requestInView reports whether the message that started the task is among
// the messages after the latest summary.
func (rn *run) requestInView() bool {
	w := rn.win
	id := rn.snapshot().ID
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, m := range w.msgs {
		if m.Role == chat.RoleUser && m.TaskID == id {
			return true
		}
	}
	return false
}

// compact asks the model to summarise the older turns, in chunks that each
// fit its budget, and stores the summary with its notice in the
// transcript; the latest turns, up to keep tokens, stay verbatim (the
// latest always does). It returns the notice, or a zero message when there
// was nothing to summarise.
func (rn *run) compact(ctx context.Context, units []contextwin.Unit, ts []turn, budget contextwin.Budget, keep int) (chat.Message, error) {
	cut := contextwin.SplitForSummary(units, keep)
	if cut == 0 {
		return chat.Message{}, nil
	}
	w := rn.win
	c := w.counter
	prev := w.latest()
	sofar, log := "", ""
	if prev != nil {
		sofar, log = prev.Text, prev.ToolLog
	}
	// Each summariser call holds its instruction, the summary so far (at
	// most maxSummary) and one chunk: all within the input budget.
	maxSummary := max(128, budget.Input()/8)
	overhead := c.Text(contextwin.SummaryInstruction) + 64
	chunkLimit := int(float64(budget.Input())/c.Factor()) - overhead - maxSummary
	if chunkLimit < 128 {
		return chat.Message{}, chat.Errorf(chat.CodeModel, "the context window of %d tokens is too small to summarise in", budget.Length)
	}
	// Render and count only the turns the summariser can read: the work is
	// bounded by the budget, not by the length of the history.
	from := 0
	for i, total := cut-1, 0; i >= 0; i-- {
		if total += units[i].Tokens; total > maxSummaryChunks*chunkLimit {
			from = i + 1
			break
		}
	}
	chunks := c.Chunks(contextwin.Render(units[from:cut]), chunkLimit)
	if len(chunks) > maxSummaryChunks {
		chunks, from = chunks[len(chunks)-maxSummaryChunks:], max(from, 1)
	}
	if from > 0 {
		sofar += "\n(Some of the oldest messages could not be summarised and are left out.)"
	}
	for _, chunk := range chunks {
		resp, err := streamPatiently(ctx, rn.provider, contextwin.SummaryRequest(trimTokens(c, sofar, maxSummary), chunk), llm.Deltas{},
			"task", rn.snapshot().ID, "call", "summary")
		if err != nil {
			return chat.Message{}, err
		}
		// The summary is paid for like any step: its tokens count toward
		// the task's spend limit.
		if err := rn.pay(ctx, resp.Usage); err != nil {
			return chat.Message{}, err
		}
		text := strings.TrimSpace(resp.Content)
		if text == "" {
			return chat.Message{}, chat.Errorf(chat.CodeModel, "the model returned an empty summary")
		}
		sofar = trimTokens(c, text, maxSummary)
	}
	t := rn.snapshot()
	now := clock()
	sum := chat.Summary{ID: uuid.NewString(), ConversationID: t.ConversationID, ThroughSeq: units[cut-1].Seq,
		Text: sofar, ToolLog: toolLog(log, ts[:cut]), CreatedAt: now}
	if rn.ephemeral {
		w.forget(sum)
		return rn.newMessage(chat.RoleSystem, SummaryNotice), nil
	}
	notice, err := rn.addSummary(sum, rn.newMessage(chat.RoleSystem, SummaryNotice))
	if err != nil {
		return notice, err
	}
	w.forget(sum)
	return notice, nil
}

// CompactNow summarises the conversation's older turns for the model now,
// as a step does when the history grows past about 75% of the budget; the
// latest turns stay verbatim. It refuses while a task runs in the
// conversation, and when there is too little to summarise. It returns the
// notice stored in the transcript.
func (r *Runner) CompactNow(ctx context.Context, conversationID string) (chat.Message, error) {
	if _, err := r.opts.Store.GetConversation(ctx, conversationID); err != nil {
		return chat.Message{}, err
	}
	active, err := r.opts.Store.ActiveTasks(ctx)
	if err != nil {
		return chat.Message{}, err
	}
	for _, t := range active {
		if t.ConversationID == conversationID {
			return chat.Message{}, chat.Errorf(chat.CodeConflict,
				"a task is unfinished in this conversation (%s); compact it once the task has finished or been stopped", t.Status)
		}
	}
	provider, err := r.provider(ctx, conversationID, "")
	if err != nil {
		return chat.Message{}, err
	}
	r.mu.Lock()
	switch {
	case r.closed:
		r.mu.Unlock()
		return chat.Message{}, ErrShuttingDown
	case r.byConv[conversationID] != nil || r.compacting[conversationID]:
		r.mu.Unlock()
		return chat.Message{}, chat.Errorf(chat.CodeConflict,
			"a task is working in this conversation; compact it once the task has finished or been stopped")
	}
	r.compacting[conversationID] = true
	r.mu.Unlock()
	defer func() {
		r.mu.Lock()
		delete(r.compacting, conversationID)
		r.mu.Unlock()
	}()

	rn := newRun(r, chat.Task{ConversationID: conversationID}, func() {})
	rn.provider = provider
	w := rn.win
	if err := w.load(ctx, r.opts.Store, conversationID); err != nil {
		return chat.Message{}, err
	}
	settings := r.settings(ctx)
	length, _ := contextwin.ContextLength(provider.Model(), settings.ContextLengths, reported(provider))
	w.counter, w.fixed = r.counter(provider.Model()), r.fixedCountsOf(provider.Model())
	units, ts := w.units("")
	// What the person asks for now: all but the last few turns.
	budget := contextwin.NewBudget(length)
	keep := 0
	if n := len(units); n >= manualKeepTurns {
		for _, u := range units[n-manualKeepTurns:] {
			keep += u.Tokens
		}
	}
	notice, err := rn.compact(ctx, units, ts, budget, min(keep, budget.Keep()))
	// Its summary calls are paid for by the conversation, done or not.
	if u, cost := rn.paidOutside(); u != (chat.Usage{}) || cost > 0 {
		sctx, cancel := storeCtx()
		defer cancel()
		if uerr := r.opts.Store.AddConversationUsage(sctx, conversationID, u, cost); uerr != nil && err == nil {
			err = uerr
		}
	}
	if err != nil {
		return chat.Message{}, err
	}
	if notice.ID == "" {
		return chat.Message{}, chat.Errorf(chat.CodeConflict, "there is too little in this conversation to summarise yet")
	}
	return notice, nil
}

// GetSummary returns a stored summary: what the model sees in place of
// the messages before a notice "Earlier messages summarised".
func (r *Runner) GetSummary(ctx context.Context, id string) (chat.Summary, error) {
	return r.opts.Store.GetSummary(ctx, id)
}

// trimTokens cuts s to about max tokens.
func trimTokens(c *contextwin.Counter, s string, max int) string {
	for n := c.Text(s); n > max && len(s) > 64; n = c.Text(s) {
		s = contextwin.Excerpt(s, len([]rune(s))*max/n*9/10)
	}
	return s
}

// toolLog adds the tool runs of the summarised turns to the execution
// log, keeping its latest maxLogLines lines; the first line then counts
// the runs left out.
func toolLog(prev string, ts []turn) string {
	var lines []string
	omitted := 0
	if prev != "" {
		lines = strings.Split(prev, "\n")
		if n, ok := omittedRuns(lines[0]); ok {
			omitted, lines = n, lines[1:]
		}
	}
	for _, t := range ts {
		calls := t.msgs[0].ToolCalls
		for i, call := range calls {
			if isControl(call.Name) {
				continue
			}
			outcome := "succeeded"
			switch r := t.src[i+1]; {
			case r == nil:
				outcome = "did not finish"
			case r.IsError:
				outcome = "failed"
			}
			lines = append(lines, fmt.Sprintf("- %s: %s", call.Name, outcome))
		}
	}
	if keep := maxLogLines - 1; len(lines) > keep {
		omitted += len(lines) - keep
		lines = lines[len(lines)-keep:]
	}
	if omitted > 0 {
		lines = append([]string{fmt.Sprintf(omittedFormat, omitted)}, lines...)
	}
	return strings.Join(lines, "\n")
}

const omittedFormat = "- (%d earlier tool runs not listed)"

// omittedRuns reads the count of a log's first line written by toolLog.
func omittedRuns(line string) (int, bool) {
	var n int
	_, err := fmt.Sscanf(line, omittedFormat, &n)
	return n, err == nil
}

// addSummary stores a summary and its notice and publishes the notice.
func (rn *run) addSummary(sum chat.Summary, notice chat.Message) (chat.Message, error) {
	rn.mu.Lock()
	defer rn.mu.Unlock()
	if rn.done {
		return notice, errEnded
	}
	ctx, cancel := storeCtx()
	defer cancel()
	stored, err := rn.r.opts.Store.AddSummary(ctx, sum, notice)
	if err != nil {
		return notice, err
	}
	rn.win.observe(stored)
	rn.r.opts.Events.MessageStored(stored)
	return stored, nil
}

// counter is the token counter of a model, shared by the runner's tasks so
// that its calibration carries from one task to the next.
func (r *Runner) counter(model string) *contextwin.Counter {
	if c, ok := r.counters.Load(model); ok {
		return c.(*contextwin.Counter)
	}
	c, _ := r.counters.LoadOrStore(model, contextwin.NewCounter(model))
	return c.(*contextwin.Counter)
}

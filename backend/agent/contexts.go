package agent

import (
	"context"
	"fmt"
	"log/slog"
	"maps"

	"github.com/errand-app/errand/backend/chat"
	"github.com/errand-app/errand/backend/contextwin"
)

// learnedNotice tells the person, in the transcript, that a model server
// stated its model's context length and Errand keeps it; %s is the model,
// %d the length.
const learnedNotice = "The model server said %s takes at most %d tokens; Errand plans for that from now on (Settings → Prices and context lengths)."

// contextLength is the context length a run plans its requests for: the
// person's setting (or a length learned from the server), else what the
// server reported, a well-known model's, or the default.
func (rn *run) contextLength(settings chat.Settings) int {
	n, _ := contextwin.ContextLength(rn.provider.Model(), settings.ContextLengths, reported(rn.provider))
	return n
}

// learnContextLength keeps the context length a model server stated, on
// refusing a request as too long, as the model's context length in the
// settings, where the person sees it and can change it, and tells the
// person so in the transcript. It reports whether the run should plan
// anew: only a valid length below the one the request was planned for
// teaches anything.
func (rn *run) learnContextLength(ctx context.Context, stated, planned int) bool {
	if stated <= 0 || stated >= planned || contextwin.CheckContextLength(stated) != nil {
		return false
	}
	model := rn.provider.Model()
	if err := rn.r.learnContextLength(ctx, model, stated); err != nil {
		slog.Error("store a learned context length", "model", model, "contextLength", stated, "err", err)
		return false
	}
	slog.Info("the model server stated the model's context length; it is kept in the settings",
		"task", rn.snapshot().ID, "model", model, "contextLength", stated, "plannedFor", planned)
	if _, err := rn.add(rn.newMessage(chat.RoleSystem, fmt.Sprintf(learnedNotice, chat.Quote(model), stated))); err != nil {
		slog.Warn("note a learned context length in the transcript", "err", err)
	}
	return true
}

// learnContextLength stores n as model's context length in the settings.
func (r *Runner) learnContextLength(ctx context.Context, model string, n int) error {
	r.learnMu.Lock()
	defer r.learnMu.Unlock()
	s, err := r.opts.Store.Settings(ctx)
	if err != nil {
		return err
	}
	if _, ok := s.ContextLengths[model]; !ok && len(s.ContextLengths) >= chat.MaxModelEntries {
		return chat.Errorf(chat.CodeConflict, "the context-length table is full")
	}
	lengths := maps.Clone(s.ContextLengths)
	if lengths == nil {
		lengths = map[string]int{}
	}
	lengths[model] = n
	s.ContextLengths = lengths
	if err := r.opts.Store.SaveSettings(ctx, s); err != nil {
		return err
	}
	r.loadSettings(ctx)
	return nil
}

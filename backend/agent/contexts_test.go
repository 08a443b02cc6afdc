package agent

import (
	"context"
	"strings"
	"testing"

	"github.com/errand-app/errand/backend/chat"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A server with a 4,096-token context and nothing in the settings: Errand
// plans for its default 8,192 until the server refuses a request and names
// its limit; from then on it plans for 4,096, kept in the settings, and
// the context meter shows it. One request is refused, not one every few
// steps.
func TestAServersStatedContextLengthIsLearnedOnce(t *testing.T) {
	t.Parallel()
	s := &longScript{t: t, turns: twoRounds}
	h := newHarness(t, s.reply, harnessOpts{contextLength: 4096, allowRejections: true})
	h.settings(func(st *chat.Settings) {
		st.Limits = chat.Limits{MaxSteps: 10000, MaxMinutes: 600, MaxCostUSD: 10000}
	})
	done := runLongTask(t, h, bigFiles)
	require.Equal(t, chat.StatusCompleted, done.Status, done.ErrorMessage)

	rejected := h.server.Rejections()
	require.Len(t, rejected, 1, "only the first request past the real limit is refused")
	assert.Contains(t, rejected[0], "maximum context length is 4096 tokens")
	assert.Equal(t, 4096, done.ContextLimit, "the context meter shows the learned length")
	assert.LessOrEqual(t, done.ContextTokens, 4096-1024)

	st, err := h.store.Settings(context.Background())
	require.NoError(t, err)
	assert.Equal(t, 4096, st.ContextLengths["test-model"], "the learned length shows in Settings")

	var notes int
	for _, m := range h.messages(done.ConversationID) {
		if m.Role == chat.RoleSystem && strings.Contains(m.Content, "takes at most 4096 tokens") {
			notes++
		}
	}
	assert.Equal(t, 1, notes, "the transcript says the length was learned, once")
}

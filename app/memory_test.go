package app

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/errand-app/errand/backend/chat"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// factEvents records agent:factsChanged payloads, checking that the
// change was stored before it was published.
type factEvents struct {
	mu    sync.Mutex
	got   []string
	check func()
}

func (e *factEvents) FactsChanged(conversationID string) {
	if e.check != nil {
		e.check()
	}
	e.mu.Lock()
	e.got = append(e.got, conversationID)
	e.mu.Unlock()
}

func TestMemoryBindings(t *testing.T) {
	t.Parallel()
	a := newApp(t)
	c, err := a.Conversations.CreateConversation()
	require.NoError(t, err)
	ev := &factEvents{}
	a.Memory.events = ev

	g, err := a.Memory.AddFact(chat.Fact{Key: "name", Value: "Ada", Scope: chat.ScopeGlobal})
	require.NoError(t, err)
	own, err := a.Memory.AddFact(chat.Fact{Key: "language", Value: "Go", Scope: chat.ScopeConversation, ConversationID: c.ID})
	require.NoError(t, err)

	facts, err := a.Memory.ListFacts(c.ID)
	require.NoError(t, err)
	assert.Equal(t, []chat.Fact{own, g}, facts)
	facts, err = a.Memory.ListFacts("")
	require.NoError(t, err)
	assert.Equal(t, []chat.Fact{g}, facts)

	// The edit is stored before the event tells the views.
	g.Value = "Ada L."
	ev.check = func() {
		stored, err := a.store.GetFact(context.Background(), g.ID)
		assert.NoError(t, err)
		assert.Equal(t, "Ada L.", stored.Value, "published before it was stored")
	}
	edited, err := a.Memory.UpdateFact(g)
	require.NoError(t, err)
	assert.Equal(t, "Ada L.", edited.Value)
	ev.check = nil
	require.NoError(t, a.Memory.DeleteFact(own.ID))
	assert.Equal(t, []string{"", c.ID, "", c.ID}, ev.got)

	// Bad input: a clear error, nothing changed, nothing published.
	for name, f := range map[string]chat.Fact{
		"an empty key":     {Key: " ", Value: "v", Scope: chat.ScopeGlobal},
		"an empty value":   {Key: "k", Value: "", Scope: chat.ScopeGlobal},
		"a huge value":     {Key: "k", Value: strings.Repeat("x", chat.MaxFactBytes+1), Scope: chat.ScopeGlobal},
		"an unknown scope": {Key: "k", Value: "v", Scope: "team"},
		"a secret":         {Key: "openai", Value: "sk-abcdefghijklmnopqrstuvwxyz", Scope: chat.ScopeGlobal},
		"a password":       {Key: "password", Value: "hunter2", Scope: chat.ScopeGlobal},
		"an existing key":  {Key: "name", Value: "Bob", Scope: chat.ScopeGlobal},
		"no conversation":  {Key: "k", Value: "v", Scope: chat.ScopeConversation},
		"a missing one":    {Key: "k", Value: "v", Scope: chat.ScopeConversation, ConversationID: "missing"},
	} {
		_, err := a.Memory.AddFact(f)
		require.Error(t, err, name)
		fe := frontendError(err)
		assert.Contains(t, []string{chat.CodeInvalid, chat.CodeConflict, chat.CodeNotFound}, fe.Code, "%s: %v", name, err)
		assert.NotEmpty(t, fe.Message)
	}
	_, err = a.Memory.UpdateFact(chat.Fact{Key: "k", Value: "v", Scope: chat.ScopeGlobal})
	assert.Equal(t, chat.CodeInvalid, code(err), "no id")
	assert.Equal(t, chat.CodeNotFound, code(a.Memory.DeleteFact("missing")))
	_, err = a.Memory.ListFacts(strings.Repeat("x", 1000))
	assert.Equal(t, chat.CodeInvalid, code(err))
	facts, err = a.Memory.ListFacts(c.ID)
	require.NoError(t, err)
	assert.Equal(t, []chat.Fact{edited}, facts)
	assert.Len(t, ev.got, 4, "a refused change is not announced")

	// The setting goes through the settings' save path.
	st, err := a.Settings.GetSettings()
	require.NoError(t, err)
	assert.True(t, st.MemoryEnabled)
	st.MemoryEnabled = false
	st, err = a.Settings.SaveSettings(st)
	require.NoError(t, err)
	assert.False(t, st.MemoryEnabled)
}

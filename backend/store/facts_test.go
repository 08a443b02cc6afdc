package store

import (
	"context"
	"fmt"
	"testing"

	"github.com/errand-app/errand/backend/chat"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestFactsAreRememberedListedAndSurviveReopen(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, path := openTemp(t)
	c1, c2 := newConversation(t, s), newConversation(t, s)

	g, err := s.RememberFact(ctx, chat.Fact{Key: "name", Value: "Ada", Scope: chat.ScopeGlobal})
	require.NoError(t, err)
	assert.NotEmpty(t, g.ID)
	assert.Equal(t, "", g.ConversationID)
	own, err := s.RememberFact(ctx, chat.Fact{Key: " lang ", Value: "Go", ConversationID: c1.ID})
	require.NoError(t, err)
	assert.Equal(t, chat.ScopeConversation, own.Scope)
	assert.Equal(t, "lang", own.Key)
	_, err = s.RememberFact(ctx, chat.Fact{Key: "lang", Value: "Rust", ConversationID: c2.ID})
	require.NoError(t, err)

	facts, err := s.Facts(ctx, c1.ID)
	require.NoError(t, err)
	require.Len(t, facts, 2)
	assert.Equal(t, own, facts[0], "the conversation's facts come first")
	assert.Equal(t, g, facts[1])

	global, err := s.Facts(ctx, "")
	require.NoError(t, err)
	assert.Equal(t, []chat.Fact{g}, global)

	// The same key again updates the fact.
	again, err := s.RememberFact(ctx, chat.Fact{Key: "lang", Value: "Go 1.25", ConversationID: c1.ID})
	require.NoError(t, err)
	assert.Equal(t, own.ID, again.ID)
	assert.Equal(t, "Go 1.25", again.Value)
	// Adding (as the person does) never overwrites.
	_, err = s.AddFact(ctx, chat.Fact{Key: "lang", Value: "C", ConversationID: c1.ID})
	assert.Equal(t, chat.CodeConflict, chat.ErrorCode(err))
	added, err := s.AddFact(ctx, chat.Fact{Key: "lang", Value: "C", Scope: chat.ScopeGlobal})
	require.NoError(t, err)
	_, err = s.DeleteFact(ctx, added.ID)
	require.NoError(t, err)

	require.NoError(t, s.Close())
	s2, err := Open(ctx, path)
	require.NoError(t, err)
	defer s2.Close()
	facts, err = s2.Facts(ctx, c1.ID)
	require.NoError(t, err)
	require.Len(t, facts, 2)
	assert.Equal(t, again, facts[0])
}

func TestUpdateDeleteAndForgetFacts(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, _ := openTemp(t)
	c := newConversation(t, s)
	g, err := s.RememberFact(ctx, chat.Fact{Key: "editor", Value: "vim", Scope: chat.ScopeGlobal})
	require.NoError(t, err)
	own, err := s.RememberFact(ctx, chat.Fact{Key: "editor", Value: "emacs", ConversationID: c.ID})
	require.NoError(t, err)
	other, err := s.RememberFact(ctx, chat.Fact{Key: "os", Value: "linux", ConversationID: c.ID})
	require.NoError(t, err)

	g.Value = "helix"
	edited, err := s.UpdateFact(ctx, g)
	require.NoError(t, err)
	assert.Equal(t, "helix", edited.Value)
	got, err := s.GetFact(ctx, g.ID)
	require.NoError(t, err)
	assert.Equal(t, edited, got)

	// A key another fact of the same owner has is a conflict.
	other.Key = "editor"
	_, err = s.UpdateFact(ctx, other)
	assert.Equal(t, chat.CodeConflict, chat.ErrorCode(err))
	_, err = s.UpdateFact(ctx, chat.Fact{ID: "nope", Key: "k", Value: "v", Scope: chat.ScopeGlobal})
	assert.Equal(t, chat.CodeNotFound, chat.ErrorCode(err))

	// Forget takes the conversation's fact first, then the global one.
	gone, err := s.ForgetFact(ctx, c.ID, "editor")
	require.NoError(t, err)
	assert.Equal(t, own.ID, gone.ID)
	gone, err = s.ForgetFact(ctx, c.ID, "editor")
	require.NoError(t, err)
	assert.Equal(t, g.ID, gone.ID)
	_, err = s.ForgetFact(ctx, c.ID, "editor")
	assert.Equal(t, chat.CodeNotFound, chat.ErrorCode(err))

	deleted, err := s.DeleteFact(ctx, other.ID)
	require.NoError(t, err)
	assert.Equal(t, c.ID, deleted.ConversationID)
	_, err = s.DeleteFact(ctx, other.ID)
	assert.Equal(t, chat.CodeNotFound, chat.ErrorCode(err))
	facts, err := s.Facts(ctx, c.ID)
	require.NoError(t, err)
	assert.Empty(t, facts)
}

func TestBadFactsChangeNothing(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, _ := openTemp(t)
	c := newConversation(t, s)
	for i := 0; i < chat.MaxFactsPerOwner; i++ {
		_, err := s.RememberFact(ctx, chat.Fact{Key: fmt.Sprintf("k%d", i), Value: "v", ConversationID: c.ID})
		require.NoError(t, err)
	}
	_, err := s.RememberFact(ctx, chat.Fact{Key: "one more", Value: "v", ConversationID: c.ID})
	require.Error(t, err)
	assert.Equal(t, chat.CodeInvalid, chat.ErrorCode(err))
	assert.Contains(t, err.Error(), "200 facts")
	// An existing key still updates; another owner still has room.
	_, err = s.RememberFact(ctx, chat.Fact{Key: "k0", Value: "new", ConversationID: c.ID})
	require.NoError(t, err)
	_, err = s.RememberFact(ctx, chat.Fact{Key: "one more", Value: "v", Scope: chat.ScopeGlobal})
	require.NoError(t, err)

	for name, f := range map[string]chat.Fact{
		"an empty key":            {Key: "", Value: "v", Scope: chat.ScopeGlobal},
		"an unknown scope":        {Key: "k", Value: "v", Scope: "team"},
		"a secret":                {Key: "k", Value: "ghp_abcdefghijklmnopqrstuvwxyz0123456789", Scope: chat.ScopeGlobal},
		"an unknown conversation": {Key: "k", Value: "v", ConversationID: "no-such-conversation"},
	} {
		_, err := s.RememberFact(ctx, f)
		assert.Error(t, err, name)
		assert.NotEqual(t, chat.CodeInternal, chat.ErrorCode(err), "%s: %v", name, err)
	}
	facts, err := s.Facts(ctx, "")
	require.NoError(t, err)
	assert.Len(t, facts, 1, "nothing bad was stored")

	// Deleting the conversation deletes its facts.
	require.NoError(t, s.DeleteConversation(ctx, c.ID))
	var n int
	require.NoError(t, s.db.QueryRow(`SELECT count(*) FROM facts WHERE conversation_id IS NOT NULL`).Scan(&n))
	assert.Zero(t, n)
}

func TestMemoryIsOnUnlessTurnedOff(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, _ := openTemp(t)
	// Settings saved before the setting existed keep memory on.
	_, err := s.db.Exec(`INSERT INTO settings (key, value) VALUES ('agent', '{"stepDelayMs": 5}')`)
	require.NoError(t, err)
	st, err := s.Settings(ctx)
	require.NoError(t, err)
	assert.True(t, st.MemoryEnabled)
	assert.Equal(t, 5, st.StepDelayMS)

	st.MemoryEnabled = false
	require.NoError(t, s.SaveSettings(ctx, st))
	st, err = s.Settings(ctx)
	require.NoError(t, err)
	assert.False(t, st.MemoryEnabled)
}

// Facts are read from the database once, and again after each change: the
// agent reads them for every request.
func TestFactsReadOnceAreReadAgainAfterEveryChange(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, _ := openTemp(t)
	c, other := newConversation(t, s), newConversation(t, s)
	keys := func(conversationID string) []string { return factKeys(t, s, conversationID) }
	assert.Empty(t, keys(c.ID))

	_, err := s.RememberFact(ctx, chat.Fact{Key: "os", Value: "linux", ConversationID: c.ID})
	require.NoError(t, err)
	assert.Equal(t, []string{"os=linux"}, keys(c.ID), "remembered")
	assert.Empty(t, keys(other.ID))

	g, err := s.AddFact(ctx, chat.Fact{Key: "name", Value: "Ada", Scope: chat.ScopeGlobal})
	require.NoError(t, err)
	assert.Equal(t, []string{"os=linux", "name=Ada"}, keys(c.ID), "a global fact is every conversation's")
	assert.Equal(t, []string{"name=Ada"}, keys(other.ID))

	// Read once: a row changed behind the store's back is not read again…
	_, err = s.DB().ExecContext(ctx, `UPDATE facts SET value = 'Grace' WHERE id = ?`, g.ID)
	require.NoError(t, err)
	assert.Equal(t, []string{"name=Ada"}, keys(other.ID))

	// …until a change through the store, which every change is.
	g.Value = "Lovelace"
	_, err = s.UpdateFact(ctx, g)
	require.NoError(t, err)
	assert.Equal(t, []string{"name=Lovelace"}, keys(other.ID), "edited")

	_, err = s.ForgetFact(ctx, c.ID, "os")
	require.NoError(t, err)
	assert.Equal(t, []string{"name=Lovelace"}, keys(c.ID), "forgotten")

	_, err = s.DeleteFact(ctx, g.ID)
	require.NoError(t, err)
	assert.Empty(t, keys(other.ID), "deleted")

	_, err = s.RememberFact(ctx, chat.Fact{Key: "os", Value: "mac", ConversationID: c.ID})
	require.NoError(t, err)
	assert.Equal(t, []string{"os=mac"}, keys(c.ID))
	require.NoError(t, s.DeleteConversation(ctx, c.ID))
	assert.Empty(t, keys(c.ID), "a deleted conversation's facts are gone with it")
}

// factKeys are the facts the agent sees in a conversation, as key=value.
func factKeys(t *testing.T, s *Store, conversationID string) []string {
	t.Helper()
	facts, err := s.Facts(context.Background(), conversationID)
	require.NoError(t, err)
	out := []string{}
	for _, f := range facts {
		out = append(out, f.Key+"="+f.Value)
	}
	return out
}

// A conversation made after the facts were read sees the global facts,
// and its own first fact as soon as it is remembered.
func TestANewConversationSeesTheGlobalFactsThenItsOwn(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, _ := openTemp(t)
	_, err := s.AddFact(ctx, chat.Fact{Key: "name", Value: "Ada", Scope: chat.ScopeGlobal})
	require.NoError(t, err)
	old := newConversation(t, s)
	_, err = s.RememberFact(ctx, chat.Fact{Key: "os", Value: "linux", ConversationID: old.ID})
	require.NoError(t, err)
	assert.Equal(t, []string{"os=linux", "name=Ada"}, factKeys(t, s, old.ID))

	fresh := newConversation(t, s)
	assert.Equal(t, []string{"name=Ada"}, factKeys(t, s, fresh.ID), "the global facts")
	assert.Equal(t, []string{"name=Ada"}, factKeys(t, s, ""))

	_, err = s.RememberFact(ctx, chat.Fact{Key: "lang", Value: "Go", ConversationID: fresh.ID})
	require.NoError(t, err)
	assert.Equal(t, []string{"lang=Go", "name=Ada"}, factKeys(t, s, fresh.ID), "its own first")
	assert.Equal(t, []string{"os=linux", "name=Ada"}, factKeys(t, s, old.ID), "another's unchanged")
	assert.Equal(t, []string{"name=Ada"}, factKeys(t, s, newConversation(t, s).ID))
}

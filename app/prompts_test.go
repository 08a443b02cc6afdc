package app

import (
	"testing"

	"github.com/errand-app/errand/backend/chat"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestPromptBindings(t *testing.T) {
	t.Parallel()
	a := newApp(t)

	p, err := a.Prompts.CreatePrompt("Weekly report", "Write my weekly report from the notes.")
	require.NoError(t, err)
	p.Name = "Report"
	renamed, err := a.Prompts.UpdatePrompt(p)
	require.NoError(t, err)
	assert.Equal(t, "Report", renamed.Name)
	_, err = a.Prompts.CreatePrompt("Other", "Something else.")
	require.NoError(t, err)

	// Bad input: a clear error on its field, and nothing changed.
	for name, tc := range map[string]struct{ name, text, code, field string }{
		"an empty name":    {"  ", "x", chat.CodeInvalid, "name"},
		"a duplicate name": {"report", "x", chat.CodeConflict, "name"},
		"an empty text":    {"New", "", chat.CodeInvalid, "text"},
	} {
		_, err := a.Prompts.CreatePrompt(tc.name, tc.text)
		fe := frontendError(err)
		assert.Equal(t, tc.code, fe.Code, name)
		assert.Equal(t, tc.field, fe.Field, name)
		assert.NotEmpty(t, fe.Message, name)
	}
	renamed.Name = "Other"
	_, err = a.Prompts.UpdatePrompt(renamed)
	assert.Equal(t, "name", frontendError(err).Field, "a rename onto another prompt's name")
	_, err = a.Prompts.UpdatePrompt(chat.SavedPrompt{Name: "x", Text: "y"})
	assert.Equal(t, chat.CodeInvalid, code(err), "no id")
	list, err := a.Prompts.ListPrompts()
	require.NoError(t, err)
	require.Len(t, list, 2)
	assert.Equal(t, "Report", list[1].Name)
	assert.Equal(t, "Write my weekly report from the notes.", list[1].Text)

	require.NoError(t, a.Prompts.DeletePrompt(p.ID))
	assert.Equal(t, chat.CodeNotFound, code(a.Prompts.DeletePrompt(p.ID)))
	list, err = a.Prompts.ListPrompts()
	require.NoError(t, err)
	assert.Len(t, list, 1)
}

func TestListAllFactsGivesEveryConversationsFacts(t *testing.T) {
	t.Parallel()
	a := newApp(t)
	c1, err := a.Conversations.CreateConversation()
	require.NoError(t, err)
	_, err = a.Conversations.RenameConversation(c1.ID, "Holiday")
	require.NoError(t, err)
	c2, err := a.Conversations.CreateConversation()
	require.NoError(t, err)
	for _, f := range []chat.Fact{
		{Key: "name", Value: "Ada", Scope: chat.ScopeGlobal},
		{Key: "hotel", Value: "Alfama", Scope: chat.ScopeConversation, ConversationID: c1.ID},
		{Key: "plant", Value: "fern", Scope: chat.ScopeConversation, ConversationID: c2.ID},
	} {
		_, err := a.Memory.AddFact(f)
		require.NoError(t, err)
	}
	all, err := a.Memory.ListAllFacts()
	require.NoError(t, err)
	keys := []string{}
	for _, f := range all.Facts {
		keys = append(keys, f.Key)
	}
	assert.ElementsMatch(t, []string{"name", "hotel", "plant"}, keys)
	assert.Equal(t, "name", keys[0], "the global facts first")
	assert.Equal(t, "Holiday", all.Titles[c1.ID])
	title, ok := all.Titles[c2.ID]
	assert.True(t, ok)
	assert.Equal(t, "", title, "a conversation without a title yet")
}

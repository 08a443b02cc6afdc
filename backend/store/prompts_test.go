package store

import (
	"context"
	"strings"
	"testing"

	"github.com/errand-app/errand/backend/chat"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestSavedPromptsAreCreatedRenamedEditedAndDeleted(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, path := openTemp(t)

	review, err := s.CreatePrompt(ctx, chat.SavedPrompt{Name: "  Code   review ", Text: "\nReview this diff for bugs.\n"})
	require.NoError(t, err)
	assert.NotEmpty(t, review.ID)
	assert.Equal(t, "Code review", review.Name, "the name on one line, spaces collapsed")
	assert.Equal(t, "Review this diff for bugs.", review.Text)
	alpha, err := s.CreatePrompt(ctx, chat.SavedPrompt{Name: "alpha", Text: "First"})
	require.NoError(t, err)

	list, err := s.Prompts(ctx)
	require.NoError(t, err)
	assert.Equal(t, []chat.SavedPrompt{alpha, review}, list, "by name, whatever its case")

	// Rename and edit.
	review.Name, review.Text = "Review", "Review this diff."
	edited, err := s.UpdatePrompt(ctx, review)
	require.NoError(t, err)
	assert.Equal(t, "Review", edited.Name)
	assert.Equal(t, review.CreatedAt, edited.CreatedAt)

	require.NoError(t, s.DeletePrompt(ctx, alpha.ID))
	assert.Equal(t, chat.CodeNotFound, chat.ErrorCode(s.DeletePrompt(ctx, alpha.ID)))

	require.NoError(t, s.Close())
	s2, err := Open(ctx, path)
	require.NoError(t, err)
	defer s2.Close()
	list, err = s2.Prompts(ctx)
	require.NoError(t, err)
	require.Len(t, list, 1)
	assert.Equal(t, "Review", list[0].Name)
	assert.Equal(t, "Review this diff.", list[0].Text)
}

func TestAnEmptyOrDuplicatePromptNameIsRefusedAndChangesNothing(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, _ := openTemp(t)
	kept, err := s.CreatePrompt(ctx, chat.SavedPrompt{Name: "Summary", Text: "Summarise it."})
	require.NoError(t, err)
	other, err := s.CreatePrompt(ctx, chat.SavedPrompt{Name: "Translate", Text: "Translate it."})
	require.NoError(t, err)

	for name, tc := range map[string]struct {
		p           chat.SavedPrompt
		code, field string
	}{
		"an empty name":      {chat.SavedPrompt{Name: " \t ", Text: "x"}, chat.CodeInvalid, "name"},
		"an invisible name":  {chat.SavedPrompt{Name: "\u200b", Text: "x"}, chat.CodeInvalid, "name"},
		"a long name":        {chat.SavedPrompt{Name: strings.Repeat("n", chat.MaxPromptNameLen+1), Text: "x"}, chat.CodeInvalid, "name"},
		"an empty text":      {chat.SavedPrompt{Name: "New", Text: "  "}, chat.CodeInvalid, "text"},
		"a huge text":        {chat.SavedPrompt{Name: "New", Text: strings.Repeat("x", chat.MaxMessageBytes+1)}, chat.CodeInvalid, "text"},
		"a duplicate name":   {chat.SavedPrompt{Name: "Summary", Text: "x"}, chat.CodeConflict, "name"},
		"another case of it": {chat.SavedPrompt{Name: "sUMMARY", Text: "x"}, chat.CodeConflict, "name"},
	} {
		_, err := s.CreatePrompt(ctx, tc.p)
		require.Error(t, err, name)
		assert.Equal(t, tc.code, chat.ErrorCode(err), name)
		var e *chat.Error
		require.ErrorAs(t, err, &e, name)
		assert.Equal(t, tc.field, e.Field, name)
		assert.NotEmpty(t, e.Message, name)

		// The same input as an edit of another prompt.
		tc.p.ID = other.ID
		_, err = s.UpdatePrompt(ctx, tc.p)
		assert.Equal(t, tc.code, chat.ErrorCode(err), "edit: "+name)
	}
	list, err := s.Prompts(ctx)
	require.NoError(t, err)
	assert.Equal(t, []chat.SavedPrompt{kept, other}, list, "nothing changed")

	// A prompt keeps its own name through an edit of its text.
	kept.Text = "Summarise it briefly."
	_, err = s.UpdatePrompt(ctx, kept)
	require.NoError(t, err)
	_, err = s.UpdatePrompt(ctx, chat.SavedPrompt{ID: "missing", Name: "x", Text: "y"})
	assert.Equal(t, chat.CodeNotFound, chat.ErrorCode(err))
}

func TestAllFactsListsEveryConversationsFactsWithTitles(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, _ := openTemp(t)
	older, newer := newConversation(t, s), newConversation(t, s)
	_, err := s.RenameConversation(ctx, older.ID, "Trip to Lisbon")
	require.NoError(t, err)
	_, err = s.RenameConversation(ctx, newer.ID, "Garden")
	require.NoError(t, err)
	_, err = s.db.ExecContext(ctx, `UPDATE conversations SET updated_at = updated_at + 60000 WHERE id = ?`, newer.ID)
	require.NoError(t, err)

	g, err := s.AddFact(ctx, chat.Fact{Key: "name", Value: "Ada", Scope: chat.ScopeGlobal})
	require.NoError(t, err)
	hotel, err := s.AddFact(ctx, chat.Fact{Key: "hotel", Value: "Alfama", ConversationID: older.ID})
	require.NoError(t, err)
	soil, err := s.AddFact(ctx, chat.Fact{Key: "soil", Value: "clay", ConversationID: newer.ID})
	require.NoError(t, err)

	facts, titles, err := s.AllFacts(ctx)
	require.NoError(t, err)
	assert.Equal(t, []chat.Fact{g, soil, hotel}, facts, "global first, then the most recently active conversation's")
	assert.Equal(t, map[string]string{older.ID: "Trip to Lisbon", newer.ID: "Garden"}, titles)
}

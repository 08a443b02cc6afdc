package archive

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/errand-app/errand/backend/chat"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// names are the saved prompts' names and texts, in order.
func names(t *testing.T, s interface {
	Prompts(context.Context) ([]chat.SavedPrompt, error)
}) []string {
	t.Helper()
	list, err := s.Prompts(context.Background())
	require.NoError(t, err)
	out := []string{}
	for _, p := range list {
		out = append(out, p.Name+": "+p.Text)
	}
	return out
}

func TestSavedPromptsGoIntoTheBackupAndComeBack(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	src := openStore(t)
	fill(t, src, "One")
	for _, p := range []chat.SavedPrompt{{Name: "Review", Text: "Review this diff."}, {Name: "Summary", Text: "Summarise it."}} {
		_, err := src.CreatePrompt(ctx, p)
		require.NoError(t, err)
	}

	f, err := Backup(ctx, src)
	require.NoError(t, err)
	var buf bytes.Buffer
	require.NoError(t, WriteJSON(&buf, f))
	assert.Contains(t, buf.String(), `"version": 5`)
	assert.Contains(t, buf.String(), `"prompts": [`)
	file := buf.String()

	// Restored into an empty store: every prompt.
	read, err := Read(strings.NewReader(file))
	require.NoError(t, err)
	dst := openStore(t)
	require.NoError(t, Restore(ctx, dst, read))
	assert.Equal(t, []string{"Review: Review this diff.", "Summary: Summarise it."}, names(t, dst))

	// Imported (the sidebar's Import) where one name is taken: the prompt
	// here is kept, the other added.
	here := openStore(t)
	_, err = here.CreatePrompt(ctx, chat.SavedPrompt{Name: "summary", Text: "My own summary."})
	require.NoError(t, err)
	read, err = Read(strings.NewReader(file))
	require.NoError(t, err)
	convs, err := Import(ctx, here, read)
	require.NoError(t, err)
	assert.Len(t, convs, 1)
	assert.Equal(t, []string{"Review: Review this diff.", "summary: My own summary."}, names(t, here))

	// A conversation's own export holds no prompts.
	one, err := Conversation(ctx, here, convs[0].ID)
	require.NoError(t, err)
	assert.Empty(t, one.Prompts)
}

func TestAVersion4FileIsStillImported(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	src := openStore(t)
	fill(t, src, "Old")
	f, err := Backup(ctx, src)
	require.NoError(t, err)
	b, err := json.Marshal(f)
	require.NoError(t, err)
	v4 := strings.Replace(string(b), fmt.Sprintf(`"version":%d`, Version), `"version":4`, 1)
	require.NotContains(t, v4, `"prompts"`, "a version 4 file has none")
	read, err := Read(strings.NewReader(v4))
	require.NoError(t, err)
	dst := openStore(t)
	require.NoError(t, Restore(ctx, dst, read))
	list, err := dst.ListConversations(ctx)
	require.NoError(t, err)
	require.Len(t, list, 1)
	assert.Equal(t, "Old", list[0].Title)
	assert.Empty(t, names(t, dst))
}

func TestABackupsBadPromptsAreRefusedAndNothingIsRestored(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	for name, tc := range map[string]struct {
		prompts []chat.SavedPrompt
		says    string
	}{
		"an empty name": {[]chat.SavedPrompt{{Name: " ", Text: "x"}}, "needs a name"},
		"an empty text": {[]chat.SavedPrompt{{Name: "A", Text: ""}}, "text is empty"},
		"two of a name": {[]chat.SavedPrompt{{Name: "A", Text: "x"}, {Name: "a", Text: "y"}}, "two saved prompts are named"},
	} {
		src := openStore(t)
		fill(t, src, "Kept out")
		f, err := Backup(ctx, src)
		require.NoError(t, err)
		f.Prompts = tc.prompts
		dst := openStore(t)
		err = Restore(ctx, dst, f)
		require.Error(t, err, name)
		assert.Equal(t, chat.CodeInvalid, chat.ErrorCode(err), name)
		assert.Contains(t, chat.ErrorMessage(err), tc.says, name)
		list, err := dst.ListConversations(ctx)
		require.NoError(t, err)
		assert.Empty(t, list, "%s: nothing restored", name)
		assert.Empty(t, names(t, dst), name)
	}
}

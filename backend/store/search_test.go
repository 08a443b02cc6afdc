package store

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/errand-app/errand/backend/chat"
	"github.com/google/uuid"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func say(t testing.TB, s *Store, convID string, role chat.Role, text string) chat.Message {
	t.Helper()
	m, err := s.AddMessage(context.Background(), chat.Message{ID: uuid.NewString(), ConversationID: convID,
		Role: role, Content: text, CreatedAt: time.Now()})
	require.NoError(t, err)
	return m
}

// found lists the ids of the messages a search finds.
func found(t *testing.T, s *Store, text string) []string {
	t.Helper()
	hits, err := s.Search(context.Background(), text, chat.MaxSearchResults)
	require.NoError(t, err)
	ids := []string{}
	for _, h := range hits {
		ids = append(ids, h.MessageID)
	}
	return ids
}

func TestSearchFindsMessagesNewestFirstWithTheMatchMarked(t *testing.T) {
	t.Parallel()
	s, _ := openTemp(t)
	c := newConversation(t, s)
	_, err := s.RenameConversation(context.Background(), c.ID, "Holiday")
	require.NoError(t, err)
	older := say(t, s, c.ID, chat.RoleUser, "Book a train to Zürich <b>please</b>")
	newer := say(t, s, c.ID, chat.RoleAssistant, "The zurich train leaves at nine.")
	say(t, s, c.ID, chat.RoleAssistant, "Nothing to see here.")

	hits, err := s.Search(context.Background(), "zurich", 10)
	require.NoError(t, err)
	require.Len(t, hits, 2, "diacritics are folded")
	assert.Equal(t, newer.ID, hits[0].MessageID)
	assert.Equal(t, older.ID, hits[1].MessageID)
	assert.Equal(t, "Holiday", hits[1].ConversationTitle)
	assert.Equal(t, c.ID, hits[1].ConversationID)
	assert.Equal(t, chat.RoleUser, hits[1].Role)
	assert.WithinDuration(t, older.CreatedAt, hits[1].CreatedAt, time.Millisecond)
	assert.Equal(t, []chat.SnippetPart{
		{Text: "Book a train to "}, {Text: "Zürich", Match: true}, {Text: " <b>please</b>"},
	}, hits[1].Snippet, "the text comes back as plain pieces, markup and all")

	assert.Equal(t, []string{newer.ID}, found(t, s, "nine ZURICH train"), "every word counts, in any order and case")
	assert.Empty(t, found(t, s, "rain"), "a word's start, not its middle")
}

// A word's start finds the words it begins, short (the prefix index) or
// long (the index's words), beside whole words, and is marked whole.
func TestSearchMatchesTheStartsOfWords(t *testing.T) {
	t.Parallel()
	s, _ := openTemp(t)
	c := newConversation(t, s)
	plan := say(t, s, c.ID, chat.RoleUser, "Plan the Reorganisation of the warehouse")
	report := say(t, s, c.ID, chat.RoleAssistant, "The reorganization report is ready.")
	say(t, s, c.ID, chat.RoleAssistant, "Nothing organised here.")

	assert.Equal(t, []string{report.ID, plan.ID}, found(t, s, "reo"), "a short start")
	assert.Equal(t, []string{report.ID, plan.ID}, found(t, s, "REORGANI"), "a long start, any case")
	assert.Equal(t, []string{plan.ID}, found(t, s, "reorganis ware"), "every word's start counts")
	assert.Equal(t, []string{report.ID}, found(t, s, "reorganization"), "a whole word")
	assert.Empty(t, found(t, s, "reorganisations"), "longer than any word")

	hits, err := s.Search(context.Background(), "the reorg", 10)
	require.NoError(t, err)
	require.Len(t, hits, 2)
	assert.Equal(t, []chat.SnippetPart{
		{Text: "The", Match: true}, {Text: " "}, {Text: "reorganization", Match: true}, {Text: " report is ready."},
	}, hits[0].Snippet, "the words found are marked whole")
}

// The words a longer start is looked up as are those of the messages,
// folded as the index folds them; a start no listed word begins is still
// looked up in the index itself.
func TestSearchListsTheWordsOfEachMessageItIndexes(t *testing.T) {
	t.Parallel()
	s, _ := openTemp(t)
	c := newConversation(t, s)
	lake := say(t, s, c.ID, chat.RoleUser, "Sailing on the ZÜRICHSEE, then Genève")
	assert.Equal(t, []string{lake.ID}, found(t, s, "zürichs"))
	assert.Equal(t, []string{lake.ID}, found(t, s, "Zurichsee genev"))
	assert.Equal(t, []string{lake.ID}, found(t, s, "SAILIN"))

	var words []string
	require.NoError(t, s.inTx(context.Background(), func(tx *sql.Tx) error {
		rows, err := tx.Query(`SELECT word FROM search_words ORDER BY word`)
		require.NoError(t, err)
		defer rows.Close()
		for rows.Next() {
			var w string
			require.NoError(t, rows.Scan(&w))
			words = append(words, w)
		}
		return rows.Err()
	}))
	assert.Equal(t, []string{"geneve", "on", "sailing", "the", "then", "zurichsee"}, words)
	var queued int
	require.NoError(t, s.db.QueryRow(`SELECT (SELECT count(*) FROM search_words_pending) + (SELECT count(*) FROM search_pending)`).Scan(&queued))
	assert.Zero(t, queued, "each message's words are listed once")

	_, err := s.db.Exec(`DELETE FROM search_words`)
	require.NoError(t, err)
	assert.Equal(t, []string{lake.ID}, found(t, s, "zurichs"), "a word the store did not list")
}

func TestSearchIndexFollowsEditsDeletesAndStreams(t *testing.T) {
	t.Parallel()
	s, path := openTemp(t)
	ctx := context.Background()
	c := newConversation(t, s)
	m := say(t, s, c.ID, chat.RoleUser, "apples and pears")
	require.Equal(t, []string{m.ID}, found(t, s, "apples"))

	m.Content = "plums only"
	_, err := s.UpdateMessage(ctx, m)
	require.NoError(t, err)
	assert.Empty(t, found(t, s, "apples"), "an edit drops the old words")
	assert.Equal(t, []string{m.ID}, found(t, s, "plums"))

	// A streamed reply is found once it is finished, with all its text;
	// its appends leave the index alone.
	task, st := streaming(t, s, "The first")
	for _, p := range []string{" quince", " second"} {
		_, err := s.AppendContent(ctx, st.ID, p)
		require.NoError(t, err)
	}
	assert.Empty(t, found(t, s, "quince"), "not while it streams")
	final := st
	final.Content, final.Streaming = "The first quince second", false
	_, err = s.UpdateMessage(ctx, final)
	require.NoError(t, err)
	assert.Equal(t, []string{st.ID}, found(t, s, "quince"))

	// A stream cut off (Stop, a crash) keeps its chunks: found all the same.
	task2, cut := streaming(t, s, "Cut")
	_, err = s.AppendContent(ctx, cut.ID, " off mid damson")
	require.NoError(t, err)
	task2.Status, task2.Rev = chat.StatusCancelled, task2.Rev+1
	_, err = s.FinishTask(ctx, task2, nil)
	require.NoError(t, err)
	assert.Equal(t, []string{cut.ID}, found(t, s, "damson"))
	_ = task

	// Deleting a conversation takes its messages out of the index.
	require.NoError(t, s.DeleteConversation(ctx, cut.ConversationID))
	assert.Empty(t, found(t, s, "damson"))
	var rows int
	require.NoError(t, s.db.QueryRow(`SELECT count(*) FROM message_search`).Scan(&rows))
	var want int
	require.NoError(t, s.db.QueryRow(`SELECT count(*) FROM messages WHERE role IN ('user','assistant') AND content != ''`).Scan(&want))
	assert.Equal(t, want, rows, "no row left behind")

	// And the index survives reopening.
	require.NoError(t, s.Close())
	s2, err := Open(ctx, path)
	require.NoError(t, err)
	defer s2.Close()
	assert.Equal(t, []string{m.ID}, found(t, s2, "plums"))
}

// The migration indexes what an older file already holds.
func TestSearchMigrationIndexesExistingMessages(t *testing.T) {
	t.Parallel()
	src, err := os.ReadFile("testdata/errand-v1.db")
	require.NoError(t, err)
	path := filepath.Join(t.TempDir(), FileName)
	require.NoError(t, os.WriteFile(path, src, 0o600))
	s, err := Open(context.Background(), path)
	require.NoError(t, err)
	defer s.Close()
	msgs, err := s.Messages(context.Background(), "conv-1")
	require.NoError(t, err)
	word := strings.Fields(msgs[0].Content)[0]
	hits, err := s.Search(context.Background(), word, 10)
	require.NoError(t, err)
	require.NotEmpty(t, hits)
	assert.Equal(t, "conv-1", hits[0].ConversationID)
}

// Whatever is typed is searched literally: results or none, never an error.
func TestHostileSearchTextNeverFails(t *testing.T) {
	t.Parallel()
	s, _ := openTemp(t)
	c := newConversation(t, s)
	say(t, s, c.ID, chat.RoleUser, `He said "near" (NEAR the end) and a*b OR c - d: e^f {g} col:umn`)
	cases := []struct {
		text  string
		finds bool
	}{
		{`"`, false}, {`""`, false}, {`"near`, true}, {`near"`, true}, {`"near" "the`, true},
		{`*`, false}, {`a*`, true}, {`a*b`, true}, {`*end`, true}, {`NEAR`, true}, {`NEAR(he said)`, false},
		{`near/2`, false}, {`(`, false}, {`)`, false}, {`((the`, true}, {`end)`, true},
		{`OR`, true}, {`AND`, true}, {`NOT`, false}, {`he NOT said`, false}, {`-`, false},
		{`col:umn`, true}, {`body:said`, false}, {`^he`, true}, {`{g}`, true}, {`+`, false},
		{`'`, false}, {`\`, false}, {"\x00", false}, {"said\x00", true}, {"\uE000said\uE001", false},
		{strings.Repeat("(", 200), false}, {strings.Repeat(`"a" `, 100), true}, {"", false}, {"   ", false},
	}
	for _, tc := range cases {
		t.Run(fmt.Sprintf("%.20q", tc.text), func(t *testing.T) {
			hits, err := s.Search(context.Background(), tc.text, 10)
			require.NoError(t, err)
			assert.Equal(t, tc.finds, len(hits) > 0)
		})
	}
}

func TestBadSearchRequestsAreRefusedClearly(t *testing.T) {
	t.Parallel()
	s, _ := openTemp(t)
	for _, tc := range []struct {
		text  string
		limit int
	}{{strings.Repeat("a", chat.MaxSearchLen+1), 10}, {"\xff", 10}, {"a", 0}, {"a", chat.MaxSearchResults + 1}} {
		_, err := s.Search(context.Background(), tc.text, tc.limit)
		assert.Equal(t, chat.CodeInvalid, chat.ErrorCode(err), "%q %d", tc.text, tc.limit)
	}
}

// A snippet is cut around the first word found, every word found in it
// marked, in one pass however many matches the message holds.
func TestSnippetIsCutAroundTheFirstMatch(t *testing.T) {
	t.Parallel()
	text := strings.Repeat("lorem ipsum ", 30) + "Crème brûlée, then CREME again" + strings.Repeat(" dolor sit", 40)
	parts := snippet(text, foldedWords(`"creme" (brulee`))
	require.NotEmpty(t, parts)
	assert.Equal(t, chat.SnippetPart{Text: "…"}, chat.SnippetPart{Text: parts[0].Text[:len("…")]}, "cut before")
	var marked []string
	for _, p := range parts {
		if p.Match {
			marked = append(marked, p.Text)
		}
	}
	assert.Equal(t, []string{"Crème", "brûlée", "CREME"}, marked)
	assert.Equal(t, "…", parts[len(parts)-1].Text[len(parts[len(parts)-1].Text)-len("…"):], "cut after")
	size := 0
	for _, p := range parts {
		size += len(p.Text)
	}
	assert.LessOrEqual(t, size, snippetLen+2*len("…"))

	// Many matches in a long message (how fast: BenchmarkSearch).
	s, _ := openTemp(t)
	c := newConversation(t, s)
	long := say(t, s, c.ID, chat.RoleAssistant, strings.Repeat("word match ", 6000))
	hits, err := s.Search(context.Background(), "match", 5)
	require.NoError(t, err)
	require.Len(t, hits, 1)
	assert.Equal(t, long.ID, hits[0].MessageID)
	assert.Equal(t, "word ", hits[0].Snippet[0].Text)
	assert.Equal(t, chat.SnippetPart{Text: "match", Match: true}, hits[0].Snippet[1])
}

// A word with punctuation is its words one after the other, the last as
// a start however long.
func TestSearchMatchesAPhraseEndingInALongStart(t *testing.T) {
	t.Parallel()
	s, _ := openTemp(t)
	c := newConversation(t, s)
	mail := say(t, s, c.ID, chat.RoleUser, "Send the e-mailing list")
	say(t, s, c.ID, chat.RoleUser, "mailing e list")
	assert.Equal(t, []string{mail.ID}, found(t, s, "e-mailin"))
	assert.Equal(t, []string{mail.ID}, found(t, s, `"the-e-mail"`))
	assert.Empty(t, found(t, s, "e-maili-list"))
}

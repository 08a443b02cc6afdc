package app

import (
	"encoding/json"
	"fmt"
	"html"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// firstStartRow is a first start's screen as the page renders it: the new
// conversation's id and folder are in its markup.
func firstStartRow(s FirstScreen) string {
	return fmt.Sprintf(`<li class="conv-item is-selected" data-conversation-id="%s"><span class="conv-title">New conversation</span></li>`+
		`<span class="ws-path" title="%s">this conversation&#39;s own folder<span class="sr-only"> (%s)</span></span>`,
		s.Open.Conversation.ID, html.EscapeString(s.Workspace.Path), html.EscapeString(s.Workspace.Path))
}

// captureFirstStart runs a capture run's first start as the window does
// (the page, its first screen, its snapshot) and returns the copy written.
func captureFirstStartIn(t *testing.T, dataDir string) []byte {
	t.Helper()
	out := filepath.Join(t.TempDir(), "copy.json")
	a := newAppWith(t, Config{DataDir: dataDir, Keyring: &fakeKeyring{}, CaptureFirstStart: out})
	inline, _ := servedScreen(t, servePage(a))
	assert.Empty(t, inline, "a capture run's first start shows no copy")
	first, err := a.Health.FirstScreen(50, 100)
	require.NoError(t, err)
	require.NoError(t, a.Window.SaveFirstScreen(snapshotOf(firstStartRow(first))))
	data, err := os.ReadFile(out)
	require.NoError(t, err, "the capture run wrote its copy")
	return data
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	require.NoError(t, err)
	return b
}

// servedScreen is the first screen's JSON the served page holds ("" for
// none), and its copy's markup.
func servedScreen(t *testing.T, rec *httptest.ResponseRecorder) (string, string) {
	t.Helper()
	body := rec.Body.String()
	m := inlineScreen.FindStringSubmatch(body)
	if m == nil {
		assert.Equal(t, indexHTML, body, "without a copy the page is served as it is")
		return "", ""
	}
	start := strings.Index(body, `data-height="820">`) + len(`data-height="820">`)
	end := strings.LastIndex(body[:strings.Index(body, `<script type="module"`)], `</div>`)
	require.True(t, start > 0 && end > start, body)
	return m[1], body[start:end]
}

// A release's first start shows the copy the capture run took of its own
// first start, with this start's own conversation and folders in it.
func TestAFirstStartShowsTheBuildsCopyWithItsOwnValues(t *testing.T) {
	t.Parallel()
	captured := t.TempDir()
	copyData := captureFirstStartIn(t, captured)
	assert.NotContains(t, string(copyData), captured, "the capture run's folders are not in the copy")

	dir := t.TempDir()
	a := newAppWith(t, Config{DataDir: dir, Keyring: &fakeKeyring{}, FirstStart: copyData})
	inline, markup := servedScreen(t, servePage(a))
	require.NotEmpty(t, inline, "a first start shows the copy")
	var screen FirstScreen
	require.NoError(t, json.Unmarshal([]byte(inline), &screen))
	assert.Equal(t, firstStartRow(screen), markup, "the copy holds this start's conversation and folder")
	assert.Contains(t, markup, filepath.Join(dir, "workspaces", screen.Open.Conversation.ID))

	again, err := a.Health.FirstScreen(50, 100)
	require.NoError(t, err)
	assert.Equal(t, screen.Open.Conversation.ID, again.Open.Conversation.ID, "the page's own call opens the conversation the copy shows")
	list, err := a.Conversations.ListConversations()
	require.NoError(t, err)
	assert.Len(t, list, 1, "one new conversation, not two")
}

// The copy is shown only on a first start whose page and screen are the
// copy's: another build's page, a configured model or a history of its own
// loads as before.
func TestTheBuildsCopyIsShownOnlyWhereItIsTheFirstScreen(t *testing.T) {
	t.Parallel()
	copyData := captureFirstStartIn(t, t.TempDir())

	t.Run("a model configured", func(t *testing.T) {
		t.Parallel()
		a := newAppWith(t, Config{DataDir: t.TempDir(), Keyring: &fakeKeyring{}, FirstStart: copyData,
			BaseURL: "http://127.0.0.1:9/v1", Model: "some-model"})
		inline, _ := servedScreen(t, servePage(a))
		assert.Empty(t, inline, "the header names another model than the copy's")
	})
	t.Run("a history", func(t *testing.T) {
		t.Parallel()
		a := newAppWith(t, Config{DataDir: t.TempDir(), Keyring: &fakeKeyring{}, FirstStart: copyData})
		c, err := a.Conversations.CreateConversation()
		require.NoError(t, err)
		inline, _ := servedScreen(t, servePage(a))
		assert.Empty(t, inline, "not a first start")
		list, err := a.Conversations.ListConversations()
		require.NoError(t, err)
		require.Len(t, list, 1, "serving the page made no conversation")
		assert.Equal(t, c.ID, list[0].ID)
	})
	t.Run("another page", func(t *testing.T) {
		t.Parallel()
		a := newAppWith(t, Config{DataDir: t.TempDir(), Keyring: &fakeKeyring{}, FirstStart: copyData})
		assert.Equal(t, updatedHTML, servePageOf(a, updatedHTML).Body.String(), "a copy painted on another build's page is not shown")
	})
	// A copy of this very page and screen, but cut short or at a size no
	// window has: not shown.
	var tooSmall map[string]any
	require.NoError(t, json.Unmarshal(copyData, &tooSmall))
	tooSmall["width"] = minWindowSide - 1
	for name, bad := range map[string][]byte{"cut short": copyData[:len(copyData)/2], "a window too small": mustJSON(t, tooSmall)} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			a := newAppWith(t, Config{DataDir: t.TempDir(), Keyring: &fakeKeyring{}, FirstStart: bad})
			inline, _ := servedScreen(t, servePage(a))
			assert.Empty(t, inline)
		})
	}
}

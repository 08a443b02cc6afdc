package app

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/errand-app/errand/backend/chat"
	"github.com/google/uuid"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	wailsassets "github.com/wailsapp/wails/v2/pkg/assetserver"
	assetoptions "github.com/wailsapp/wails/v2/pkg/options/assetserver"
	"golang.org/x/net/html"
)

// indexHTML is the page as the build writes it: the snapshot's place right
// after the root.
const indexHTML = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="UTF-8" />
    <title>Errand</title>
  </head>
  <body>
    <div id="root"></div><!--first-screen-->
    <script type="module" src="/assets/index.js"></script>
  </body>
</html>
`

// appRow is a fragment as the page renders it: a list row, an icon, a
// virtual list's rows placed by transform, a code block.
const appRow = `<div class="sidebar"><nav aria-label="Conversations"><div class="virtual-list" style="height: 3200px; position: relative;">` +
	`<div class="row" style="transform: translateY(64px); position: absolute;" data-index="1" role="option" aria-selected="true" tabindex="0">` +
	`<span class="title">Plan the trip</span><time datetime="2026-01-02">Jan 2</time></div></div></nav>` +
	`<button type="button" class="icon" title="New conversation" aria-label="New conversation">` +
	`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24" width="16" height="16" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round">` +
	`<path d="M12 5v14M5 12h14"></path><circle cx="12" cy="12" r="10"></circle></svg></button>` +
	`<pre><code class="language-go">if a &lt; b &amp;&amp; c {
	return
}</code></pre><p>Done: <strong>3</strong> files, <a href="#msg-2">see above</a>.<br/><img src="data:image/png;base64,iVBORw0KGgo=" alt="chart"/></p>` +
	`<textarea placeholder="Ask anything" rows="1"></textarea></div>`

func TestSanitizeKeepsTheAppsMarkup(t *testing.T) {
	t.Parallel()
	got, err := sanitize(appRow)
	require.NoError(t, err)
	assert.Equal(t, appRow, got, "the app's own markup, with the SVG's viewBox in its case, comes back as it was")
}

func TestSanitizeDropsWhatCouldRunOrLoad(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		`<p>hi<script>alert(1)</script></p>`:                                                                `<p>hi</p>`,
		`<img src="x" onerror="alert(1)" alt="a"/>`:                                                         `<img src="x" alt="a"/>`,
		`<a href="javascript:alert(1)">x</a>`:                                                               `<a>x</a>`,
		`<a href="java	script:alert(1)">x</a>`:                                                              `<a>x</a>`,
		`<a href="https://evil.example/x">x</a>`:                                                            `<a>x</a>`,
		`<img src="//evil.example/x.png"/>`:                                                                 `<img/>`,
		`<img src="data:text/html,hi"/>`:                                                                    `<img/>`,
		`<div>a<iframe src="/x"></iframe>b</div>`:                                                           `<div>ab</div>`,
		`<svg><script>alert(1)</script><path d="M0 0"></path></svg>`:                                        `<svg><path d="M0 0"></path></svg>`,
		`<svg><use xlink:href="https://evil.example/#a"></use></svg>`:                                       `<svg></svg>`,
		`<svg><foreignObject><p>x</p></foreignObject></svg>`:                                                `<svg></svg>`,
		`<div style="background: url(https://evil.example/)">x</div>`:                                       `<div>x</div>`,
		`<div style="background: u\72 l(https://evil.example/)">x</div>`:                                    `<div>x</div>`,
		`<div style="background-image: image-set('/a.png' 1x)">x</div>`:                                     `<div>x</div>`,
		`<style>body{display:none}</style><p>x</p>`:                                                         `<p>x</p>`,
		`<form action="/x" method="post"><button formaction="/y">go</button></form><p/>`:                    `<form><button>go</button></form><p></p>`,
		`<p>a<!-- note -->b</p><link rel="stylesheet" href="/x.css"/>`:                                      `<p>ab</p>`,
		`<math><mi>x</mi></math><template><p>x</p></template><span>y</span>`:                                `<span>y</span>`,
		`<svg><path fill="url(https://evil.example/#g)"></path></svg>`:                                      `<svg><path></path></svg>`,
		`<svg><path fill="url(#g)"></path></svg>`:                                                           `<svg><path fill="url(#g)"></path></svg>`,
		`<iframe srcdoc="<script>x</script>"></iframe><object data="/x"></object><embed src="/x"/><p>k</p>`: `<p>k</p>`,
		`<svg><style><img src=x onerror=alert(1)></style></svg><p>k</p>`:                                    `<svg></svg><img src="x"/><p>k</p>`,
		`<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>`:                                   ``,
		`<textarea></textarea><script>alert(1)</script></textarea>`:                                         `<textarea></textarea>`,
		`<a href="JaVaScRiPt&#58;alert(1)">x</a><a href=" javascript:alert(1)">y</a>`:                       `<a>x</a><a>y</a>`,
		`<input type="image" src="https://evil.example/x"/><details open ontoggle="alert(1)">d</details>`:   `<input type="image"/><details open="">d</details>`,
	} {
		got, err := sanitize(in)
		if want == "" {
			assert.Equal(t, chat.CodeInvalid, code(err), in)
			continue
		}
		require.NoError(t, err, in)
		assert.Equal(t, want, got, in)
		again, err := sanitize(got)
		require.NoError(t, err)
		assert.Equal(t, got, again, "%s: cleaning what is clean changes nothing", in)
	}
	_, err := sanitize(`<script>alert(1)</script>`)
	assert.Equal(t, chat.CodeInvalid, code(err), "markup with nothing to show is refused")
}

// updatedHTML is the page of another build: its script has another name.
var updatedHTML = strings.Replace(indexHTML, "index.js", "index-2.js", 1)

// servePage serves the page as the window asks for it.
func servePage(a *App) *httptest.ResponseRecorder { return servePageOf(a, indexHTML) }

// servePageOf serves html as the window's page.
func servePageOf(a *App, html string) *httptest.ResponseRecorder {
	page := a.Page(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Content-Length", strconv.Itoa(len(html)))
		_, _ = w.Write([]byte(html))
	}))
	rec := httptest.NewRecorder()
	page.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/", nil))
	return rec
}

var inlineScreen = regexp.MustCompile(`<script>window\.errandFirstScreen=Promise\.resolve\((.*)\);</script>`)

// shown is the first screen's JSON the page holds, "" for none.
func shown(t *testing.T, rec *httptest.ResponseRecorder) string {
	t.Helper()
	body := rec.Body.String()
	assert.Equal(t, strconv.Itoa(len(body)), rec.Header().Get("Content-Length"))
	m := inlineScreen.FindStringSubmatch(body)
	if m == nil {
		assert.Equal(t, indexHTML, body, "without the snapshot the page is served as it is")
		return ""
	}
	assert.Contains(t, body, `<div id="first-screen" inert aria-hidden="true" data-width="1200" data-height="820">`+appRow+`</div>`)
	assert.NotContains(t, body, firstScreenMarker)
	return m[1]
}

func firstScreenJSON(t *testing.T, a *App) string {
	t.Helper()
	first, err := a.Health.FirstScreen(50, 100)
	require.NoError(t, err)
	b, err := json.Marshal(first)
	require.NoError(t, err)
	return string(b)
}

// paint is what the window does: it loads its page, then saves the markup
// of its first screen.
func paint(t *testing.T, a *App, markup string) {
	t.Helper()
	servePage(a)
	require.NoError(t, a.Window.SaveFirstScreen(snapshotOf(markup)))
}

func snapshotOf(markup string) FirstScreenSnapshot {
	return FirstScreenSnapshot{HTML: markup, Width: 1200, Height: 820, ListLimit: 50, MessageLimit: 100}
}

func snapshotExists(dir string) bool {
	_, err := os.Stat(filepath.Join(dir, snapshotFileName))
	return err == nil
}

// The first start of an empty history keeps nothing (its page read no
// conversation yet); once it has one, the page's snapshot is kept and the
// next start shows it, with the first screen it was checked against.
func TestASavedFirstScreenIsShownOnTheNextStart(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	cfg := Config{DataDir: dir, Keyring: &fakeKeyring{}}
	a := newAppWith(t, cfg)
	require.NoError(t, a.Window.SaveFirstScreen(snapshotOf(appRow)))
	assert.False(t, snapshotExists(dir), "with no conversation yet nothing is kept")
	assert.Empty(t, shown(t, servePage(a)))

	_, err := a.Health.FirstScreen(50, 100) // the first start opens a new conversation
	require.NoError(t, err)
	require.NoError(t, a.Window.SaveFirstScreen(snapshotOf(appRow)))
	require.True(t, snapshotExists(dir))
	a.Shutdown(context.Background())

	again := newAppWith(t, cfg)
	served := servePage(again)
	assert.Equal(t, "no-store", served.Header().Get("Cache-Control"), "no start shows an earlier start's page")
	inline := shown(t, served)
	require.NotEmpty(t, inline, "the next start shows the snapshot: its first screen is the same")
	assert.Equal(t, firstScreenJSON(t, again), inline, "the page renders what the snapshot was checked against")
	list, err := again.Conversations.ListConversations()
	require.NoError(t, err)
	assert.Len(t, list, 1)
}

// Whatever changes the first screen — a message, a title, a setting it
// shows — the snapshot is not shown again, and its file goes.
func TestAChangedFirstScreenIsNotShown(t *testing.T) {
	t.Parallel()
	for name, change := range map[string]func(*testing.T, *App, string){
		"a message": func(t *testing.T, a *App, id string) {
			_, err := a.store.AddMessage(t.Context(), chat.Message{
				ID: uuid.NewString(), ConversationID: id, Role: chat.RoleUser, Content: "One more thing", CreatedAt: time.Now().UTC(),
			})
			require.NoError(t, err)
		},
		"a title": func(t *testing.T, a *App, id string) {
			_, err := a.Conversations.RenameConversation(id, "Renamed")
			require.NoError(t, err)
		},
		"a setting": func(t *testing.T, a *App, _ string) {
			st, err := a.Settings.GetSettings()
			require.NoError(t, err)
			st.ShowThinking = !st.ShowThinking
			_, err = a.Settings.SaveSettings(st)
			require.NoError(t, err)
		},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			a := newAppWith(t, Config{DataDir: dir, Keyring: &fakeKeyring{}})
			c, err := a.Conversations.CreateConversation()
			require.NoError(t, err)
			paint(t, a, appRow)
			require.NotEmpty(t, shown(t, servePage(a)))
			change(t, a, c.ID)
			assert.Empty(t, shown(t, servePage(a)))
			assert.False(t, snapshotExists(dir), "a snapshot of another first screen is removed")
		})
	}
}

// After an update the page is another: the last version's copy would
// show the last version's screen and then turn into this one's, so it is
// not shown, and its file goes.
func TestACopyPaintedOnAnotherPageIsNotShown(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	a := newAppWith(t, Config{DataDir: dir, Keyring: &fakeKeyring{}})
	_, err := a.Conversations.CreateConversation()
	require.NoError(t, err)
	paint(t, a, appRow)
	require.NotEmpty(t, shown(t, servePage(a)), "the same page shows it")

	assert.Equal(t, updatedHTML, servePageOf(a, updatedHTML).Body.String(), "another page is served without it")
	assert.False(t, snapshotExists(dir), "and its file goes")
}

// The page may save the same first screen again and again: it is written once.
func TestTheSameSnapshotIsWrittenOnce(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	a := newAppWith(t, Config{DataDir: dir, Keyring: &fakeKeyring{}})
	_, err := a.Conversations.CreateConversation()
	require.NoError(t, err)
	path := filepath.Join(dir, snapshotFileName)
	require.NoError(t, a.Window.SaveFirstScreen(snapshotOf(appRow)))
	first, err := os.Stat(path)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o600), first.Mode().Perm())
	require.NoError(t, a.Window.SaveFirstScreen(snapshotOf(appRow)))
	second, err := os.Stat(path)
	require.NoError(t, err)
	assert.True(t, os.SameFile(first, second), "the second save left the file as it was")
	require.NoError(t, a.Window.SaveFirstScreen(snapshotOf(appRow+"<p>more</p>")))
	third, err := os.Stat(path)
	require.NoError(t, err)
	assert.False(t, os.SameFile(first, third), "other markup is written")
}

// A title that closes a script element stays inside the page's JSON.
func TestTheInlineFirstScreenCannotEndItsScript(t *testing.T) {
	t.Parallel()
	a := newApp(t)
	c, err := a.Conversations.CreateConversation()
	require.NoError(t, err)
	title, text := "</script><script>alert(1)</script> & <!--", "a line\u2028and a paragraph\u2029"
	_, err = a.Conversations.RenameConversation(c.ID, title)
	require.NoError(t, err)
	_, err = a.store.AddMessage(t.Context(), chat.Message{
		ID: uuid.NewString(), ConversationID: c.ID, Role: chat.RoleUser, Content: text, CreatedAt: time.Now().UTC(),
	})
	require.NoError(t, err)
	paint(t, a, appRow)
	inline := shown(t, servePage(a))
	require.NotEmpty(t, inline)
	assert.NotContains(t, inline, "</")
	assert.NotContains(t, inline, "<!--")
	assert.NotContains(t, inline, "\u2028", "U+2028 and U+2029 are escaped too")
	assert.NotContains(t, inline, "\u2029")
	doc, err := html.Parse(strings.NewReader(servePage(a).Body.String()))
	require.NoError(t, err)
	var scripts []string
	for n := range doc.Descendants() {
		if n.Type == html.ElementNode && n.Data == "script" && n.FirstChild != nil {
			scripts = append(scripts, n.FirstChild.Data)
		}
	}
	require.Len(t, scripts, 1, "the browser reads one inline script, whole")
	var first FirstScreen
	require.NoError(t, json.Unmarshal([]byte(strings.TrimSuffix(strings.TrimPrefix(scripts[0], "window.errandFirstScreen=Promise.resolve("), ");")), &first))
	assert.Equal(t, title, first.Open.Conversation.Title)
	require.Len(t, first.Open.Messages, 1)
	assert.Equal(t, text, first.Open.Messages[0].Content)
}

func TestBadSnapshotsAreRefused(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	a := newAppWith(t, Config{DataDir: dir, Keyring: &fakeKeyring{}})
	_, err := a.Conversations.CreateConversation()
	require.NoError(t, err)
	for name, s := range map[string]FirstScreenSnapshot{
		"no markup":         snapshotOf(""),
		"too much markup":   snapshotOf(strings.Repeat("<p>x</p>", maxSnapshotHTML/8+1)),
		"nothing to show":   snapshotOf("<script>alert(1)</script>"),
		"a tiny window":     {HTML: appRow, Width: 10, Height: 820, ListLimit: 50, MessageLimit: 100},
		"a huge window":     {HTML: appRow, Width: 1200, Height: 90000, ListLimit: 50, MessageLimit: 100},
		"no list":           {HTML: appRow, Width: 1200, Height: 820, ListLimit: 0, MessageLimit: 100},
		"too many messages": {HTML: appRow, Width: 1200, Height: 820, ListLimit: 50, MessageLimit: chat.MaxPageSize + 1},
	} {
		err := a.Window.SaveFirstScreen(s)
		require.Error(t, err, name)
		assert.Equal(t, chat.CodeInvalid, code(err), name)
		assert.NotEmpty(t, err.Error(), name)
		assert.False(t, snapshotExists(dir), "%s: nothing is written", name)
	}
}

// A snapshot file that cannot be read is not shown, and goes.
func TestACorruptSnapshotIsIgnoredAndRemoved(t *testing.T) {
	t.Parallel()
	for name, data := range map[string]string{
		"not JSON":       `{"digest":`,
		"bad limits":     `{"digest":"x","html":"<p>x</p>","width":1200,"height":820,"listLimit":0,"messageLimit":100}`,
		"wrong digest":   `{"digest":"x","html":"<p>x</p>","width":1200,"height":820,"listLimit":50,"messageLimit":100}`,
		"empty markup":   `{"digest":"x","html":"","width":1200,"height":820,"listLimit":50,"messageLimit":100}`,
		"no file at all": "",
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			a := newAppWith(t, Config{DataDir: dir, Keyring: &fakeKeyring{}})
			_, err := a.Conversations.CreateConversation()
			require.NoError(t, err)
			if data != "" {
				require.NoError(t, os.WriteFile(filepath.Join(dir, snapshotFileName), []byte(data), 0o600))
			}
			rec := servePage(a)
			assert.Equal(t, http.StatusOK, rec.Code)
			assert.Equal(t, indexHTML, rec.Body.String(), "the page is served byte for byte as built")
			assert.Equal(t, "text/html; charset=utf-8", rec.Header().Get("Content-Type"))
			assert.False(t, snapshotExists(dir))
		})
	}
}

// A read-only database keeps no snapshot, and says nothing of it.
func TestAReadOnlyDatabaseKeepsNoSnapshot(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	a := newAppWith(t, Config{DataDir: dir, Keyring: &fakeKeyring{}})
	_, err := a.Conversations.CreateConversation()
	require.NoError(t, err)
	a.Window.snapshot.readOnly = true
	require.NoError(t, a.Window.SaveFirstScreen(snapshotOf(appRow)))
	assert.False(t, snapshotExists(dir))
}

// The first screen reads the same twice: nothing in it is stamped at the
// time it is read, so a snapshot can match it on the next start.
func TestTheFirstScreenReadsTheSameTwice(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	cfg := Config{DataDir: dir, Keyring: &fakeKeyring{}}
	a := newAppWith(t, cfg)
	_, err := a.Health.FirstScreen(50, 100) // opens the first conversation
	require.NoError(t, err)
	first := firstScreenJSON(t, a)
	assert.Equal(t, first, firstScreenJSON(t, a))
	a.Shutdown(context.Background())
	assert.Equal(t, first, firstScreenJSON(t, newAppWith(t, cfg)), "and the same on the next start")
}

// Wails reads the page the middleware writes and writes it again with its
// own scripts in <head>: the snapshot and the inline first screen come
// through it as they were.
func TestTheSnapshotComesThroughWailsAssetServer(t *testing.T) {
	t.Parallel()
	a := newApp(t)
	_, err := a.Conversations.CreateConversation()
	require.NoError(t, err)
	paint(t, a, appRow)
	for name, assets := range map[string]assetoptions.Options{
		"from files": {Assets: fstest.MapFS{"index.html": {Data: []byte(indexHTML)}}},
		// A handler that does not say its page is HTML: Wails sniffs it.
		"from a handler": {Handler: http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
			_, _ = w.Write([]byte(indexHTML))
		})},
	} {
		assets.Middleware = a.Page
		server, err := wailsassets.NewAssetServer("", assets, false, nil, fakeRuntime{})
		require.NoError(t, err)
		rec := httptest.NewRecorder()
		server.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/", nil))
		require.Equal(t, http.StatusOK, rec.Code, name)
		body := rec.Body.String()
		assert.Equal(t, strconv.Itoa(len(body)), rec.Header().Get("Content-Length"), name)
		m := inlineScreen.FindStringSubmatch(body)
		require.NotNil(t, m, "%s: %s", name, body)
		assert.Equal(t, firstScreenJSON(t, a), m[1], name)
		assert.Contains(t, body, `<div id="first-screen" inert="" aria-hidden="true" data-width="1200" data-height="820">`+appRow+`</div>`, name)
		assert.Less(t, strings.Index(body, "/wails/runtime.js"), strings.Index(body, "window.errandFirstScreen"), "%s: Wails' scripts stay first", name)
	}
}

type fakeRuntime struct{}

func (fakeRuntime) DesktopIPC() []byte       { return nil }
func (fakeRuntime) WebsocketIPC() []byte     { return nil }
func (fakeRuntime) RuntimeDesktopJS() []byte { return nil }

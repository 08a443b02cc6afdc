package tools

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// serve starts a test server for one handler.
func serve(t *testing.T, h http.HandlerFunc) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv
}

// fixed answers every request with one status, content type and body. An
// empty content type is sent as no Content-Type header at all.
func fixed(status int, contentType, body string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if contentType == "" {
			w.Header()["Content-Type"] = nil // no sniffing either
		} else {
			w.Header().Set("Content-Type", contentType)
		}
		w.WriteHeader(status)
		_, _ = w.Write([]byte(body))
	}
}

// fetch fetches url with the test servers' addresses allowed: they listen
// on 127.0.0.1, a local address that otherwise needs the person's approval.
func fetch(t *testing.T, url string) (Result, error) {
	t.Helper()
	return call(t, FetchURL{}, allowServers(t, url), map[string]any{"url": url})
}

// allowServers is an Env that allows the local addresses of the given
// URLs (host:port with a literal IP, as httptest servers have).
func allowServers(t *testing.T, urls ...string) Env {
	t.Helper()
	var env Env
	for _, raw := range urls {
		u, err := url.Parse(strings.TrimSpace(raw))
		require.NoError(t, err)
		env.AllowLocal = append(env.AllowLocal, u.Host)
	}
	return env
}

const page = `<!DOCTYPE html>
<html>
<head>
  <title>Page title</title>
  <meta charset="utf-8">
  <style>body { color: red; } .secret-style { display: none }</style>
  <script>var secretScript = "do not show";</script>
</head>
<body>
  <header><nav>Home | About</nav></header>
  <h1>Main   heading</h1>
  <p>First paragraph with <b>bold</b> and <a href="/x">a link</a>.</p>
  <script type="text/javascript">document.write("inline script");</script>
  <noscript>Please enable JavaScript</noscript>
  <ul><li>one</li><li>two</li></ul>
  <p>Fish &amp; chips &lt;3 &copy; 2024</p>
  <template><p>template text</p></template>
  <svg><text>svg text</text></svg>
  <!-- a hidden comment -->
  <footer>Footer text</footer>
</body>
</html>`

func TestFetchHTMLBecomesReadableText(t *testing.T) {
	var ua, method atomic.Value
	srv := serve(t, func(w http.ResponseWriter, r *http.Request) {
		ua.Store(r.Header.Get("User-Agent"))
		method.Store(r.Method)
		fixed(200, "text/html; charset=utf-8", page)(w, r)
	})
	res, err := fetch(t, srv.URL+"/page")
	require.NoError(t, err)
	assert.False(t, res.IsError)
	assert.Equal(t, "Errand/1.0 (desktop agent)", ua.Load())
	assert.Equal(t, http.MethodGet, method.Load())

	prefix := fmt.Sprintf("HTTP 200 from %s/page\n\n", srv.URL)
	require.True(t, strings.HasPrefix(res.Content, prefix), res.Content)
	text := strings.TrimPrefix(res.Content, prefix)
	for _, want := range []string{
		"Home | About",
		"Main heading",
		"First paragraph with bold and a link.",
		"one\n",
		"two",
		"Fish & chips <3 © 2024",
		"Footer text",
	} {
		assert.Contains(t, text, want)
	}
	for _, hidden := range []string{
		"color: red", "secret-style", "secretScript", "do not show", "inline script",
		"enable JavaScript", "template text", "svg text", "hidden comment", "Page title",
		"<p>", "<b>", "&amp;", "DOCTYPE",
	} {
		assert.NotContains(t, text, hidden)
	}
}

func TestFetchTextPassesThrough(t *testing.T) {
	body := "line 1\n  <b>not html</b>  \n\n\nlast line &amp;"
	for _, ct := range []string{"text/plain", "text/plain; charset=utf-8", "text/csv", "text/markdown", "application/json", "application/xml", ""} {
		t.Run(ct, func(t *testing.T) {
			srv := serve(t, fixed(200, ct, body))
			res, err := fetch(t, srv.URL)
			require.NoError(t, err)
			assert.False(t, res.IsError, res.Content)
			assert.Equal(t, fmt.Sprintf("HTTP 200 from %s\n\n%s", srv.URL, body), res.Content, "byte for byte")
		})
	}
}

func TestFetchHTMLContentTypeVariants(t *testing.T) {
	for _, ct := range []string{"text/html", "TEXT/HTML; Charset=UTF-8", "application/xhtml+xml", "text/html;charset=iso-8859-1"} {
		srv := serve(t, fixed(200, ct, "<html><body><script>hidden()</script><p>shown</p></body></html>"))
		res, err := fetch(t, srv.URL)
		require.NoError(t, err, ct)
		assert.False(t, res.IsError, ct)
		assert.True(t, strings.HasSuffix(res.Content, "\n\nshown"), "%s: %q", ct, res.Content)
	}
}

func TestFetchRefusesNonHTTPURLs(t *testing.T) {
	var calls atomic.Int32
	tool := FetchURL{wrap: func(http.RoundTripper) http.RoundTripper {
		return roundTripFunc(func(r *http.Request) (*http.Response, error) {
			calls.Add(1)
			return nil, errors.New("no request may be made")
		})
	}}
	for _, u := range []string{
		"file:///etc/passwd",
		"FILE:///etc/passwd",
		"ftp://example.com/file.txt",
		"gopher://example.com/",
		"javascript:alert(1)",
		"data:text/plain,hello",
		"mailto:someone@example.com",
		"http:///no-host",
		"https://",
		"example.com/page",
		"//example.com/page",
		"/etc/passwd",
		"",
		"   ",
		"http://[::1",
		"ht tp://example.com",
	} {
		res, err := call(t, tool, Env{}, map[string]any{"url": u})
		require.NoError(t, err, u)
		assert.True(t, res.IsError, u)
		assert.Equal(t, fmt.Sprintf("%q is not an http or https URL", u), res.Content)
		assert.NotContains(t, res.Content, "root:")
	}
	assert.Zero(t, calls.Load(), "no request was made")
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

func TestFetchAcceptsSpacesAndUppercaseScheme(t *testing.T) {
	srv := serve(t, fixed(200, "text/plain", "ok"))
	res, err := fetch(t, "  "+strings.Replace(srv.URL, "http://", "HTTP://", 1)+"/x  ")
	require.NoError(t, err)
	assert.False(t, res.IsError, res.Content)
	assert.True(t, strings.HasSuffix(res.Content, "\n\nok"))
}

func TestFetchErrorStatus(t *testing.T) {
	for _, status := range []int{400, 403, 404, 500, 503} {
		srv := serve(t, fixed(status, "text/html", "<html><body><h1>Not here</h1><script>x()</script></body></html>"))
		res, err := fetch(t, srv.URL+"/missing")
		require.NoError(t, err, status)
		assert.True(t, res.IsError, status)
		assert.Equal(t, fmt.Sprintf("HTTP %d from %s/missing\n\nNot here", status, srv.URL), res.Content)
	}
	for _, status := range []int{200, 201, 203, 299} {
		srv := serve(t, fixed(status, "text/plain", "fine"))
		res, err := fetch(t, srv.URL)
		require.NoError(t, err, status)
		assert.False(t, res.IsError, status)
		assert.True(t, strings.HasPrefix(res.Content, fmt.Sprintf("HTTP %d from", status)))
	}
}

func TestFetchRefusesBinaryContent(t *testing.T) {
	for _, ct := range []string{"image/png", "application/octet-stream", "application/pdf", "video/mp4", "application/zip", "font/woff2"} {
		srv := serve(t, fixed(200, ct, "\x89PNG\r\n\x1a\n\x00\x00binary"))
		res, err := fetch(t, srv.URL+"/file")
		require.NoError(t, err, ct)
		assert.True(t, res.IsError, ct)
		assert.Equal(t, fmt.Sprintf("%s/file is %s, not text", srv.URL, ct), res.Content)
		assert.NotContains(t, res.Content, "PNG")
	}
}

func TestFetchCutsLongText(t *testing.T) {
	const note = "\n… (cut: the page is longer)"
	body := strings.Repeat("a", MaxFetchText) + "END-MARKER"
	srv := serve(t, fixed(200, "text/plain", body))
	res, err := fetch(t, srv.URL)
	require.NoError(t, err)
	assert.False(t, res.IsError)
	require.True(t, strings.HasSuffix(res.Content, note), res.Content[len(res.Content)-60:])
	text := strings.TrimSuffix(strings.TrimPrefix(res.Content, fmt.Sprintf("HTTP 200 from %s\n\n", srv.URL)), note)
	assert.Equal(t, strings.Repeat("a", MaxFetchText), text, "exactly MaxFetchText bytes are kept")
	assert.NotContains(t, res.Content, "END-MARKER")

	srv = serve(t, fixed(200, "text/plain", strings.Repeat("b", MaxFetchText)))
	res, err = fetch(t, srv.URL)
	require.NoError(t, err)
	assert.NotContains(t, res.Content, "(cut:", "exactly MaxFetchText bytes are not cut")
}

func TestFetchCutsLargeBodies(t *testing.T) {
	const note = "\n… (cut: the page is longer)"
	// A page over MaxFetchBytes whose text is short: the download is cut.
	filler := strings.Repeat("<i></i>", MaxFetchBytes/7+10)
	srv := serve(t, fixed(200, "text/html", "<p>START</p>"+filler+"<p>END-MARKER</p>"))
	res, err := fetch(t, srv.URL)
	require.NoError(t, err)
	assert.False(t, res.IsError)
	assert.Contains(t, res.Content, "START")
	assert.NotContains(t, res.Content, "END-MARKER")
	assert.True(t, strings.HasSuffix(res.Content, note), res.Content)

	// A page of exactly MaxFetchBytes is not cut.
	head, tail := "<p>START</p><!--", "--><p>END</p>"
	exact := head + strings.Repeat("x", MaxFetchBytes-len(head)-len(tail)) + tail
	require.Len(t, exact, MaxFetchBytes)
	srv = serve(t, fixed(200, "text/html", exact))
	res, err = fetch(t, srv.URL)
	require.NoError(t, err)
	assert.Equal(t, fmt.Sprintf("HTTP 200 from %s\n\nSTART\n\nEND", srv.URL), res.Content)
}

func TestFetchFollowsRedirectsButNotToOtherSchemes(t *testing.T) {
	srv := serve(t, func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/old":
			http.Redirect(w, r, "/new", http.StatusFound)
		case "/new":
			fixed(200, "text/plain", "moved here")(w, r)
		case "/evil":
			w.Header().Set("Location", "file:///etc/passwd")
			w.WriteHeader(http.StatusFound)
		}
	})
	res, err := fetch(t, srv.URL+"/old")
	require.NoError(t, err)
	assert.False(t, res.IsError)
	assert.True(t, strings.HasSuffix(res.Content, "\n\nmoved here"), res.Content)

	res, err = fetch(t, srv.URL+"/evil")
	require.NoError(t, err)
	assert.True(t, res.IsError)
	assert.Contains(t, res.Content, "could not fetch")
	assert.NotContains(t, res.Content, "root:")
}

func TestFetchUnreachableServer(t *testing.T) {
	srv := httptest.NewServer(fixed(200, "text/plain", "x"))
	u := srv.URL
	srv.Close()
	res, err := fetch(t, u)
	require.NoError(t, err, "an unreachable server is a tool result, not a Go error")
	assert.True(t, res.IsError)
	assert.True(t, strings.HasPrefix(res.Content, "could not fetch "+u), res.Content)
}

func TestFetchCancelWhileWaitingForTheServer(t *testing.T) {
	started := make(chan struct{})
	release := make(chan struct{})
	srv := serve(t, func(w http.ResponseWriter, r *http.Request) {
		close(started)
		select {
		case <-r.Context().Done():
		case <-release:
		}
	})
	t.Cleanup(func() { close(release) }) // runs before srv.Close

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	type outcome struct {
		res Result
		err error
	}
	done := make(chan outcome, 1)
	go func() {
		res, err := FetchURL{}.Run(ctx, allowServers(t, srv.URL), mustJSON(t, map[string]any{"url": srv.URL}))
		done <- outcome{res, err}
	}()
	select {
	case <-started:
	case <-time.After(time.Minute):
		t.Fatal("the request never reached the server")
	}
	cancel()
	select {
	case o := <-done:
		assert.ErrorIs(t, o.err, context.Canceled, "Stop is a Go error: %+v", o.res)
		assert.Equal(t, Result{}, o.res)
	case <-time.After(time.Minute):
		t.Fatal("fetch_url did not return after the context was cancelled")
	}
}

func TestFetchAlreadyCancelled(t *testing.T) {
	srv := serve(t, fixed(200, "text/plain", "x"))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	res, err := callCtx(t, ctx, FetchURL{}, allowServers(t, srv.URL), map[string]any{"url": srv.URL})
	assert.ErrorIs(t, err, context.Canceled)
	assert.Equal(t, Result{}, res)
}

func TestRegressionFetchCancelDuringBodyIsAToolResult(t *testing.T) {
	flushed := make(chan struct{})
	release := make(chan struct{})
	srv := serve(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		_, _ = w.Write([]byte("partial body"))
		w.(http.Flusher).Flush()
		close(flushed)
		select {
		case <-r.Context().Done():
		case <-release:
		}
	})
	t.Cleanup(func() { close(release) })

	// The case is a cancel while the body is being read: the tool has had
	// the headers and part of the body, and waits for more. The body is
	// watched so the test knows it got there instead of hoping a sleep was
	// long enough.
	waiting := make(chan struct{})
	tool := FetchURL{wrap: func(rt http.RoundTripper) http.RoundTripper {
		return roundTripFunc(func(r *http.Request) (*http.Response, error) {
			resp, err := rt.RoundTrip(r)
			if err == nil {
				resp.Body = &watchedBody{ReadCloser: resp.Body, waiting: waiting}
			}
			return resp, err
		})
	}}

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	type outcome struct {
		res Result
		err error
	}
	done := make(chan outcome, 1)
	go func() {
		res, err := tool.Run(ctx, allowServers(t, srv.URL), mustJSON(t, map[string]any{"url": srv.URL}))
		done <- outcome{res, err}
	}()
	for _, step := range []struct {
		name string
		ch   chan struct{}
	}{{"the server sent part of the body", flushed}, {"the tool read part of the body and waits for more", waiting}} {
		select {
		case <-step.ch:
		case o := <-done:
			t.Fatalf("fetch_url returned before %s: %+v", step.name, o)
		case <-time.After(time.Minute):
			t.Fatalf("never got to: %s", step.name)
		}
	}
	cancel()
	select {
	case o := <-done:
		assert.ErrorIs(t, o.err, context.Canceled, "result: %+v", o.res)
		assert.Equal(t, Result{}, o.res)
	case <-time.After(time.Minute):
		t.Fatal("fetch_url did not return after the context was cancelled")
	}
}

// watchedBody closes waiting when it is read again after some bytes came:
// the reader has the start of the body and is waiting for the rest.
type watchedBody struct {
	io.ReadCloser
	got     int
	waiting chan struct{}
	once    sync.Once
}

func (b *watchedBody) Read(p []byte) (int, error) {
	if b.got > 0 {
		b.once.Do(func() { close(b.waiting) })
	}
	n, err := b.ReadCloser.Read(p)
	b.got += n
	return n, err
}

// ---- HTMLText ----

func TestHTMLText(t *testing.T) {
	cases := []struct{ name, in, want string }{
		{"empty", "", ""},
		{"plain text", "just text", "just text"},
		{"whitespace collapses", "  a \t  b\n\n\n\n\n c  ", "a b\n\nc"},
		{"paragraphs", "<p>a</p><p>b</p>", "a\n\nb"},
		{"br", "one<br>two<br/>three", "one\ntwo\nthree"},
		{"inline stays on the line", "<p>x <b>bold</b> <i>it</i> <a href='#'>link</a>.</p>", "x bold it link."},
		{"headings and lists", "<h1>T</h1><ul><li>a</li><li>b</li></ul>", "T\n\na\n\nb"},
		{"entities", "<p>a &amp; b &lt;c&gt; &quot;d&quot; &#39;e&#39; &euro;&nbsp;5</p>", `a & b <c> "d" 'e' €` + " 5"},
		{"script", "<p>a</p><script>var x = '<p>no</p>';</script><p>b</p>", "a\n\nb"},
		{"style", "<style>p { color: red }</style>text", "text"},
		{"uppercase tags", "<SCRIPT>hidden()</SCRIPT><P>shown</P>", "shown"},
		{"head dropped", "<html><head><title>T</title></head><body>body</body></html>", "body"},
		{"nested skips", "<svg><style>.a{}</style><text>in svg</text></svg>after", "after"},
		{"template", "<template><p>tpl</p></template><p>real</p>", "real"},
		{"noscript", "<noscript>enable js</noscript>ok", "ok"},
		{"comments", "a<!-- hidden -->b", "ab"},
		{"stray end tags", "</script></head></svg>text", "text"},
		{"unclosed script", "<p>a</p><script>never closed <p>b</p>", "a"},
		{"pre", "<pre>x   y</pre>", "x y"},
		{"doctype", "<!DOCTYPE html><p>x</p>", "x"},
		{"unicode", "<p>Grüße — 日本語 ✓</p>", "Grüße — 日本語 ✓"},
		{"malformed", "<p>a<div>b</p>c</div><", "a\nb\nc\n<"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			assert.Equal(t, c.want, HTMLText(c.in))
		})
	}
}

func TestHTMLTextHasNoBlankRunsOrEdges(t *testing.T) {
	out := HTMLText(page)
	assert.Equal(t, strings.TrimSpace(out), out)
	assert.NotContains(t, out, "\n\n\n")
	for _, line := range strings.Split(out, "\n") {
		assert.Equal(t, strings.TrimSpace(line), line)
		assert.NotContains(t, line, "  ")
	}
}

func TestRegressionHTMLTextUnclosedHeadHidesTheBody(t *testing.T) {
	assert.Equal(t, "Hello", HTMLText("<html><head><title>T</title><body><p>Hello</p>"))
}

func TestRegressionHTMLTextSelfClosingSVGHidesTheRest(t *testing.T) {
	assert.Equal(t, "before\n\nafter", HTMLText(`<p>before</p><svg width="1"/><p>after</p>`))
}

func TestRegressionHTMLTextTableCellsRunTogether(t *testing.T) {
	out := HTMLText("<table><tr><th>Name</th><th>Age</th></tr><tr><td>Ann</td><td>42</td></tr></table>")
	assert.NotContains(t, out, "NameAge")
	assert.NotContains(t, out, "Ann42")
}

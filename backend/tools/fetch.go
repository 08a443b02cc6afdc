package tools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"

	"golang.org/x/net/html"
)

// FetchURL downloads a web page and returns its text.
//
// It connects to local network addresses (this machine, private and
// link-local networks) only when the call's Env.AllowLocal lists them;
// otherwise Run returns a *LocalAccessError for the person to decide. The
// check is made on the address each connection actually dials, after name
// resolution and on every redirect.
type FetchURL struct {
	// wrap, when set, wraps the guarded transport (tests only).
	wrap func(http.RoundTripper) http.RoundTripper
}

// Limits of fetch_url.
const (
	MaxFetchBytes = 2 << 20
	MaxFetchText  = 64 << 10
	FetchTimeout  = 20 * time.Second
)

func (FetchURL) Name() string { return "fetch_url" }
func (FetchURL) Description() string {
	return "Fetch an http(s) URL and return its text (HTML is reduced to its readable text). An address on this machine or the local network is reached only if the person approves it."
}
func (FetchURL) Risk() Risk { return RiskRead }
func (FetchURL) Schema() map[string]any {
	return Object(map[string]any{"url": str("An http or https URL.")}, "url")
}

// client is a fresh HTTP client for one call: its transport dials through
// guard and keeps no connection for another call, whose approvals differ.
// Proxies are not used: a proxy would make the connection for us, past the
// check on the address.
func (t FetchURL) client(guard *localGuard) (*http.Client, func()) {
	dialer := &net.Dialer{Timeout: 10 * time.Second, KeepAlive: 30 * time.Second, ControlContext: guard.control}
	tr := &http.Transport{
		Proxy:                 nil,
		DialContext:           dialer.DialContext,
		ForceAttemptHTTP2:     true,
		TLSHandshakeTimeout:   10 * time.Second,
		ExpectContinueTimeout: time.Second,
	}
	var rt http.RoundTripper = tr
	if t.wrap != nil {
		rt = t.wrap(tr)
	}
	c := &http.Client{
		Transport: rt,
		CheckRedirect: func(req *http.Request, via []*http.Request) error {
			guard.reset() // what the previous request turned away is not this one's
			if len(via) >= 10 {
				return errors.New("stopped after 10 redirects")
			}
			return canonicalHost(req.URL)
		},
	}
	return c, tr.CloseIdleConnections
}

func (t FetchURL) Run(ctx context.Context, env Env, args json.RawMessage) (Result, error) {
	var a struct {
		URL string `json:"url"`
	}
	if err := decode(args, &a); err != nil {
		return errorResult("%v", err)
	}
	u, err := url.Parse(strings.TrimSpace(a.URL))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return errorResult("%q is not an http or https URL", a.URL)
	}
	if err := canonicalHost(u); err != nil {
		return errorResult("%v", err)
	}
	ctx, cancel := context.WithTimeout(ctx, FetchTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return errorResult("%v", err)
	}
	req.Header.Set("User-Agent", "Errand/1.0 (desktop agent)")
	guard := newLocalGuard(env.AllowLocal)
	client, closeIdle := t.client(guard)
	defer closeIdle()
	resp, err := client.Do(req)
	if err != nil {
		if parent := context.Cause(ctx); errors.Is(parent, context.Canceled) {
			return Result{}, parent
		}
		if lae := localAccess(err, guard, u.String()); lae != nil {
			return Result{}, lae
		}
		return errorResult("could not fetch %s: %v", u, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, MaxFetchBytes+1))
	if err != nil {
		if parent := context.Cause(ctx); errors.Is(parent, context.Canceled) {
			return Result{}, parent
		}
		return errorResult("reading %s failed: %v", u, err)
	}
	truncated := len(body) > MaxFetchBytes
	if truncated {
		body = body[:MaxFetchBytes]
	}
	ct, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	var text string
	switch {
	case ct == "text/html" || ct == "application/xhtml+xml":
		text = HTMLText(string(body))
	case strings.HasPrefix(ct, "text/") || ct == "application/json" || ct == "application/xml" || ct == "":
		text = string(body)
	default:
		return errorResult("%s is %s, not text", u, ct)
	}
	if len(text) > MaxFetchText {
		text, truncated = text[:MaxFetchText], true
	}
	if truncated {
		text += "\n… (cut: the page is longer)"
	}
	res := Result{Content: fmt.Sprintf("HTTP %d from %s\n\n%s", resp.StatusCode, u, text)}
	res.IsError = resp.StatusCode >= 400
	return res, nil
}

// localAccess is the LocalAccessError behind a failed request, if a local
// address was turned away: the URL is the request's that needed it, which
// after a redirect is not the one asked for.
func localAccess(err error, guard *localGuard, asked string) *LocalAccessError {
	addr, refused := guard.lastRefused()
	var lae *LocalAccessError
	if errors.As(err, &lae) {
		addr, refused = lae.Address, true
	}
	if !refused {
		return nil
	}
	target := asked
	var ue *url.Error
	if errors.As(err, &ue) && ue.URL != "" {
		target = ue.URL
	}
	return &LocalAccessError{URL: target, Address: addr}
}

// HTMLText is the readable text of an HTML document: no scripts, styles or
// markup, one line per block.
func HTMLText(doc string) string {
	z := html.NewTokenizer(strings.NewReader(doc))
	var b strings.Builder
	skip := 0
	// The head holds no readable text; it ends at </head>, or — since its
	// end tag is optional — at the first tag that cannot be in it.
	inHead := false
	for {
		switch z.Next() {
		case html.ErrorToken:
			return tidy(b.String())
		case html.StartTagToken, html.SelfClosingTagToken:
			tt := z.Token()
			name := tt.Data
			if name == "head" {
				inHead = true
				continue
			}
			if inHead && !headTags[name] {
				inHead = false
			}
			switch name {
			case "script", "style", "noscript", "template", "svg":
				// A self-closing element has no end tag to stop skipping.
				if tt.Type == html.StartTagToken {
					skip++
				}
			case "td", "th":
				b.WriteString(" \t")
			case "br", "p", "div", "li", "tr", "h1", "h2", "h3", "h4", "h5", "h6", "section", "article", "header", "footer", "pre", "blockquote":
				b.WriteByte('\n')
			}
		case html.EndTagToken:
			name, _ := z.TagName()
			if string(name) == "head" {
				inHead = false
			}
			switch string(name) {
			case "script", "style", "noscript", "template", "svg":
				if skip > 0 {
					skip--
				}
			case "p", "div", "li", "tr", "h1", "h2", "h3", "h4", "h5", "h6", "pre", "blockquote":
				b.WriteByte('\n')
			}
		case html.TextToken:
			if skip == 0 && !inHead {
				b.Write(z.Text())
			}
		}
	}
}

// headTags may appear in a document's head.
var headTags = map[string]bool{"title": true, "meta": true, "link": true, "style": true, "script": true, "base": true, "noscript": true, "template": true}

// tidy collapses runs of spaces and blank lines.
func tidy(s string) string {
	var out []string
	blank := false
	for _, line := range strings.Split(s, "\n") {
		line = strings.Join(strings.Fields(line), " ")
		if line == "" {
			if !blank && len(out) > 0 {
				out = append(out, "")
			}
			blank = true
			continue
		}
		blank = false
		out = append(out, line)
	}
	return strings.TrimSpace(strings.Join(out, "\n"))
}

// Builtin returns Errand's built-in tools.
func Builtin() []Tool {
	return []Tool{ListFiles{}, ReadFile{}, SearchText{}, WriteFile{}, EditFile{}, RunCommand{}, FetchURL{}}
}

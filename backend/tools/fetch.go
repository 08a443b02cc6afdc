package tools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strings"
	"time"

	"golang.org/x/net/html"
)

// FetchURL downloads a web page and returns its text.
type FetchURL struct {
	// Client, when set, replaces the default HTTP client (tests).
	Client *http.Client
}

// Limits of fetch_url.
const (
	MaxFetchBytes = 2 << 20
	MaxFetchText  = 64 << 10
	FetchTimeout  = 20 * time.Second
)

func (FetchURL) Name() string { return "fetch_url" }
func (FetchURL) Description() string {
	return "Fetch an http(s) URL and return its text (HTML is reduced to its readable text)."
}
func (FetchURL) Risk() Risk { return RiskRead }
func (FetchURL) Schema() map[string]any {
	return Object(map[string]any{"url": str("An http or https URL.")}, "url")
}

func (t FetchURL) Run(ctx context.Context, _ Env, args json.RawMessage) (Result, error) {
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
	ctx, cancel := context.WithTimeout(ctx, FetchTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return errorResult("%v", err)
	}
	req.Header.Set("User-Agent", "Errand/1.0 (desktop agent)")
	client := t.Client
	if client == nil {
		client = http.DefaultClient
	}
	resp, err := client.Do(req)
	if err != nil {
		if parent := context.Cause(ctx); errors.Is(parent, context.Canceled) {
			return Result{}, parent
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

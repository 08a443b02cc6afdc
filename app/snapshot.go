package app

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/errand-app/errand/backend/chat"
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// FirstScreenSnapshot is the window's first screen as it was last painted:
// the markup inside #root while the window showed exactly what the first
// screen holds (the newest conversation at its end, nothing over it, no
// task running). Go keeps it in the data folder with a digest of the first
// screen it showed, and the next start's page shows it while its script
// loads, if the first screen is still the same and the window the same
// size.
type FirstScreenSnapshot struct {
	HTML   string `json:"html"`
	Width  int    `json:"width"`
	Height int    `json:"height"`
	// ListLimit and MessageLimit are the first screen's page sizes, as the
	// page asks Health.FirstScreen for it.
	ListLimit    int `json:"listLimit"`
	MessageLimit int `json:"messageLimit"`
}

// The bounds of a snapshot Errand keeps.
const (
	maxSnapshotHTML = 4 << 20
	minWindowSide   = 200
	maxWindowSide   = 20000
)

// snapshotFileName is the snapshot's file in the data folder.
const snapshotFileName = "first-screen.json"

// firstScreenMarker is where the page takes the snapshot: in its body,
// right after the root React renders into.
const firstScreenMarker = "<!--first-screen-->"

// storedSnapshot is the snapshot's file: the markup, the digest of the
// first screen (FirstScreen's JSON) it showed and that of the page it was
// painted on.
type storedSnapshot struct {
	Digest string `json:"digest"`
	Page   string `json:"page"`
	FirstScreenSnapshot
}

// snapshotFile keeps the first screen's snapshot in the data folder.
type snapshotFile struct {
	path     string
	readOnly bool
	health   *Health
	first    firstStart // a first start's copy, built in
	page     string     // the digest of the page this run served: the one the window painted
	mu       sync.Mutex // one save or check at a time
}

// SaveFirstScreen keeps the window's first screen for the next start. The
// markup is cleaned of anything that could run or load; the first screen
// it shows is read again (without making a conversation) and its digest
// kept beside it. With no conversation yet nothing is kept; with a
// read-only database neither.
func (w *Window) SaveFirstScreen(s FirstScreenSnapshot) (err error) {
	defer recovered(&err)
	if err := s.check(); err != nil {
		return err
	}
	if w.snapshot == nil {
		return nil
	}
	// Saving ran code the start had given back (the executable's pages,
	// see releaseMemory) and took heap for the markup's tree, and the page
	// took memory to write it: the quiet window needs none of it, so it
	// goes back now, not at the next task's end (Go's idle memory was
	// 9–12 MB higher).
	if w.release != nil {
		defer w.release()
	}
	return w.snapshot.save(s)
}

// check refuses a snapshot Errand would not keep.
func (s FirstScreenSnapshot) check() error {
	switch {
	case s.HTML == "":
		return chat.Invalidf("html", "the first screen's markup is empty")
	case len(s.HTML) > maxSnapshotHTML:
		return chat.Invalidf("html", "the first screen's markup is %d bytes; at most %d are kept", len(s.HTML), maxSnapshotHTML)
	case !windowSide(s.Width) || !windowSide(s.Height):
		return chat.Invalidf("width", "a window of %d×%d cannot be the first screen's: each side is %d to %d pixels", s.Width, s.Height, minWindowSide, maxWindowSide)
	}
	if err := chat.CheckPageSize(s.ListLimit); err != nil {
		return chat.OnField("listLimit", err)
	}
	return chat.OnField("messageLimit", chat.CheckPageSize(s.MessageLimit))
}

func windowSide(n int) bool { return n >= minWindowSide && n <= maxWindowSide }

// save writes the snapshot with the digest of the first screen as it is
// now, unless the file already holds exactly that.
func (f *snapshotFile) save(s FirstScreenSnapshot) error {
	if f.readOnly {
		slog.Debug("first screen snapshot: not kept, the database is read-only")
		return nil
	}
	clean, err := sanitize(s.HTML)
	if err != nil {
		return err
	}
	s.HTML = clean
	f.mu.Lock()
	defer f.mu.Unlock()
	screen := f.health.firstScreen(s.ListLimit, s.MessageLimit, false)
	if screen.Open == nil {
		// No conversation yet: the next start makes one, and shows it.
		f.remove()
		return nil
	}
	body, err := json.Marshal(screen)
	if err != nil {
		return err
	}
	data, err := json.Marshal(storedSnapshot{Digest: digest(body), Page: f.page, FirstScreenSnapshot: s})
	if err != nil {
		return err
	}
	f.captureFirstStart(s, screen)
	if old, err := os.ReadFile(f.path); err == nil && bytes.Equal(old, data) {
		return nil
	}
	return writeFile(f.path, data)
}

// digest is the first screen's digest: of its JSON, as Wails sends it.
func digest(firstScreen []byte) string {
	sum := sha256.Sum256(firstScreen)
	return hex.EncodeToString(sum[:])
}

// remove removes the snapshot: it no longer shows the first screen.
func (f *snapshotFile) remove() {
	if err := os.Remove(f.path); err != nil && !errors.Is(err, fs.ErrNotExist) {
		slog.Warn("first screen snapshot: not removed", "err", err)
	}
}

// Page is the window's page: served once Errand is open (WhenOpen), with
// the last first screen's snapshot in it while that is still the first
// screen (the main page only).
func (a *App) Page(next http.Handler) http.Handler {
	withSnapshot := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if f := a.Window.snapshot; f != nil && isMainPage(r) {
			f.serve(w, r, next)
			return
		}
		next.ServeHTTP(w, r)
	})
	return a.WhenOpen(withSnapshot)
}

// isMainPage is a request of the window's index.html.
func isMainPage(r *http.Request) bool {
	p := r.URL.Path
	return r.Method == http.MethodGet && (p == "" || p == "/" || p == "/index.html")
}

// serve serves the page next writes, with the snapshot in it when there
// is one and it shows the first screen as it is now. With no snapshot it
// is next alone.
func (f *snapshotFile) serve(w http.ResponseWriter, r *http.Request, next http.Handler) {
	// The page holds this start's first screen: a browser on the dev
	// server must not show an earlier one from its cache.
	w.Header().Set("Cache-Control", "no-store")
	f.mu.Lock()
	defer f.mu.Unlock()
	rec := &pageRecorder{header: w.Header()}
	next.ServeHTTP(rec, r)
	page, why := rec.body.Bytes(), ""
	f.page = digest(page)
	data, err := os.ReadFile(f.path)
	switch {
	case errors.Is(err, fs.ErrNotExist) && !f.firstStartWanted():
		rec.replay(w, page)
		return
	case errors.Is(err, fs.ErrNotExist):
		page, why = f.showFirstStart(page, rec.code)
	case err != nil:
		why = err.Error()
	default:
		page, why = f.show(page, data, rec.code)
	}
	if why != "" {
		slog.Info("first screen snapshot: not shown", "reason", why)
	} else {
		slog.Info("first screen snapshot: shown", "bytes", len(page))
	}
	if why == "" && w.Header().Get("Content-Length") != "" {
		w.Header().Set("Content-Length", strconv.Itoa(len(page)))
	}
	rec.replay(w, page)
}

// show puts the snapshot in data into page; it says why not when it does
// not (and removes a snapshot that no longer shows the first screen).
func (f *snapshotFile) show(page, data []byte, code int) ([]byte, string) {
	headEnd, why := placeFor(page, code)
	if why != "" {
		return page, why
	}
	var s storedSnapshot
	if err := json.Unmarshal(data, &s); err != nil || s.check() != nil {
		f.remove()
		return page, "its file cannot be read"
	}
	if s.Page != f.page {
		// Another version's screen: shown, it would turn into this one's.
		f.remove()
		return page, "it was painted on another page (another version of Errand)"
	}
	body, err := json.Marshal(f.health.firstScreen(s.ListLimit, s.MessageLimit, true))
	if err != nil {
		return page, err.Error()
	}
	if digest(body) != s.Digest {
		f.remove()
		return page, "the first screen changed"
	}
	clean, err := sanitize(s.HTML)
	if err != nil {
		f.remove()
		return page, "its markup cannot be read"
	}
	return withCopy(page, headEnd, s.FirstScreenSnapshot, clean, body), ""
}

// placeFor is where a copy goes in page, answered with code: the end of
// its <head> start tag; or why it has no place.
func placeFor(page []byte, code int) (headEnd int, why string) {
	head := headTag.FindIndex(page)
	switch {
	case code != http.StatusOK:
		return 0, fmt.Sprintf("the page was answered %d", code)
	case !bytes.Contains(page, []byte(firstScreenMarker)) || head == nil:
		return 0, "the page has no place for it"
	}
	return head[1], ""
}

// withCopy is page with the copy of a first screen (markup, taken at s's
// window size) at its marker and that first screen's JSON (body) at the
// end of its <head> start tag (headEnd).
func withCopy(page []byte, headEnd int, s FirstScreenSnapshot, markup string, body []byte) []byte {
	shown := fmt.Sprintf(`<div id="first-screen" inert aria-hidden="true" data-width="%d" data-height="%d">%s</div>`, s.Width, s.Height, markup)
	// encoding/json writes <, >, & and U+2028/9 escaped: the JSON cannot
	// end the script element it is in.
	script := `<script>window.errandFirstScreen=Promise.resolve(` + string(body) + `);</script>`
	var out bytes.Buffer
	out.Grow(len(page) + len(shown) + len(script))
	out.Write(page[:headEnd])
	out.WriteString(script)
	out.Write(bytes.Replace(page[headEnd:], []byte(firstScreenMarker), []byte(shown), 1))
	return out.Bytes()
}

// headTag is the page's <head> start tag.
var headTag = regexp.MustCompile(`(?i)<head(\s[^>]*)?>`)

// pageRecorder keeps the page next writes, to be changed before it is
// sent; the headers are the response's own.
type pageRecorder struct {
	header http.Header
	code   int  // 0 until next writes
	told   bool // next called WriteHeader (else a Write implied 200)
	body   bytes.Buffer
}

func (p *pageRecorder) Header() http.Header { return p.header }

func (p *pageRecorder) WriteHeader(code int) {
	if p.code == 0 {
		p.code, p.told = code, true
	}
}

func (p *pageRecorder) Write(b []byte) (int, error) {
	if p.code == 0 {
		p.code = http.StatusOK
	}
	return p.body.Write(b)
}

// replay sends page as next sent its own: Wails decides by the headers at
// the first write whether the page is HTML (sniffing the bytes when next
// did not say), so the writes are the same.
func (p *pageRecorder) replay(w http.ResponseWriter, page []byte) {
	if p.told {
		w.WriteHeader(p.code)
	}
	if len(page) > 0 {
		_, _ = w.Write(page)
	}
}

// snapshotIn is the snapshot file of the data folder dir.
func snapshotIn(dir string, readOnly bool, health *Health, first firstStart) *snapshotFile {
	return &snapshotFile{path: filepath.Join(dir, snapshotFileName), readOnly: readOnly, health: health, first: first}
}

// sanitize keeps of a snapshot's markup what the app renders and nothing
// that could run, load or submit: the markup becomes part of a page that
// can call Go, and it is read from a file, so it is treated as anyone's.
// Elements not on the list go with their content; attributes not on it,
// and addresses that leave the page, go too.
func sanitize(markup string) (string, error) {
	root := &html.Node{Type: html.ElementNode, Data: "div", DataAtom: atom.Div}
	nodes, err := html.ParseFragment(strings.NewReader(markup), root)
	if err != nil {
		return "", chat.Invalidf("html", "the first screen's markup cannot be read: %v", err)
	}
	var b strings.Builder
	for _, n := range nodes {
		if kept(n) {
			if err := html.Render(&b, n); err != nil {
				return "", err
			}
		}
	}
	if b.Len() == 0 {
		return "", chat.Invalidf("html", "the first screen's markup holds nothing Errand shows")
	}
	return b.String(), nil
}

// kept cleans n and its children; false when n goes.
func kept(n *html.Node) bool {
	switch n.Type {
	case html.TextNode:
		return true
	case html.ElementNode:
	default:
		return false
	}
	if !keptElements[n.Namespace][n.Data] {
		return false
	}
	attrs := n.Attr[:0]
	for _, a := range n.Attr {
		if keptAttr(a) {
			attrs = append(attrs, a)
		}
	}
	n.Attr = attrs
	for c := n.FirstChild; c != nil; {
		next := c.NextSibling
		if !kept(c) {
			n.RemoveChild(c)
		}
		c = next
	}
	return true
}

// keptElements are the elements the app renders, by namespace.
var keptElements = map[string]map[string]bool{
	"": set("div span p a button ul ol li h1 h2 h3 h4 h5 h6 pre code em strong del s b i u small sub sup " +
		"blockquote hr br table caption colgroup col thead tbody tfoot tr th td img textarea input select option " +
		"label header nav main aside section footer article details summary time kbd mark figure figcaption " +
		"dl dt dd abbr cite q var samp ins wbr form fieldset legend"),
	"svg": set("svg g path circle rect line polyline polygon ellipse title desc defs clipPath " +
		"linearGradient radialGradient stop text tspan"),
}

// keptAttrs are the attributes kept as they are; href and src are kept
// when they stay on the page (pageURL).
var keptAttrs = set("class id style role title alt type value checked selected disabled readonly placeholder " +
	"rows cols colspan rowspan start dir lang tabindex width height for open datetime hidden name " +
	"viewBox d fill fill-rule fill-opacity clip-rule clip-path stroke stroke-width stroke-linecap stroke-linejoin " +
	"stroke-dasharray stroke-dashoffset stroke-opacity stroke-miterlimit points x y cx cy r rx ry x1 y1 x2 y2 dx dy " +
	"transform opacity xmlns xmlns:xlink focusable preserveAspectRatio offset stop-color stop-opacity " +
	"gradientUnits gradientTransform clipPathUnits vector-effect shape-rendering text-anchor font-size font-weight")

func set(words string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(words) {
		m[w] = true
	}
	return m
}

// keptAttr is whether an attribute stays.
func keptAttr(a html.Attribute) bool {
	key := a.Key
	if a.Namespace != "" {
		key = a.Namespace + ":" + a.Key
	}
	val := strings.ToLower(a.Val)
	switch {
	case key == "href" || key == "src" || key == "xlink:href":
		return pageURL(a.Val)
	case key == "style":
		return !strings.ContainsAny(val, `\@`) && !strings.Contains(val, "url(") && !strings.Contains(val, "expression") &&
			!strings.Contains(val, "image") && !strings.Contains(val, "cross-fade")
	case strings.Contains(val, "url(") && !strings.Contains(val, "url(#"):
		return false // fill="url(…)" names a gradient on the page, nothing else
	}
	return keptAttrs[key] || strings.HasPrefix(key, "aria-") || strings.HasPrefix(key, "data-")
}

// safeImage is a data: address of an image the page shows as it is.
var safeImage = regexp.MustCompile(`^data:image/(png|jpeg|gif|webp)[;,]`)

// pageURL is an address that stays on the page: a #fragment, a path on
// the page's own origin, or an image's data: address.
func pageURL(v string) bool {
	if strings.IndexFunc(v, func(r rune) bool { return r <= ' ' || r == '\\' || r == 0x7f }) >= 0 {
		return false // browsers drop tabs and newlines from an address, and read \ as /
	}
	if strings.HasPrefix(v, "#") || safeImage.MatchString(strings.ToLower(v)) {
		return true
	}
	if strings.HasPrefix(v, "//") {
		return false
	}
	colon := strings.IndexByte(v, ':')
	return colon < 0 || strings.IndexAny(v[:colon], "/?#") >= 0
}

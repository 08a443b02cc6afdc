package app

import (
	"encoding/json"
	"html"
	"log/slog"
	"strings"
	"time"

	"github.com/errand-app/errand/backend/chat"
)

// A first start (a new data folder) has no first screen of its own to
// show while the page's script loads, yet every first start shows the same
// one: the new conversation, the demo model, the built-in agents. So a
// release carries a copy of it (scripts/first-start.sh takes it from the
// production window), with the new conversation's own values — its id,
// its folder, the data folder — left as placeholders that each first start
// fills with its own.
//
// The copy is shown only on the page it was painted on (the digest of the
// page's HTML, which names the build's scripts), and only while the first
// start's screen is the one it showed, the new conversation's own values
// aside: a configured model, a setting or an agent of the person's own
// makes it another screen, and the first start loads as before.

// firstStartCopy is a first start's screen as the production window
// painted it, its own values as placeholders: a stored snapshot's file,
// whose Digest is of the first screen's JSON without those values
// (genericDigest).
type firstStartCopy storedSnapshot

// firstStart is the build's copy of a first start, and whether this run
// takes one.
type firstStart struct {
	copy *firstStartCopy // nil: the build has none
	// captureTo is where a capture run writes the copy; "" in every other
	// run.
	captureTo string
}

// ownPlaces pairs each of screen's own values, as the markup writes it,
// with its placeholder in the copy: placeholder then value for a
// strings.Replacer that fills the copy in, value then placeholder (taking)
// for one that takes them out. The folder comes before the data folder
// and the id it holds, so a replacer takes it whole.
func ownPlaces(screen FirstScreen, taking bool) []string {
	pairs := []string{
		"{{workspace}}", html.EscapeString(screen.Workspace.Path),
		"{{conversation}}", html.EscapeString(screen.Open.Conversation.ID),
		"{{data}}", html.EscapeString(screen.Status.DataDir),
	}
	if taking {
		for i := 0; i < len(pairs); i += 2 {
			pairs[i], pairs[i+1] = pairs[i+1], pairs[i]
		}
	}
	return pairs
}

// newFirstStart reads the build's copy (nil or empty: none); captureTo
// makes this run a capture run.
func newFirstStart(data []byte, captureTo string) firstStart {
	f := firstStart{captureTo: captureTo}
	if len(data) == 0 || captureTo != "" {
		return f
	}
	var c firstStartCopy
	if err := json.Unmarshal(data, &c); err != nil || c.check() != nil || c.Page == "" || c.Digest == "" {
		slog.Warn("first start copy: the build's cannot be read", "err", err)
		return f
	}
	f.copy = &c
	return f
}

// firstStartWanted is whether a start without a first screen of its own
// reads the page: at a first start (an empty list), to show the build's
// copy or to take one.
func (f *snapshotFile) firstStartWanted() bool {
	return (f.first.copy != nil || f.first.captureTo != "") && f.health.first.empty()
}

// showFirstStart puts the build's copy of a first start into page, filled
// with this start's own values, when this start is a first start that
// shows the screen the copy showed; it says why not when it does not.
func (f *snapshotFile) showFirstStart(page []byte, code int) ([]byte, string) {
	c := f.first.copy
	headEnd, why := placeFor(page, code)
	switch {
	case why != "":
		return page, why
	case c == nil:
		return page, "no copy of a first start: this run takes one"
	case c.Page != f.page:
		return page, "the first start's copy is of another page"
	}
	screen := f.health.firstScreen(c.ListLimit, c.MessageLimit, true)
	if !ownValues(screen) || genericDigest(screen) != c.Digest {
		return page, "this first start's screen is not the copy's"
	}
	body, err := json.Marshal(screen)
	if err != nil {
		return page, err.Error()
	}
	markup := strings.NewReplacer(ownPlaces(screen, false)...).Replace(c.HTML)
	return withCopy(page, headEnd, c.FirstScreenSnapshot, markup, body), ""
}

// captureFirstStart writes, in a capture run, the copy of a first start
// from the snapshot the window took of it and the first screen it showed:
// the new conversation alone, listed (the first start read the list
// before it made the conversation, so its list was empty).
func (f *snapshotFile) captureFirstStart(s FirstScreenSnapshot, screen FirstScreen) {
	if f.first.captureTo == "" || f.page == "" {
		return
	}
	if !ownValues(screen) || len(screen.Conversations.Items) != 1 || len(screen.Open.Messages) > 0 || len(screen.Open.Tasks) > 0 {
		slog.Warn("first start copy: not taken, the first screen is not a first start's")
		return
	}
	first := screen
	first.Conversations = &chat.ConversationPage{Items: []chat.ConversationSummary{}}
	s.HTML = strings.NewReplacer(ownPlaces(screen, true)...).Replace(s.HTML)
	data, err := json.Marshal(firstStartCopy{Page: f.page, Digest: genericDigest(first), FirstScreenSnapshot: s})
	if err == nil {
		err = writeFile(f.first.captureTo, data)
	}
	if err != nil {
		slog.Error("first start copy: not written", "err", err)
		return
	}
	slog.Info("first start copy: written", "path", f.first.captureTo)
}

// ownValues is whether screen has what a first start fills in: a
// conversation open, its folder, the data folder.
func ownValues(s FirstScreen) bool {
	return s.Open != nil && s.Workspace != nil && s.Conversations != nil && s.Status.DataDir != ""
}

// genericDigest is the digest of screen's JSON without a first start's
// own values: the new conversation's id and times, its folder and the data
// folder.
func genericDigest(s FirstScreen) string {
	s.Status.DataDir = ""
	open, ws := *s.Open, *s.Workspace
	open.Conversation.ID, open.Conversation.CreatedAt, open.Conversation.UpdatedAt = "", time.Time{}, time.Time{}
	ws.Path = ""
	s.Open, s.Workspace = &open, &ws
	body, err := json.Marshal(s)
	if err != nil {
		return ""
	}
	return digest(body)
}

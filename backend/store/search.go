package store

import (
	"context"
	"strings"
	"unicode"

	"github.com/errand-app/errand/backend/chat"
)

var _ chat.Searcher = (*Store)(nil)

// The snippet marks its matches with two private-use characters. Message
// text holding them can at worst misplace a highlight: the snippet is
// handed on as plain text pieces, never as markup.
const (
	markOpen  = "\uE000"
	markClose = "\uE001"
)

// Search returns the newest messages holding every word of text, whole
// words (see chat.Searcher). A word's start alone does not match: a
// prefix query over a million messages takes from 20 to 240 ms, a whole
// word about 1 ms (docs/BENCHMARKS.md).
func (s *Store) Search(ctx context.Context, text string, limit int) ([]chat.SearchHit, error) {
	if err := chat.CheckSearch(text, limit); err != nil {
		return nil, err
	}
	match := ftsQuery(text)
	if match == "" {
		return []chat.SearchHit{}, nil
	}
	rows, err := s.db.QueryContext(ctx, `SELECT m.id, m.conversation_id, c.title, m.role, m.created_at, h.snip
		FROM (SELECT rowid AS seq, snippet(message_search, 0, ?, ?, '…', 16) AS snip
			FROM message_search WHERE message_search MATCH ? ORDER BY rowid DESC LIMIT ?) h
		JOIN messages m ON m.seq = h.seq
		JOIN conversations c ON c.id = m.conversation_id
		ORDER BY h.seq DESC`, markOpen, markClose, match, limit)
	if err != nil {
		return nil, s.classify("search", err)
	}
	defer rows.Close()
	hits := []chat.SearchHit{}
	for rows.Next() {
		var h chat.SearchHit
		var created int64
		var snip string
		if err := rows.Scan(&h.MessageID, &h.ConversationID, &h.ConversationTitle, &h.Role, &created, &snip); err != nil {
			return nil, s.classify("search", err)
		}
		h.CreatedAt = fromMS(created)
		h.Snippet = snippetParts(snip)
		hits = append(hits, h)
	}
	return hits, s.classify("search", rows.Err())
}

// ftsQuery turns typed text into an FTS5 query that means it literally:
// each word a quoted string (inner quotes doubled), all of them required.
// Words with nothing a word is made of
// (only punctuation, such as "*" or "(") are left out; "" when none is left.
func ftsQuery(text string) string {
	var terms []string
	// A NUL would end the query string inside SQLite; no control
	// character is part of a word.
	text = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) {
			return ' '
		}
		return r
	}, text)
	for _, w := range strings.Fields(text) {
		if strings.IndexFunc(w, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsNumber(r) }) < 0 {
			continue
		}
		terms = append(terms, `"`+strings.ReplaceAll(w, `"`, `""`)+`"`)
	}
	if len(terms) == 0 {
		return ""
	}
	return strings.Join(terms, " ")
}

// snippetParts splits a marked snippet into plain and matching pieces.
func snippetParts(snip string) []chat.SnippetPart {
	parts := []chat.SnippetPart{}
	add := func(text string, match bool) {
		if text != "" {
			parts = append(parts, chat.SnippetPart{Text: text, Match: match})
		}
	}
	for snip != "" {
		before, rest, found := strings.Cut(snip, markOpen)
		add(before, false)
		if !found {
			break
		}
		inside, after, _ := strings.Cut(rest, markClose)
		add(inside, true)
		snip = after
	}
	return parts
}

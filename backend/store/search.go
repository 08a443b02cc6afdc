package store

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/errand-app/errand/backend/chat"
)

var _ chat.Searcher = (*Store)(nil)

// Search returns the newest messages holding every word of text, each as
// a word or a word's start (see chat.Searcher). A start of up to
// prefixIndexed characters is looked up in FTS5's prefix index; a longer
// one is the words of the index that begin with it (docs/BENCHMARKS.md).
func (s *Store) Search(ctx context.Context, text string, limit int) ([]chat.SearchHit, error) {
	if err := chat.CheckSearch(text, limit); err != nil {
		return nil, err
	}
	if err := s.indexPending(ctx); err != nil {
		return nil, err
	}
	match, err := s.ftsQuery(ctx, text)
	if err != nil || match == "" {
		return []chat.SearchHit{}, err
	}
	// FTS5's snippet() costs the square of the matches in a message (a
	// second for 6,000 of them in 64 KB): the snippet is cut here instead,
	// from the start of the text, in one pass.
	rows, err := s.db.QueryContext(ctx, `SELECT m.id, m.conversation_id, c.title, m.role, m.created_at, h.head
		FROM (SELECT rowid AS seq, substr(body, 1, ?) AS head
			FROM message_search WHERE message_search MATCH ? ORDER BY rowid DESC LIMIT ?) h
		JOIN messages m ON m.seq = h.seq
		JOIN conversations c ON c.id = m.conversation_id
		ORDER BY h.seq DESC`, snippetScan, match, limit)
	if err != nil {
		return nil, s.classify("search", err)
	}
	defer rows.Close()
	words := foldedWords(text)
	hits := []chat.SearchHit{}
	for rows.Next() {
		var h chat.SearchHit
		var created int64
		var head string
		if err := rows.Scan(&h.MessageID, &h.ConversationID, &h.ConversationTitle, &h.Role, &created, &head); err != nil {
			return nil, s.classify("search", err)
		}
		h.CreatedAt = fromMS(created)
		h.Snippet = snippet(head, words)
		hits = append(hits, h)
	}
	return hits, s.classify("search", rows.Err())
}

// indexPending indexes the messages whose text changed since they were
// indexed (ended streams, edits; see migration 0013). A read-only
// database searches what it has.
func (s *Store) indexPending(ctx context.Context) error {
	if s.readOnly {
		return nil
	}
	var n int
	if err := s.db.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM search_pending)`).Scan(&n); err != nil || n == 0 {
		return s.classify("search", err)
	}
	return s.inTx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `INSERT INTO message_search (rowid, body)
			SELECT t.seq, t.body FROM search_pending p CROSS JOIN message_text t ON t.seq = p.seq
			WHERE t.streaming = 0 AND t.body != ''`); err != nil {
			return fmt.Errorf("index messages: %w", err)
		}
		_, err := tx.ExecContext(ctx, `DELETE FROM search_pending`)
		return err
	})
}

// prefixIndexed is the longest word start FTS5 keeps an index of
// (migration 0034's prefix option).
const prefixIndexed = 4

// maxCompletions bounds the words a longer start is looked up as: past
// it, FTS5 merges them itself.
const maxCompletions = 32

// ftsQuery turns typed text into an FTS5 query that means it literally:
// each word a quoted string (inner quotes doubled) matching the words that
// start with it, all of them required. Words with nothing a word is made
// of (only punctuation, such as "*" or "(") are left out; "" when none is
// left.
func (s *Store) ftsQuery(ctx context.Context, text string) (string, error) {
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
		if strings.IndexFunc(w, isWordRune) < 0 {
			continue
		}
		term, err := s.prefixTerm(ctx, w)
		if err != nil {
			return "", err
		}
		terms = append(terms, term)
	}
	return strings.Join(terms, " AND "), nil
}

// prefixTerm is the FTS5 query of the words starting with w. A start
// longer than the prefix index is the words of the index it begins (few:
// FTS5 walks them newest first and stops at the limit, where a prefix
// query would merge every row of each first).
func (s *Store) prefixTerm(ctx context.Context, w string) (string, error) {
	quoted := `"` + strings.ReplaceAll(w, `"`, `""`) + `"`
	folded := fold(w)
	if utf8.RuneCountInString(folded) <= prefixIndexed || strings.IndexFunc(folded, func(r rune) bool { return !isWordRune(r) }) >= 0 {
		return quoted + "*", nil
	}
	words, err := collect(ctx, s.db, "search", func(r rowScanner) (string, error) {
		var t string
		return t, r.Scan(&t)
	}, `SELECT term FROM message_search_terms WHERE term >= ? AND term < ? LIMIT ?`,
		folded, folded+string(utf8.MaxRune), maxCompletions+1)
	switch {
	case err != nil:
		return "", err
	case len(words) == 0:
		return quoted, nil
	case len(words) > maxCompletions:
		return quoted + "*", nil
	}
	for i, t := range words {
		words[i] = `"` + strings.ReplaceAll(t, `"`, `""`) + `"`
	}
	return "(" + strings.Join(words, " OR ") + ")", nil
}

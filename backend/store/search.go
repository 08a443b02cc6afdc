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
// one is the indexed words that begin with it (search_words, see
// docs/BENCHMARKS.md).
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
	if err := s.db.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM search_pending)
		OR EXISTS (SELECT 1 FROM search_words_pending)`).Scan(&n); err != nil || n == 0 {
		return s.classify("search", err)
	}
	return s.inTx(ctx, func(tx *sql.Tx) error {
		texts, words, err := readPending(ctx, tx)
		if err != nil {
			return err
		}
		if err := execEach(ctx, tx, `INSERT INTO message_search (rowid, body) VALUES (?, ?)`, texts); err != nil {
			return fmt.Errorf("index messages: %w", err)
		}
		if err := execEach(ctx, tx, `INSERT OR IGNORE INTO search_words (word) VALUES (?)`, words); err != nil {
			return fmt.Errorf("add search words: %w", err)
		}
		_, err = tx.ExecContext(ctx, `DELETE FROM search_pending; DELETE FROM search_words_pending`)
		return err
	})
}

// readPending reads, in one pass, the texts of the messages to index
// (search_pending) and the words of those and of the messages indexed
// since the last search (search_words_pending), folded as the index folds
// them (see wordsOf), for search_words.
func readPending(ctx context.Context, tx *sql.Tx) (texts [][]any, words [][]any, err error) {
	rows, err := tx.QueryContext(ctx, `SELECT t.seq, t.body, p.seq IS NOT NULL
		FROM (SELECT seq FROM search_pending UNION SELECT seq FROM search_words_pending) q
		CROSS JOIN message_text t ON t.seq = q.seq
		LEFT JOIN search_pending p ON p.seq = q.seq
		WHERE t.streaming = 0 AND t.body != ''`)
	if err != nil {
		return nil, nil, fmt.Errorf("read pending messages: %w", err)
	}
	defer rows.Close()
	seen := map[string]bool{}
	for rows.Next() {
		var seq int64
		var body string
		var index bool
		if err := rows.Scan(&seq, &body, &index); err != nil {
			return nil, nil, fmt.Errorf("read pending messages: %w", err)
		}
		if index {
			texts = append(texts, []any{seq, body})
		}
		wordsOf(body, seen)
	}
	for w := range seen {
		words = append(words, []any{w})
	}
	return texts, words, rows.Err()
}

// execEach runs query once with each row of args, prepared once.
func execEach(ctx context.Context, tx *sql.Tx, query string, args [][]any) error {
	if len(args) == 0 {
		return nil
	}
	stmt, err := tx.PrepareContext(ctx, query)
	if err != nil {
		return err
	}
	defer stmt.Close()
	for _, a := range args {
		if _, err := stmt.ExecContext(ctx, a...); err != nil {
			return err
		}
	}
	return nil
}

// prefixIndexed is the longest word start FTS5 keeps an index of
// (migration 0034's prefix option).
const prefixIndexed = 4

// maxCompletions bounds the words a longer start is looked up as: past
// it, FTS5 merges them itself (slower: it reads every matching row).
const maxCompletions = 64

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

// prefixTerm is the FTS5 query of the words starting with w: a phrase
// when w holds punctuation ("e-mail" is the words e and mail*, one after
// the other). When its last word is longer than the prefix index, the
// query is the phrase ending in each indexed word that starts with it
// (few: FTS5 walks them newest first and stops at the limit, where a
// prefix query would merge every row of each first). With no such word it
// is the prefix query: it finds what a word the store could not list
// holds.
func (s *Store) prefixTerm(ctx context.Context, w string) (string, error) {
	head, last := splitLastWord(w)
	if utf8.RuneCountInString(last) <= prefixIndexed {
		return quote(w) + "*", nil
	}
	folded := fold(last)
	words, err := collect(ctx, s.db, "search", func(r rowScanner) (string, error) {
		var t string
		return t, r.Scan(&t)
	}, `SELECT word FROM search_words WHERE word >= ? AND word < ? LIMIT ?`,
		folded, folded+string(utf8.MaxRune), maxCompletions+1)
	switch {
	case err != nil:
		return "", err
	case len(words) == 0 || len(words) > maxCompletions:
		return quote(w) + "*", nil
	}
	for i, t := range words {
		words[i] = quote(head + t)
	}
	return "(" + strings.Join(words, " OR ") + ")", nil
}

// splitLastWord cuts w before its last run of word characters: the head
// (the text before it) and that last word, without what follows it.
func splitLastWord(w string) (head, last string) {
	end := strings.LastIndexFunc(w, isWordRune)
	_, size := utf8.DecodeRuneInString(w[end:])
	end += size
	start := strings.LastIndexFunc(w[:end], func(r rune) bool { return !isWordRune(r) })
	if start >= 0 {
		_, size = utf8.DecodeRuneInString(w[start:])
		start += size
	} else {
		start = 0
	}
	return w[:start], w[start:end]
}

// quote makes text one FTS5 string: its words, one after the other.
func quote(text string) string {
	return `"` + strings.ReplaceAll(text, `"`, `""`) + `"`
}

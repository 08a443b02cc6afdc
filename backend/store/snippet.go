package store

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/errand-app/errand/backend/chat"
	"golang.org/x/text/unicode/norm"
)

// A snippet is cut from the first snippetScan characters of a message,
// about snippetBefore bytes before the first word found and snippetLen
// bytes in all.
const (
	snippetScan   = 256 << 10
	snippetBefore = 60
	snippetLen    = 220
)

// isWordRune: the characters FTS5's unicode61 tokenizer makes words of.
func isWordRune(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsNumber(r) || unicode.Is(unicode.Co, r) || unicode.Is(unicode.Mn, r)
}

// fold is a word as the index compares it: lower case, without diacritics.
func fold(w string) string {
	var b strings.Builder
	for _, r := range norm.NFD.String(w) {
		if !unicode.Is(unicode.Mn, r) {
			b.WriteRune(unicode.ToLower(r))
		}
	}
	return b.String()
}

// foldedWords are the words of search text, folded.
func foldedWords(text string) map[string]bool {
	out := map[string]bool{}
	for _, w := range strings.FieldsFunc(text, func(r rune) bool { return !isWordRune(r) }) {
		out[fold(w)] = true
	}
	return out
}

// startsWithOne reports whether the word starts with one of words (a
// search matches word prefixes).
func startsWithOne(word string, words map[string]bool) bool {
	for w := range words {
		if strings.HasPrefix(word, w) {
			return true
		}
	}
	return false
}

type span struct{ start, end int }

// wordSpans lists where the words are in text, as byte offsets.
func wordSpans(text string) []span {
	var out []span
	eachWord(text, func(start, end int) { out = append(out, span{start, end}) })
	return out
}

// eachWord calls f with the byte offsets of each word of text, in order.
func eachWord(text string, f func(start, end int)) {
	start := -1
	for i, r := range text {
		switch {
		case isWordRune(r) && start < 0:
			start = i
		case !isWordRune(r) && start >= 0:
			f(start, i)
			start = -1
		}
	}
	if start >= 0 {
		f(start, len(text))
	}
}

// snippet is the part of text around the first of words found in it, in
// pieces, the words found (those starting with one of words) marked. Text
// that does not hold them (the match lies beyond what was read) gives its
// start, unmarked.
func snippet(text string, words map[string]bool) []chat.SnippetPart {
	spans := wordSpans(text)
	first := -1
	for i, sp := range spans {
		if startsWithOne(fold(text[sp.start:sp.end]), words) {
			first = i
			break
		}
	}
	from := 0
	if first >= 0 && spans[first].start > snippetBefore {
		// Start at the start of a word, some way before the first found.
		limit := spans[first].start - snippetBefore
		from = spans[first].start
		for i := first; i >= 0 && spans[i].start >= limit; i-- {
			from = spans[i].start
		}
	}
	to := min(len(text), from+snippetLen)
	for to < len(text) && !utf8.RuneStart(text[to]) {
		to--
	}
	var parts []chat.SnippetPart
	add := func(s string, match bool) {
		if s == "" {
			return
		}
		if n := len(parts); n > 0 && parts[n-1].Match == match {
			parts[n-1].Text += s
			return
		}
		parts = append(parts, chat.SnippetPart{Text: s, Match: match})
	}
	if from > 0 {
		add("…", false)
	}
	at := from
	for _, sp := range spans {
		if sp.start < from || sp.end > to {
			continue
		}
		if startsWithOne(fold(text[sp.start:sp.end]), words) {
			add(text[at:sp.start], false)
			add(text[sp.start:sp.end], true)
			at = sp.end
		}
	}
	add(text[at:to], false)
	if to < len(text) {
		add("…", false)
	}
	if parts == nil {
		parts = []chat.SnippetPart{}
	}
	return parts
}

// wordsOf adds the words of text, folded as the index folds them, to
// words. Each distinct spelling is folded once; an ASCII word only needs
// lower case.
func wordsOf(text string, words map[string]bool) {
	seen := map[string]bool{}
	eachWord(text, func(start, end int) { addWord(text[start:end], seen, words) })
}

func addWord(w string, seen, words map[string]bool) {
	if seen[w] {
		return
	}
	seen[w] = true
	for i := 0; i < len(w); i++ {
		if w[i] >= utf8.RuneSelf {
			words[fold(w)] = true
			return
		}
	}
	words[strings.ToLower(w)] = true
}

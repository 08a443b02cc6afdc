package compat

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
)

func TestWords(t *testing.T) {
	cases := map[string][]string{
		"":                   nil,
		"one":                {"one"},
		"one two":            {"one", " two"},
		"  lead":             {"  lead"},
		"trail  ":            {"trail", "  "},
		"a\n\n1. b\n2. c":    {"a", "\n\n1.", " b", "\n2.", " c"},
		"héllo wörld ✓":      {"héllo", " wörld", " ✓"},
		"tab\tsep\u00a0nbsp": {"tab", "\tsep", "\u00a0nbsp"},
	}
	for in, want := range cases {
		got := Words(in)
		assert.Equal(t, want, got, "Words(%q)", in)
		assert.Equal(t, in, strings.Join(got, ""))
	}
}

func TestPieces(t *testing.T) {
	assert.Equal(t, []string{""}, pieces("", 4))
	assert.Equal(t, []string{"abcd", "efgh", "ij"}, pieces("abcdefghij", 4))
	s := `{"q":"ééééé✓✓✓"}`
	got := pieces(s, 4)
	assert.Equal(t, s, strings.Join(got, ""))
	for _, p := range got {
		assert.True(t, utf8.ValidString(p), "piece %q splits a rune", p)
		assert.NotEmpty(t, p)
	}
	// A piece length shorter than a rune still makes progress.
	assert.Equal(t, []string{"✓", "✓"}, pieces("✓✓", 1))
}

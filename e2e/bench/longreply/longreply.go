// Package longreply writes the benchmarks' replies: the long Markdown
// reply, which the window benchmarks' model server (e2e/bench/benchmodel)
// sends for "[long N]" and the desktop benchmark's Stop in the real window
// (e2e/bench/desktop) streams, and the plain stream of N tokens both send
// for "[stream N]" (the desktop benchmark also as code, for "[stream-code
// N]", as a list, for "[stream-list N]", and as a table, for
// "[stream-table N]").
package longreply

import (
	"fmt"
	"strconv"
	"strings"
)

// End closes a reply: a window shows the whole reply once it shows this.
const End = "The end of the long reply."

// Tokens is n words, "tok1 tok2 …": a stream of n tokens, one a word.
func Tokens(n int) string {
	words := make([]string, n)
	for i := range words {
		words[i] = "tok" + strconv.Itoa(i+1)
	}
	return strings.Join(words, " ")
}

// Code is n words, "tok1, tok2, …", as a fenced Go code block of eight
// a line: a stream of n tokens (and seven more) that is code.
func Code(n int) string {
	words := strings.Fields(Tokens(n))
	var sb strings.Builder
	sb.WriteString("```go\nvar toks = []token{\n")
	for i := 0; i < len(words); i += 8 {
		sb.WriteString("\t" + strings.Join(words[i:min(i+8, len(words))], ", ") + ",\n")
	}
	sb.WriteString("}\n```")
	return sb.String()
}

// List is n words, "tok1 tok2 …", as a Markdown list of twelve an item,
// each item's first in bold and a link after its last: a stream of n
// tokens (and an item's link and the line before the list) that is a list.
func List(n int) string {
	words := strings.Fields(Tokens(n))
	var sb strings.Builder
	sb.WriteString("The tokens:\n\n")
	for i := 0; i < len(words); i += 12 {
		fmt.Fprintf(&sb, "- **%s** %s ([more](https://example.com/%s))\n", words[i], strings.Join(words[i+1:min(i+12, len(words))], " "), words[i])
	}
	return sb.String()
}

// Table is n words, "tok1 tok2 …", as a Markdown table of ten a row in
// five columns, each row's first in bold: a stream of n tokens (and the
// table's head and the line before it) that is a table.
func Table(n int) string {
	words := strings.Fields(Tokens(n))
	var sb strings.Builder
	sb.WriteString("The tokens:\n\n| First | Second | Third | Fourth | Fifth |\n|---|---|---|---|--:|\n")
	for i := 0; i < len(words); i += 10 {
		row := words[i:min(i+10, len(words))]
		row[0] = "**" + row[0] + "**"
		for c := 0; c < len(row); c += 2 {
			sb.WriteString("| " + strings.Join(row[c:min(c+2, len(row))], " ") + " ")
		}
		sb.WriteString("|\n")
	}
	return sb.String()
}

// Markdown is about n bytes of the Markdown a model writes: headings,
// paragraphs, lists and code, then End.
func Markdown(n int) string {
	var sb strings.Builder
	sb.Grow(n + 256)
	for part := 1; sb.Len() < n; part++ {
		fmt.Fprintf(&sb, "## Part %d\n\n", part)
		for p := 0; p < 3; p++ {
			sb.WriteString(strings.Repeat("Each step of the plan is explained here in words of usual length. ", 6))
			sb.WriteString("**Done**.\n\n")
		}
		fmt.Fprintf(&sb, "- item one of part %d with `code`\n- item two with a [link](https://example.com/%d)\n\n", part, part)
		fmt.Fprintf(&sb, "```go\nfunc part%d() int {\n\treturn %d\n}\n```\n\n", part, part)
	}
	sb.WriteString(End)
	return sb.String()
}

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
	return strings.Join(tokens(n), " ")
}

func tokens(n int) []string {
	words := make([]string, n)
	for i := range words {
		words[i] = "tok" + strconv.Itoa(i+1)
	}
	return words
}

// inRuns is Tokens(n)'s words in runs of per: head, then a line of each
// run, then tail.
func inRuns(n, per int, head, tail string, line func(run []string) string) string {
	words := tokens(n)
	var sb strings.Builder
	sb.WriteString(head)
	for i := 0; i < len(words); i += per {
		sb.WriteString(line(words[i:min(i+per, len(words))]))
	}
	sb.WriteString(tail)
	return sb.String()
}

// Code is n words, "tok1, tok2, …", as a fenced Go code block of eight
// a line: a stream of n tokens (and seven more) that is code.
func Code(n int) string {
	return inRuns(n, 8, "```go\nvar toks = []token{\n", "}\n```", func(run []string) string {
		return "\t" + strings.Join(run, ", ") + ",\n"
	})
}

// List is n words, "tok1 tok2 …", as a Markdown list of twelve an item,
// each item's first in bold and a link after its last: a stream of n
// tokens (and an item's link and the line before the list) that is a list.
func List(n int) string {
	return inRuns(n, 12, "The tokens:\n\n", "", func(run []string) string {
		return fmt.Sprintf("- **%s** %s ([more](https://example.com/%s))\n", run[0], strings.Join(run[1:], " "), run[0])
	})
}

// Table is n words, "tok1 tok2 …", as a Markdown table of ten a row in
// five columns, each row's first in bold: a stream of n tokens (and the
// table's head and the line before it) that is a table.
func Table(n int) string {
	head := "The tokens:\n\n| First | Second | Third | Fourth | Fifth |\n|---|---|---|---|--:|\n"
	return inRuns(n, 10, head, "", func(run []string) string {
		var row strings.Builder
		for c := 0; c < len(run); c += 2 {
			cell := strings.Join(run[c:min(c+2, len(run))], " ")
			if c == 0 {
				cell = "**" + run[0] + "**" + strings.TrimPrefix(cell, run[0])
			}
			row.WriteString("| " + cell + " ")
		}
		return row.String() + "|\n"
	})
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

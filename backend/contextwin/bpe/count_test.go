package bpe

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// samples are texts whose pieces stress the split and the merges: prose,
// code, numbers, contractions, other scripts, emoji, combining marks, long
// runs of one character (merged through the heap) and bytes that are not
// UTF-8.
var samples = []string{
	"",
	"hello world",
	"The quick brown fox jumps over the lazy dog. I'll say it's DON'T, we've they'd YOU'RE.",
	"func main() {\n\tfmt.Println(\"héllo\", 42, 3.14159, 1_000_000)\n}\n",
	`{"path":"a.txt","recursive":true,"n":[1,22,333,4444,55555]}`,
	"# Title\n\n- item one\n- item two\n\n```python\nprint('x')\n```\n\n| a | b |\n|---|---|\n",
	"日本語のテキストと中文混合，还有한국어 그리고 العربية و עברית.",
	"emoji 😀👍🏽👨‍👩‍👧‍👦 and flags 🇫🇷🇯🇵, café, naïve, e\u0301, Å, ﬁ",
	"   leading spaces\t\ttabs\r\n\r\nwindows lines\n\n\n   trailing   ",
	strings.Repeat("a", 5000),
	strings.Repeat(" ", 3000) + "x",
	strings.Repeat("=", 1000) + "\n" + strings.Repeat("ab", 700),
	strings.Repeat("9", 97) + " 1234567 0.5e-10",
	"bytes \xff\xfe\xc3 broken \xe2\x82 mid\x80dle",
	"URL https://example.com/path?q=1&r=two#frag and path /usr/local/bin/errand",
	"ThisIsCamelCase and snake_case_words and SCREAMING_CASE and mIxEd",
}

// TestCountsAreTheLibrarys counts each sample, random texts of tricky
// parts and real files (Errand's own docs and code) with both encodings,
// and checks each count is the tokenizer library's.
func TestCountsAreTheLibrarys(t *testing.T) {
	texts := append(append([]string{}, samples...), randomTexts(300)...)
	for _, name := range []string{"../../../README.md", "../../../docs/BENCHMARKS.md", "../tokens.go", "merge.go"} {
		b, err := os.ReadFile(filepath.FromSlash(name))
		require.NoError(t, err)
		texts = append(texts, string(b))
	}
	for _, l := range library {
		t.Run(l.name, func(t *testing.T) {
			t.Parallel()
			c := l.codec()
			for i, s := range texts {
				want, err := c.Count(s)
				require.NoError(t, err)
				assert.Equal(t, want, l.enc.Count(s), "text %d: %.60q", i, s)
			}
		})
	}
}

// randomTexts are n texts of up to 200 parts drawn from pieces that merge
// in many ways, the same in every run.
func randomTexts(n int) []string {
	parts := []string{"a", "b", "ab", "ing", " ", "  ", "\n", "\t", "é", "😀", "'s", "'LL", "1", "23", ".", ",", "(", "))", "the", "The", "漢", "字", "\u0301", "\xff", "_", "-", "=", "x9"}
	r := rand.New(rand.NewPCG(1, 2))
	out := make([]string, n)
	for i := range out {
		var sb strings.Builder
		for range r.IntN(200) + 1 {
			sb.WriteString(parts[r.IntN(len(parts))])
		}
		out[i] = sb.String()
	}
	return out
}

// TestAVocabularyCostsTheHeapNothing: the first count with an encoding
// (o200k_base, whose vocabulary as a map took 6.8 MB) leaves the heap as
// it was, but for its split pattern.
func TestAVocabularyCostsTheHeapNothing(t *testing.T) {
	e := &Encoding{pattern: O200kBase.pattern, file: O200kBase.file}
	before := heapInUse()
	require.Equal(t, 2, e.Count("hello world"))
	grown := int64(heapInUse()) - int64(before)
	assert.Less(t, grown, int64(256<<10), "heap taken by the first count, bytes")
	runtime.KeepAlive(e)
}

func heapInUse() uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapInuse
}

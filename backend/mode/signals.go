package mode

import (
	"regexp"
	"strings"
	"sync"
)

// msg is a message read once for the signals: lowercased, split in words.
type msg struct {
	text  string // lowercased
	words []string
	set   map[string]bool
	depth int
}

var wordRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`[a-z0-9_']+`) })

func read(text string, depth int) msg {
	lower := strings.ToLower(text)
	words := wordRE().FindAllString(lower, -1)
	set := make(map[string]bool, len(words))
	for _, w := range words {
		set[w] = true
	}
	return msg{text: lower, words: words, set: set, depth: depth}
}

func (m msg) first() string {
	if len(m.words) == 0 {
		return ""
	}
	return m.words[0]
}

func (m msg) anyWord(words ...string) bool {
	for _, w := range words {
		if m.set[w] {
			return true
		}
	}
	return false
}

func (m msg) anyPhrase(phrases ...string) bool {
	for _, p := range phrases {
		if strings.Contains(m.text, p) {
			return true
		}
	}
	return false
}

// signal is one clue and its weight: positive leans to a task, negative to
// a direct answer. weigh returns 0 when the clue is absent.
type signal struct {
	name  string
	weigh func(m msg) float64
}

func when(ok bool, w float64) float64 {
	if ok {
		return w
	}
	return 0
}

var (
	// A file name with a known extension, a relative or home path, or a
	// folder written with its slash ("docs/").
	pathRE = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`\b[\w-]+\.(go|py|js|ts|tsx|jsx|md|txt|json|csv|html|css|ya?ml|toml|sh|log|xlsx|xls|sql|rs|java|cpp|rb|php|ini|cfg|conf|pdf|docx)\b|(^|\s)(\./|~/|/[a-z])|\b[a-z_-]+/(\s|$|[a-z])`)
	})
	urlRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\bhttps?://|\bwww\.[a-z0-9-]+\.`) })
)

// signals is the table Decide sums. Each row is one kind of clue from seed
// 003's list: planning words, requests that need tools, length, depth, and
// a request for a quick or direct answer.
var signals = []signal{
	{"names a file or folder", func(m msg) float64 { return when(pathRE().MatchString(m.text), 3) }},
	{"names a web address", func(m msg) float64 { return when(urlRE().MatchString(m.text), 3) }},
	{"works on files or code", func(m msg) float64 {
		return when(m.anyWord("file", "files", "folder", "folders", "directory", "workspace", "repo",
			"repository", "project", "script", "code", "tests", "test", "readme", "logs", "database",
			"tables", "server", "cli", "commit", "dependencies", "npm", "urls"), 2)
	}},
	{"asks for an action", func(m msg) float64 { return when(actionVerbs[m.first()], 1.5) }},
	{"asks for tool work", func(m msg) float64 {
		return when(m.anyWord("run", "execute", "fetch", "download", "install", "scrape", "refactor",
			"debug", "deploy", "organize", "research", "collect", "save"), 1.5)
	}},
	{"asks for a plan or steps", func(m msg) float64 {
		return when(m.anyWord("plan", "steps", "step", "checklist") ||
			m.anyPhrase("break down", "think through", "step by step"), 2)
	}},
	{"chains several actions", func(m msg) float64 {
		return when(m.anyPhrase(", then ", " then ", "first ") && len(m.words) > 6, 1)
	}},
	{"is long", func(m msg) float64 { return when(len(m.words) > 25, 1) }},
	{"is short", func(m msg) float64 { return when(len(m.words) <= 4, -1) }},
	{"continues earlier work", func(m msg) float64 {
		return when(m.depth >= 2 && m.anyWord("now", "again", "same", "next"), 1.5)
	}},
	{"is a question", func(m msg) float64 { return when(questionWords[m.first()], -1.5) }},
	{"asks for a quick or direct answer", func(m msg) float64 {
		return when(m.anyWord("quick", "quickly", "briefly", "directly", "tl;dr", "define") ||
			m.anyPhrase("in short", "in one sentence", "in two sentences", "just answer",
				"short answer", "yes or no", "one word"), -3)
	}},
	{"asks for writing to read", func(m msg) float64 {
		return when(m.anyWord("haiku", "poem", "limerick", "joke", "story", "synonym", "pronounce"), -2)
	}},
}

var actionVerbs = setOf("create", "write", "read", "run", "execute", "fetch", "download", "install",
	"build", "fix", "refactor", "delete", "remove", "rename", "convert", "update", "organize", "set",
	"scrape", "debug", "analyze", "analyse", "research", "compare", "collect", "save", "commit",
	"deploy", "modify", "edit", "search", "go", "look", "make", "step", "help", "add", "move", "copy",
	"generate", "implement", "migrate", "clean")

var questionWords = setOf("what", "what's", "who", "when", "where", "why", "how", "which", "is",
	"are", "does", "do", "can", "could", "should", "explain", "give", "tell", "translate",
	"summarize", "summarise", "rephrase", "recommend", "define", "hi", "hello", "thanks", "thank",
	"ok", "okay", "great", "yes", "no")

func setOf(words ...string) map[string]bool {
	s := make(map[string]bool, len(words))
	for _, w := range words {
		s[w] = true
	}
	return s
}

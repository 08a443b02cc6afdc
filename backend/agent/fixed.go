package agent

import (
	"strconv"
	"strings"
	"sync"

	"github.com/errand-app/errand/backend/chat"
	"github.com/errand-app/errand/backend/llm"
)

// toolSet is a list of tool definitions and the key that names it: two
// sets with the same key hold the same definitions, so their token count
// is made once (fixedCounts).
type toolSet struct {
	list []llm.Tool
	key  string
}

// newToolSet names list, taken from the registry registryID: a registry
// never changes, so its ID and the names chosen from it say everything.
func newToolSet(registryID uint64, list []llm.Tool) toolSet {
	var b strings.Builder
	b.WriteString(strconv.FormatUint(registryID, 10))
	for _, t := range list {
		b.WriteByte(' ')
		b.WriteString(t.Name)
	}
	return toolSet{list: list, key: b.String()}
}

// compact is the set in its compact form, for a small model.
func (s toolSet) compact() toolSet {
	return toolSet{list: compactTools(s.list), key: s.key + " (compact)"}
}

// maxFixedCounts bounds each table of fixedCounts: past it the table
// starts again (a settings edit or an MCP server coming and going makes
// a few new keys; a long session should not keep every one).
const maxFixedCounts = 64

// fixedCounts are the token counts of what every request to one model
// repeats — the system prompts and the tool sets — counted once and shared
// by the runner's tasks, so that a task's first request does not count
// them again. The key of a count is the text itself, or the tool set's
// key: whatever changes them (the settings, the agent, the facts, the MCP
// servers' tools) makes a new key, never a stale count.
type fixedCounts struct {
	mu    sync.Mutex
	sys   map[string]int
	tools map[string]int
}

// system is the count of the system message text, counted by count the
// first time.
func (f *fixedCounts) system(text string, count func() int) int {
	return f.lookup(&f.sys, text, count)
}

// toolsOf is the count of the tool set, counted by count the first time.
func (f *fixedCounts) toolsOf(set toolSet, count func() int) int {
	return f.lookup(&f.tools, set.key, count)
}

// lookup counts outside the lock: two tasks counting the same text at
// once both count it, and agree.
func (f *fixedCounts) lookup(table *map[string]int, key string, count func() int) int {
	f.mu.Lock()
	n, ok := (*table)[key]
	f.mu.Unlock()
	if ok {
		return n
	}
	n = count()
	f.mu.Lock()
	defer f.mu.Unlock()
	if *table == nil || len(*table) >= maxFixedCounts {
		*table = map[string]int{}
	}
	(*table)[key] = n
	return n
}

// fixedCountsOf are the counts of the model's fixed parts.
func (r *Runner) fixedCountsOf(model string) *fixedCounts {
	if f, ok := r.fixed.Load(model); ok {
		return f.(*fixedCounts)
	}
	f, _ := r.fixed.LoadOrStore(model, &fixedCounts{})
	return f.(*fixedCounts)
}

// systemMessage is the system message of a request, as counted.
func systemMessage(text string) llm.Message {
	return llm.Message{Role: chat.RoleSystem, Content: text}
}

package agent

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/errand-app/errand/backend/chat"
	"github.com/errand-app/errand/backend/contextwin"
	"github.com/errand-app/errand/backend/modelserver/compat"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestMemoryBlock(t *testing.T) {
	t.Parallel()
	now := time.Now()
	fact := func(key, value string, scope chat.FactScope, age time.Duration) chat.Fact {
		return chat.Fact{Key: key, Value: value, Scope: scope, UpdatedAt: now.Add(-age)}
	}
	assert.Empty(t, memoryBlock(nil, 4096))

	facts := []chat.Fact{
		fact("old global", "1", chat.ScopeGlobal, 3*time.Hour),
		fact("new global", "2", chat.ScopeGlobal, time.Hour),
		fact("old here", "3", chat.ScopeConversation, 2*time.Hour),
		fact("new here", "line one\nline two", chat.ScopeConversation, 0),
	}
	assert.Equal(t, memoryHeader+`
- new here: line one
  line two
- old here: 3
- new global: 2 (global)
- old global: 1 (global)`, memoryBlock(facts, 4096), "the conversation's first, then the global ones, each newest first")

	// Past the cap, the older facts are left out and a note says so.
	var many []chat.Fact
	for i := 0; i < 100; i++ {
		many = append(many, fact(fmt.Sprintf("key %03d", i), strings.Repeat("v", 80), chat.ScopeConversation, time.Duration(i)*time.Minute))
	}
	block := memoryBlock(many, 4096)
	assert.LessOrEqual(t, len(block), 4096)
	assert.Contains(t, block, "- key 000:")
	assert.NotContains(t, block, "- key 099:")
	assert.Regexp(t, `\(\d+ more facts were left out`, block)

	// One fact too big to fit does not crowd out the others.
	big := append([]chat.Fact{fact("huge", strings.Repeat("x", 5000), chat.ScopeConversation, 0)}, facts...)
	block = memoryBlock(big, 4096)
	assert.NotContains(t, block, "huge")
	assert.Contains(t, block, "- old global: 1")
	assert.Contains(t, block, "(1 more fact was left out")
}

// systemText is the request's system message.
func systemText(req compat.Request) string {
	if len(req.Messages) == 0 || req.Messages[0].Role != "system" {
		return ""
	}
	return req.Messages[0].Text()
}

func TestARememberedFactReachesTheNextRequestAndSurvivesRestart(t *testing.T) {
	t.Parallel()
	h := newHarness(t, script(t,
		compat.Reply{ToolCalls: []chat.ToolCall{call(ToolRemember, `{"key":"editor","value":"helix","scope":"global"}`)}},
		compat.Reply{ToolCalls: []chat.ToolCall{call(ToolRemember, `{"key":"language","value":"Go"}`)}},
		compat.Reply{ToolCalls: []chat.ToolCall{call(ToolTaskComplete, `{"summary":"noted"}`)}},
		// The second task, after the person edited a fact.
		compat.Reply{ToolCalls: []chat.ToolCall{call(ToolTaskComplete, `{"summary":"ok"}`)}},
		// The third, after a restart.
		compat.Reply{ToolCalls: []chat.ToolCall{call(ToolForget, `{"key":"language"}`)}},
		compat.Reply{ToolCalls: []chat.ToolCall{call(ToolTaskComplete, `{"summary":"forgot"}`)}},
	), harnessOpts{})
	ctx := context.Background()
	conv := h.conversation()
	task := h.start(conv, "Remember that I use helix, everywhere, and Go here")
	h.events.waitStatus(task.ID, chat.StatusCompleted)

	reqs := h.server.Requests()
	require.Len(t, reqs, 3)
	assert.NotContains(t, systemText(reqs[0]), memoryHeader, "no facts yet")
	assert.Contains(t, systemText(reqs[0]), "### Memory", "the model is told how to remember")
	assert.True(t, reqs[0].HasTool(ToolRemember) && reqs[0].HasTool(ToolForget))
	assert.Contains(t, systemText(reqs[1]), "- editor: helix (global)", "the fact is in the very next request")
	assert.Contains(t, systemText(reqs[2]), "- language: Go\n- editor: helix (global)")

	facts, err := h.store.Facts(ctx, conv)
	require.NoError(t, err)
	require.Len(t, facts, 2)
	h.events.mu.Lock()
	assert.Equal(t, []string{"", conv}, h.events.facts, "each change was announced, with its conversation")
	h.events.mu.Unlock()

	// The person edits a fact; the next request carries the new value.
	edited := facts[1]
	require.Equal(t, "editor", edited.Key)
	edited.Value = "zed"
	_, err = h.store.UpdateFact(ctx, edited)
	require.NoError(t, err)
	task = h.start(conv, "What do I use?")
	h.events.waitStatus(task.ID, chat.StatusCompleted)
	reqs = h.server.Requests()
	assert.Contains(t, systemText(reqs[3]), "- editor: zed (global)")
	assert.NotContains(t, systemText(reqs[3]), "helix")

	// After a restart the facts are there still; forget removes one.
	h.restart()
	task = h.start(conv, "Forget my language")
	h.events.waitStatus(task.ID, chat.StatusCompleted)
	reqs = h.server.Requests()
	assert.Contains(t, systemText(reqs[4]), "- language: Go")
	assert.Contains(t, systemText(reqs[4]), "- editor: zed (global)")
	assert.NotContains(t, systemText(reqs[5]), "- language: Go")
	assert.Contains(t, systemText(reqs[5]), "- editor: zed (global)")
}

func TestBadRememberCallsGetErrorResultsAndStoreNothing(t *testing.T) {
	t.Parallel()
	h := newHarness(t, script(t,
		compat.Reply{ToolCalls: []chat.ToolCall{
			call(ToolRemember, `{"key":"openai","value":"my key is sk-proj-abcdefghijklmnopqrstuvwxyz012345"}`),
			call(ToolRemember, `{"key":"db password","value":"hunter2"}`),
			call(ToolRemember, `{"key":"  ","value":"v"}`),
			call(ToolRemember, `{"key":"k","value":"`+strings.Repeat("v", chat.MaxFactBytes+1)+`"}`),
			call(ToolRemember, `{"key":"k","value":"v","scope":"team"}`),
			call(ToolForget, `{"key":"never remembered"}`),
		}},
		compat.Reply{ToolCalls: []chat.ToolCall{call(ToolTaskComplete, `{"summary":"done"}`)}},
	), harnessOpts{})
	roomFor(h)
	conv := h.conversation()
	task := h.start(conv, "Remember my key")
	h.events.waitStatus(task.ID, chat.StatusCompleted)

	var results []chat.Message
	for _, m := range h.messages(conv) {
		if m.Role == chat.RoleTool && m.ToolName != ToolTaskComplete {
			results = append(results, m)
		}
	}
	require.Len(t, results, 6)
	for _, r := range results {
		assert.True(t, r.IsError, r.Content)
		assert.NotContains(t, r.Content, "abcdefghijklmnop", "a secret is never repeated")
	}
	assert.Contains(t, results[0].Content, "looks like a secret")
	assert.Contains(t, results[1].Content, "looks like a secret")
	assert.Contains(t, results[2].Content, "key is empty")
	assert.Contains(t, results[3].Content, "4096 bytes")
	assert.Contains(t, results[4].Content, "conversation")
	assert.Contains(t, results[5].Content, `no fact has the key "never remembered"`)

	facts, err := h.store.Facts(context.Background(), conv)
	require.NoError(t, err)
	assert.Empty(t, facts, "nothing was stored")
	assert.NotContains(t, systemText(h.server.Requests()[1]), memoryHeader)
}

func TestMemoryOffOffersNoToolsAndShowsNoFacts(t *testing.T) {
	t.Parallel()
	h := newHarness(t, script(t,
		compat.Reply{ToolCalls: []chat.ToolCall{call(ToolRemember, `{"key":"k","value":"v"}`)}},
		compat.Reply{ToolCalls: []chat.ToolCall{call(ToolTaskComplete, `{"summary":"done"}`)}},
	), harnessOpts{})
	ctx := context.Background()
	conv := h.conversation()
	_, err := h.store.RememberFact(ctx, chat.Fact{Key: "name", Value: "Ada", Scope: chat.ScopeGlobal})
	require.NoError(t, err)
	h.settings(func(s *chat.Settings) { s.MemoryEnabled = false })

	task := h.start(conv, "Remember k")
	h.events.waitStatus(task.ID, chat.StatusCompleted)
	for _, req := range h.server.Requests() {
		assert.False(t, req.HasTool(ToolRemember) || req.HasTool(ToolForget), "no memory tools while memory is off")
		assert.NotContains(t, systemText(req), "Ada")
		assert.NotContains(t, systemText(req), "### Memory")
	}
	results := 0
	for _, m := range h.messages(conv) {
		if m.Role == chat.RoleTool && m.ToolName == ToolRemember {
			results++
			assert.True(t, m.IsError)
			assert.Contains(t, m.Content, "Memory is turned off")
		}
	}
	assert.Equal(t, 1, results)
	facts, err := h.store.Facts(ctx, conv)
	require.NoError(t, err)
	assert.Len(t, facts, 1, "the call stored nothing")
}

// TestTheDemoModelRemembers runs the offline demo model's memory script
// through the runner: "remember KEY is VALUE" stores a fact, and the next
// request shows it; "forget KEY" removes it.
func TestTheDemoModelRemembers(t *testing.T) {
	t.Parallel()
	h := newHarness(t, demoScript, harnessOpts{thinking: true})
	ctx := context.Background()
	conv := h.conversation()
	task := h.start(conv, "Remember that my favourite editor is helix.")
	done := h.events.waitStatus(task.ID, chat.StatusCompleted)
	assert.Contains(t, done.Summary, "Demo remember")
	facts, err := h.store.Facts(ctx, conv)
	require.NoError(t, err)
	require.Len(t, facts, 1)
	assert.Equal(t, "my favourite editor", facts[0].Key)
	assert.Equal(t, "helix", facts[0].Value)
	assert.Equal(t, chat.ScopeConversation, facts[0].Scope)
	reqs := h.server.Requests()
	assert.Contains(t, systemText(reqs[len(reqs)-1]), "- my favourite editor: helix")

	task = h.start(conv, "remember globally name: Ada")
	h.events.waitStatus(task.ID, chat.StatusCompleted)
	global, err := h.store.Facts(ctx, "")
	require.NoError(t, err)
	require.Len(t, global, 1)
	assert.Equal(t, chat.Fact{Key: "name", Value: "Ada", Scope: chat.ScopeGlobal}, chat.Fact{Key: global[0].Key, Value: global[0].Value, Scope: global[0].Scope})

	task = h.start(conv, "Forget my favourite editor")
	h.events.waitStatus(task.ID, chat.StatusCompleted)
	facts, err = h.store.Facts(ctx, conv)
	require.NoError(t, err)
	assert.Len(t, facts, 1, "the global fact is left")
}

func TestAChatReplySeesTheFactsToo(t *testing.T) {
	t.Parallel()
	h := newHarness(t, script(t, compat.Reply{Text: "Hello, Ada."}), harnessOpts{})
	ctx := context.Background()
	conv := h.conversation()
	_, err := h.store.RememberFact(ctx, chat.Fact{Key: "name", Value: "Ada", Scope: chat.ScopeGlobal})
	require.NoError(t, err)
	task, err := h.runner.StartTask(ctx, conv, "Hi", chat.ModeChat)
	require.NoError(t, err)
	h.events.waitStatus(task.ID, chat.StatusCompleted)
	req := h.server.Requests()[0]
	assert.Empty(t, req.Tools)
	assert.Contains(t, systemText(req), memoryHeader+"\n- name: Ada (global)")
	assert.NotContains(t, systemText(req), "### Memory", "no tools to tell about")
}

// Facts take at most an eighth of a small model's input budget: on a
// 4,096-token model many facts are cut to fit, with a note, instead of
// crowding out the conversation.
func TestFactsFitASmallModel(t *testing.T) {
	t.Parallel()
	h := newHarness(t, script(t,
		compat.Reply{ToolCalls: []chat.ToolCall{call(ToolTaskComplete, `{"summary":"ok"}`)}},
	), harnessOpts{})
	ctx := context.Background()
	conv := h.conversation()
	for i := range 60 {
		_, err := h.store.RememberFact(ctx, chat.Fact{ConversationID: conv, Scope: chat.ScopeConversation,
			Key: fmt.Sprintf("detail %02d", i), Value: strings.Repeat("a plain sentence of note. ", 4)})
		require.NoError(t, err)
	}
	h.settings(func(s *chat.Settings) { s.ContextLengths = map[string]int{"test-model": 4096} })
	task := h.start(conv, "Go on")
	h.events.waitStatus(task.ID, chat.StatusCompleted)

	system := systemText(h.server.Requests()[0])
	at := strings.Index(system, memoryHeader)
	require.GreaterOrEqual(t, at, 0, "some facts are there")
	room := contextwin.NewBudget(4096).Input() / 8 * 4
	assert.Less(t, room, memoryMaxBytes)
	assert.LessOrEqual(t, len(system[at:]), room)
	assert.Contains(t, system, "left out to keep this short")
}

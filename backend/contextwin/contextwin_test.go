package contextwin

import (
	"strings"
	"testing"

	"github.com/errand-app/errand/backend/chat"
	"github.com/errand-app/errand/backend/llm"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestContextLengthResolution(t *testing.T) {
	t.Parallel()
	settings := map[string]int{"llama3.1": 16384, "bad": 0}
	n, src := ContextLength("llama3.1", settings, 0)
	assert.Equal(t, 16384, n)
	assert.Equal(t, SourceSetting, src)

	n, src = ContextLength("llama3.1", nil, 32768)
	assert.Equal(t, 32768, n)
	assert.Equal(t, SourceProvider, src)

	n, src = ContextLength("openai/gpt-4o-mini", nil, 0)
	assert.Equal(t, 128_000, n)
	assert.Equal(t, SourceKnown, src)
	n, _ = ContextLength("gpt-4.1-nano", nil, 0)
	assert.Equal(t, 1_047_576, n, "the longest prefix wins")

	n, src = ContextLength("bad", settings, -5)
	assert.Equal(t, DefaultContextLength, n, "a setting or report out of range is passed over")
	assert.Equal(t, SourceDefault, src)
}

func TestCheckContextLengthRefusesZeroNegativeAndAbsurd(t *testing.T) {
	t.Parallel()
	for _, n := range []int{0, -1, 10, chat.MaxContextLength + 1} {
		err := CheckContextLength(n)
		require.Error(t, err, n)
		assert.Equal(t, chat.CodeInvalid, chat.ErrorCode(err))
		assert.Contains(t, err.Error(), "context length")
	}
	assert.NoError(t, CheckContextLength(4096))
}

func TestBudgetKeepsAReserveForTheReply(t *testing.T) {
	t.Parallel()
	b := NewBudget(4096)
	assert.Equal(t, 1024, b.Reserve)
	assert.Equal(t, 3072, b.Input())
	assert.Equal(t, 2304, b.CompactAt())
	assert.Equal(t, MaxReserve, NewBudget(128_000).Reserve)
	assert.Equal(t, 1536, b.Squeeze(0.5).Input())
}

func TestCountingIsRealAndIncludesToolCalls(t *testing.T) {
	t.Parallel()
	c := NewCounter("gpt-4o")
	assert.Equal(t, 2, c.Text("hello world"))
	plain := c.Message(llm.Message{Role: chat.RoleAssistant, Content: "ok"})
	withCall := c.Message(llm.Message{Role: chat.RoleAssistant, Content: "ok",
		ToolCalls: []chat.ToolCall{{ID: "c1", Name: "read_file", Arguments: `{"path":"a.txt"}`}}})
	assert.Greater(t, withCall, plain+perToolCall)
	req := llm.Request{Messages: []llm.Message{{Role: chat.RoleUser, Content: "hi"}},
		Tools: []llm.Tool{{Name: "t", Description: "d", Parameters: map[string]any{"type": "object"}}}}
	assert.Greater(t, c.Request(req), c.Message(req.Messages[0]))
	assert.NotPanics(t, func() { c.Text("\xff\xfe broken") })
}

func TestCalibrationLearnsAndIsClamped(t *testing.T) {
	t.Parallel()
	c := NewCounter("llama3.1")
	assert.Equal(t, 1.0, c.Factor())
	c.Observe(1000, 1300)
	assert.InDelta(t, 1.15, c.Factor(), 1e-9)
	for range 20 {
		c.Observe(1000, 100_000)
	}
	assert.Equal(t, maxFactor, c.Factor())
	for range 20 {
		c.Observe(1000, 10)
	}
	assert.Equal(t, minFactor, c.Factor(), "never trusts a server that counts fewer tokens than the tokenizer")
	c.Observe(1000, 0)
	assert.Equal(t, minFactor, c.Factor())
	assert.Equal(t, 100, c.Scale(100))
}

func TestExcerptKeepsHeadAndTailWithANote(t *testing.T) {
	t.Parallel()
	s := strings.Repeat("a", 500) + strings.Repeat("b", 5000) + strings.Repeat("c", 500)
	e := Excerpt(s, 900)
	assert.True(t, strings.HasPrefix(e, "aaa"))
	assert.True(t, strings.HasSuffix(e, "ccc"))
	assert.Contains(t, e, "characters omitted; the full result is stored")
	assert.Equal(t, "short", Excerpt("short", 900))
}

func units(c *Counter, n, resultSize int) []Unit {
	var out []Unit
	for i := range n {
		id := "c" + string(rune('a'+i%26))
		out = append(out, c.Unit([]llm.Message{
			{Role: chat.RoleAssistant, ToolCalls: []chat.ToolCall{{ID: id, Name: "read_file", Arguments: "{}"}}},
			{Role: chat.RoleTool, ToolCallID: id, Content: strings.Repeat("word ", resultSize)},
		}, int64(i+1)))
	}
	return out
}

func TestFitKeepsPairsAndThePinnedRequest(t *testing.T) {
	t.Parallel()
	c := NewCounter("gpt-4o")
	us := append([]Unit{c.Unit([]llm.Message{{Role: chat.RoleUser, Content: "the task"}}, 0)}, units(c, 30, 2000)...)
	us[0].Pinned = true
	f, ok := c.Fit(us, 3000)
	require.True(t, ok)
	assert.LessOrEqual(t, f.Tokens, 3000)
	assert.Positive(t, f.Dropped)
	assert.Equal(t, "the task", f.Messages[0].Content, "the pinned request stays")
	for i, m := range f.Messages {
		if len(m.ToolCalls) > 0 {
			require.Equal(t, chat.RoleTool, f.Messages[i+1].Role, "a call is followed by its result")
			assert.Equal(t, m.ToolCalls[0].ID, f.Messages[i+1].ToolCallID)
		}
	}
	small := units(c, 3, 10)
	f, ok = c.Fit(small, 3000)
	require.True(t, ok)
	assert.Zero(t, f.Dropped)
	assert.False(t, f.Excerpted)
}

func TestSplitForSummaryKeepsRecentTurns(t *testing.T) {
	t.Parallel()
	c := NewCounter("gpt-4o")
	us := units(c, 10, 100)
	cut := SplitForSummary(us, 3*us[0].Tokens)
	assert.Equal(t, 7, cut)
	assert.Equal(t, 9, SplitForSummary(us, 1), "the latest unit is always kept")
	assert.Zero(t, SplitForSummary(us[:1], 1))
}

func TestChunksBoundTheSummarisersInput(t *testing.T) {
	t.Parallel()
	c := NewCounter("gpt-4o")
	entries := Render(units(c, 20, 3000))
	entries = append(entries, strings.Repeat("huge ", 50_000))
	chunks := c.Chunks(entries, 1500)
	require.NotEmpty(t, chunks)
	for _, ch := range chunks {
		assert.LessOrEqual(t, c.Text(ch), 1500)
	}
}

func TestProjectedCountsOlderBigResultsAsExcerpts(t *testing.T) {
	t.Parallel()
	c := NewCounter("gpt-4o")
	us := units(c, 6, 5000)
	full := sum(us)
	p := Projected(us)
	assert.Less(t, p, full*2/3, "older big results count as excerpts")
	assert.GreaterOrEqual(t, p, us[4].Tokens+us[5].Tokens, "the latest units count in full")
	small := units(c, 6, 10)
	assert.Equal(t, sum(small), Projected(small))
}

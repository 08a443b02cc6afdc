package chat

import (
	"encoding/json"
	"math"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestQuoteRepeatsAShortPrefixOnly(t *testing.T) {
	assert.Equal(t, `"abc"`, Quote("abc"))
	huge := strings.Repeat("é", 3<<20) // 6 MB
	q := Quote(huge)
	assert.Less(t, len(q), 80)
	assert.Contains(t, q, "… (6291456 bytes)")
	assert.True(t, strings.HasPrefix(q, `"éé`), "cut on a character boundary: %s", q)
}

func TestSettingsNumbersAreBounded(t *testing.T) {
	ok := DefaultSettings()
	require.NoError(t, CheckSettings(ok))

	cases := map[string]struct {
		change func(*Settings)
		names  string // what the message must name
	}{
		"a price of 1e308":               {func(s *Settings) { s.Prices["gpt-4o"] = Price{InputPerMTok: 1e308} }, `input price of "gpt-4o"`},
		"a NaN price":                    {func(s *Settings) { s.Prices["m"] = Price{OutputPerMTok: math.NaN()} }, `output price of "m"`},
		"an infinite price":              {func(s *Settings) { s.Prices["m"] = Price{InputPerMTok: math.Inf(1)} }, `input price of "m"`},
		"a negative price":               {func(s *Settings) { s.Prices["m"] = Price{InputPerMTok: -1} }, `input price of "m"`},
		"a price above the most":         {func(s *Settings) { s.Prices["m"] = Price{InputPerMTok: MaxPricePerMTok + 1} }, "per million tokens"},
		"NaN minutes":                    {func(s *Settings) { s.Limits.MaxMinutes = math.NaN() }, "time limit"},
		"infinite minutes":               {func(s *Settings) { s.Limits.MaxMinutes = math.Inf(1) }, "time limit"},
		"NaN spend":                      {func(s *Settings) { s.Limits.MaxCostUSD = math.NaN() }, "spend limit"},
		"infinite spend":                 {func(s *Settings) { s.Limits.MaxCostUSD = math.Inf(1) }, "spend limit"},
		"too many steps":                 {func(s *Settings) { s.Limits.MaxSteps = MaxStepsLimit + 1 }, "step limit"},
		"a negative delay":               {func(s *Settings) { s.StepDelayMS = -1 }, "delay between steps"},
		"a huge delay":                   {func(s *Settings) { s.StepDelayMS = MaxStepDelayMS + 1 }, "delay between steps"},
		"a first-byte timeout too short": {func(s *Settings) { s.ModelFirstByteTimeoutSec = 1 }, "model first-byte timeout must be between 5 and 3600 seconds"},
		"an idle timeout too long":       {func(s *Settings) { s.ModelIdleTimeoutSec = 3601 }, "model idle timeout must be between 5 and 3600 seconds"},
		"a huge context length":          {func(s *Settings) { s.ContextLengths = map[string]int{"m": MaxContextLength + 1} }, `context length of "m"`},
		"a negative context":             {func(s *Settings) { s.ContextLengths = map[string]int{"m": -1} }, `context length of "m"`},
		"a zero context":                 {func(s *Settings) { s.ContextLengths = map[string]int{"m": 0} }, `context length of "m"`},
		"a tiny context":                 {func(s *Settings) { s.ContextLengths = map[string]int{"m": 100} }, `context length of "m"`},
		"a price without a model":        {func(s *Settings) { s.Prices[" "] = Price{} }, "needs a model name"},
		"a model with a newline":         {func(s *Settings) { s.Prices["a\nb"] = Price{} }, "control character"},
		"a huge model name":              {func(s *Settings) { s.Prices[strings.Repeat("m", 5<<20)] = Price{} }, "longer than 200"},
		"a provider model with NUL":      {func(s *Settings) { s.Provider.Model = "gpt\x00" }, "control character"},
		"an unknown reasoning effort":    {func(s *Settings) { s.ReasoningEffort = map[string]ReasoningEffort{"m": "extreme"} }, `reasoning effort of "m" must be low, medium or high`},
		"an effort without a model":      {func(s *Settings) { s.ReasoningEffort = map[string]ReasoningEffort{"": EffortLow} }, "needs a model name"},
		"too many prices": {func(s *Settings) {
			for i := 0; i <= MaxModelEntries; i++ {
				s.Prices[strings.Repeat("x", i%50)+string(rune('a'+i%26))+strings.Repeat("y", i/26)] = Price{}
			}
		}, "price table"},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			s := DefaultSettings()
			c.change(&s)
			err := CheckSettings(s)
			require.Error(t, err)
			assert.Equal(t, CodeInvalid, ErrorCode(err))
			assert.Contains(t, ErrorMessage(err), c.names)
			assert.Less(t, len(ErrorMessage(err)), 300, "the message does not repeat the input")
		})
	}
}

func TestACostIsAlwaysFinite(t *testing.T) {
	u := Usage{PromptTokens: 1 << 40, CompletionTokens: 1 << 40}
	for _, p := range []Price{{InputPerMTok: 1e308, OutputPerMTok: 1e308}, {InputPerMTok: math.Inf(1)},
		{InputPerMTok: math.NaN()}, {InputPerMTok: -5}} {
		c := p.Cost(u)
		assert.True(t, Finite(c), "%+v costs %v", p, c)
		assert.GreaterOrEqual(t, c, 0.0)
		assert.LessOrEqual(t, c, float64(CostCeilingUSD))
	}
	assert.InDelta(t, 0.15, Price{InputPerMTok: 0.15}.Cost(Usage{PromptTokens: 1e6}), 1e-12)
}

func TestATaskAlwaysEncodes(t *testing.T) {
	task := Task{ID: "t", CostUSD: math.Inf(1), Limits: Limits{MaxMinutes: math.NaN(), MaxCostUSD: math.Inf(-1)}}
	b, err := json.Marshal(task)
	require.NoError(t, err)
	var back map[string]any
	require.NoError(t, json.Unmarshal(b, &back))
	assert.Equal(t, float64(CostCeilingUSD), back["costUsd"])
	assert.Equal(t, "t", back["id"])
	_, err = json.Marshal(ConversationView{Tasks: []Task{task}, ActiveTask: &task})
	require.NoError(t, err)
}

func TestTitlesLoseControlAndBidiCharacters(t *testing.T) {
	got, err := CleanTitle("  invoice\u202Egpj.exe \t\n next\x00line \u2066x\u2069 ")
	require.NoError(t, err)
	assert.Equal(t, "invoicegpj.exe next line x", got)
	_, err = CleanTitle("\u202E\u202C\x00 ")
	assert.Equal(t, CodeInvalid, ErrorCode(err), "nothing left: empty")
	_, err = CleanTitle(strings.Repeat("a", MaxTitleLen+1))
	assert.Equal(t, CodeInvalid, ErrorCode(err))
	_, err = CleanTitle(strings.Repeat("a", 5<<20))
	assert.Equal(t, CodeInvalid, ErrorCode(err))
	assert.Less(t, len(ErrorMessage(err)), 100)
	got, err = CleanTitle("Ünïcödé — 日本 ✓")
	require.NoError(t, err)
	assert.Equal(t, "Ünïcödé — 日本 ✓", got)
}

func TestKeysThatCannotTravelInAHeaderAreRefused(t *testing.T) {
	require.NoError(t, CheckKey("sk-proj-abc123_XYZ"))
	require.NoError(t, CheckKey(""))
	for _, k := range []string{"sk-abc\r\nX-Evil: 1", "sk-abc\n", "sk\x00abc", "sk\x7fabc", "sk\u0085abc",
		strings.Repeat("k", MaxKeyLen+1), "sk-\xff"} {
		err := CheckKey(k)
		require.Error(t, err, "%q", k)
		assert.Equal(t, CodeInvalid, ErrorCode(err))
		assert.NotContains(t, ErrorMessage(err), "sk-abc", "the message never repeats the key")
	}
}

func TestModelNamesMessagesPathsAndIDs(t *testing.T) {
	require.NoError(t, CheckModelName("openai/gpt-4o-mini"))
	require.NoError(t, CheckModelName(""))
	assert.Error(t, CheckModelName("gpt\u202E"))
	assert.Error(t, CheckModelName(strings.Repeat("m", MaxModelNameLen+1)))

	require.NoError(t, CheckMessage(strings.Repeat("a", MaxMessageBytes)))
	err := CheckMessage(strings.Repeat("a", 5<<20))
	assert.Equal(t, CodeInvalid, ErrorCode(err))
	assert.Equal(t, "the message is 5.0 MB; Errand takes at most 1.0 MB in one message", ErrorMessage(err))

	require.NoError(t, CheckPath("/home/me/projects/errand"))
	assert.Error(t, CheckPath("/tmp/a\x00b"))
	err = CheckPath("/" + strings.Repeat("d", 5<<20))
	assert.Less(t, len(ErrorMessage(err)), 120)

	require.NoError(t, CheckID("task", "3f0c8a4e-2b1d-4c5e-9f6a-7b8c9d0e1f2a"))
	assert.Equal(t, "no task id was given", ErrorMessage(CheckID("task", " ")))
	err = CheckID("conversation", strings.Repeat("x", 5<<20))
	assert.Equal(t, CodeInvalid, ErrorCode(err))
	assert.Less(t, len(ErrorMessage(err)), 100)
	assert.Contains(t, ErrorMessage(err), "is not a conversation id")
	assert.Error(t, CheckID("task", "id\nwith a line break"))
}

func TestCachedPromptTokensCostAnthropicsMultipliers(t *testing.T) {
	p := Price{InputPerMTok: 3, OutputPerMTok: 15}
	// A million prompt tokens: 600k read from the cache, 200k written to
	// it, 200k plain; and 100k out.
	u := Usage{PromptTokens: 1e6, CacheReadTokens: 6e5, CacheWriteTokens: 2e5, CompletionTokens: 1e5}
	want := 0.2*3 + 0.6*3*0.1 + 0.2*3*1.25 + 0.1*15
	assert.InDelta(t, want, p.Cost(u), 1e-9)
	assert.Less(t, p.Cost(u), p.Cost(Usage{PromptTokens: 1e6, CompletionTokens: 1e5}), "caching makes a step cheaper")
	assert.Equal(t, Usage{PromptTokens: 2, CacheReadTokens: 2, CacheWriteTokens: 4}, Usage{PromptTokens: 1, CacheReadTokens: 1, CacheWriteTokens: 2}.Add(Usage{PromptTokens: 1, CacheReadTokens: 1, CacheWriteTokens: 2}))
}

// Each refusal names the field it is about, as the input's JSON does, so
// that the window marks that field; and it reads as a sentence.
func TestValidatorErrorsCarryTheirField(t *testing.T) {
	settings := map[string]func(*Settings){
		"maxSteps":                 func(s *Settings) { s.Limits.MaxSteps = 0 },
		"maxCostUsd":               func(s *Settings) { s.Limits.MaxCostUSD = math.NaN() },
		"stepDelayMs":              func(s *Settings) { s.StepDelayMS = -1 },
		"modelIdleTimeoutSec":      func(s *Settings) { s.ModelIdleTimeoutSec = 1 },
		"modelFirstByteTimeoutSec": func(s *Settings) { s.ModelFirstByteTimeoutSec = 1 },
		"checkpointExclude":        func(s *Settings) { s.CheckpointExclude = []string{"a/b"} },
		"systemPrompt":             func(s *Settings) { s.SystemPrompt = strings.Repeat("x", MaxSystemPromptLen+1) },
		"prices":                   func(s *Settings) { s.Prices = map[string]Price{"a\nb": {}} },
		"contextLengths":           func(s *Settings) { s.ContextLengths = map[string]int{"m": 1} },
		"model":                    func(s *Settings) { s.Provider.Model = "gpt\x00" },
	}
	for field, change := range settings {
		t.Run(field, func(t *testing.T) {
			s := DefaultSettings()
			change(&s)
			err := CheckSettings(s)
			require.Error(t, err)
			assert.Equal(t, field, ErrorField(err))
			msg := ErrorMessage(err)
			assert.Equal(t, strings.ToUpper(msg[:1]), msg[:1], "a sentence: %s", msg)
			assert.True(t, strings.HasSuffix(msg, "."), "a sentence: %s", msg)
		})
	}

	_, err := CleanMCPServer(MCPServer{Name: "bad name", Transport: MCPStdio, Command: "x"})
	assert.Equal(t, "name", ErrorField(err))
	err = CheckAgent(AgentDefinition{ID: "a", Name: "A", Mode: ChatReactive, Color: "red"}, func(string) bool { return true })
	assert.Equal(t, "color", ErrorField(err))
	_, err = CleanFact(Fact{Key: "k", Value: "", Scope: ScopeGlobal})
	assert.Equal(t, "value", ErrorField(err))
	assert.Equal(t, "apiKey", ErrorField(CheckKey("a\nb")))
	assert.Empty(t, ErrorField(Errorf(CodeInvalid, "no field")), "an error about no one field names none")
}

func TestSentenceMakesOtherProgramsWordsASentence(t *testing.T) {
	assert.Equal(t, "The server refused the key (HTTP 401).", Sentence(" the server refused the key (HTTP 401) "))
	assert.Equal(t, "http://localhost:11434/v1 answered HTTP 404 to /models.", Sentence("http://localhost:11434/v1 answered HTTP 404 to /models"))
	assert.Equal(t, "Done!", Sentence("Done!"))
	assert.Empty(t, Sentence("  "))
}

package app

import (
	"encoding/json"
	"math"
	"strings"
	"testing"

	"github.com/errand-app/errand/backend/chat"
	"github.com/errand-app/errand/backend/providers"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestSettingsRefuseNumbersOutOfRange(t *testing.T) {
	t.Parallel()
	a := newApp(t)
	s, err := a.Settings.GetSettings()
	require.NoError(t, err)
	for name, change := range map[string]func(*chat.Settings){
		"input price of \"gpt-4o\"": func(s *chat.Settings) { s.Prices["gpt-4o"] = chat.Price{InputPerMTok: 1e308} },
		"time limit":                func(s *chat.Settings) { s.Limits.MaxMinutes = math.NaN() },
		"spend limit":               func(s *chat.Settings) { s.Limits.MaxCostUSD = math.Inf(1) },
		"context length of \"m\"":   func(s *chat.Settings) { s.ContextLengths = map[string]int{"m": 1 << 40} },
		"unknown risk level":        func(s *chat.Settings) { s.AutoApprove = map[string]bool{strings.Repeat("r", 1<<20): true} },
	} {
		bad := s
		bad.Prices = map[string]chat.Price{}
		for k, v := range s.Prices {
			bad.Prices[k] = v
		}
		change(&bad)
		_, err := a.Settings.SaveSettings(bad)
		assert.Equal(t, chat.CodeInvalid, code(err), name)
		assert.Contains(t, frontendError(err).Message, name)
		assert.Less(t, len(frontendError(err).Message), 300)
	}
	again, err := a.Settings.GetSettings()
	require.NoError(t, err)
	assert.Equal(t, s, again, "nothing was saved")
	_, err = json.Marshal(again)
	require.NoError(t, err)
}

func TestAKeyWithALineBreakIsRefused(t *testing.T) {
	t.Parallel()
	a := newApp(t)
	in := ProviderInput{Preset: providers.OpenAI, Model: "gpt-4o-mini", APIKey: "sk-abc\r\nX-Evil: 1"}
	_, err := a.Providers.SaveProvider(in)
	assert.Equal(t, chat.CodeInvalid, code(err))
	assert.NotContains(t, frontendError(err).Message, "sk-abc")
	view, err := a.Providers.GetProvider()
	require.NoError(t, err)
	assert.False(t, view.HasKey, "nothing was stored")
	assert.Empty(t, view.KeysFor)
	v, err := a.Providers.TestConnection(in)
	require.NoError(t, err)
	assert.Equal(t, providers.VerdictInvalid, v.Kind)

	in.APIKey = "sk-abc\n" // a trailing line break from a paste is trimmed
	_, err = a.Providers.SaveProvider(in)
	require.NoError(t, err)

	_, err = a.Providers.SaveProvider(ProviderInput{Preset: providers.Ollama, Model: "llama\x00"})
	assert.Equal(t, chat.CodeInvalid, code(err))
}

func TestTitlesModelsAndPathsAreCleanedOrRefused(t *testing.T) {
	t.Parallel()
	a := newApp(t)
	c, err := a.Conversations.CreateConversation()
	require.NoError(t, err)
	got, err := a.Conversations.RenameConversation(c.ID, "Report\u202Efdp.exe\u2066")
	require.NoError(t, err)
	assert.Equal(t, "Reportfdp.exe", got.Title)
	_, err = a.Conversations.RenameConversation(c.ID, "\u202E")
	assert.Equal(t, chat.CodeInvalid, code(err))

	_, err = a.Conversations.SetModel(c.ID, "gpt\r\n4")
	assert.Equal(t, chat.CodeInvalid, code(err))
	_, err = a.Conversations.SetModel(c.ID, strings.Repeat("m", 5<<20))
	assert.Equal(t, chat.CodeInvalid, code(err))
	assert.Less(t, len(frontendError(err).Message), 200)

	_, err = a.Conversations.SetWorkspace(c.ID, "/"+strings.Repeat("d", 5<<20))
	assert.Equal(t, chat.CodeInvalid, code(err))
	assert.Less(t, len(frontendError(err).Message), 200)
	_, err = a.Conversations.SetWorkspace(c.ID, "/tmp/a\x00b")
	assert.Equal(t, chat.CodeInvalid, code(err))
}

func TestAHugeIDGetsAShortError(t *testing.T) {
	t.Parallel()
	a := newApp(t)
	huge := strings.Repeat("i", 5<<20)
	check := func(err error) {
		t.Helper()
		assert.Equal(t, chat.CodeInvalid, code(err))
		assert.Less(t, len(frontendError(err).Message), 120, "the error quotes a short prefix")
	}
	_, err := a.Conversations.LoadConversation(huge)
	check(err)
	_, err = a.Runner.StopTask(huge)
	check(err)
	_, err = a.Runner.StartTask(huge, "hello")
	check(err)
	check(a.Runner.UserResponse(huge, "yes"))
	_, err = a.Conversations.RenameConversation(huge, "title")
	check(err)

	c, err := a.Conversations.CreateConversation()
	require.NoError(t, err)
	_, err = a.Runner.StartTask(c.ID, strings.Repeat("a", 2<<20))
	assert.Equal(t, chat.CodeInvalid, code(err))
	assert.Contains(t, frontendError(err).Message, "at most 1.0 MB")
}

package app

import (
	"testing"

	"github.com/errand-app/errand/backend/chat"
	"github.com/errand-app/errand/backend/modelserver/anthropictest"
	"github.com/errand-app/errand/backend/providers"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const claudeKey = "sk-ant-api03-test-4b1d"

func TestTheAnthropicPresetTalksToClaudeNatively(t *testing.T) {
	t.Parallel()
	srv := anthropictest.New(func(*anthropictest.Request) anthropictest.Reply {
		return anthropictest.Reply{Text: "Hello from Claude."}
	})
	srv.APIKey = claudeKey
	srv.Models = []string{"claude-haiku-4-5", "claude-sonnet-4-6"}
	url := srv.Start(t)

	a := newAppWith(t, Config{DataDir: t.TempDir(), Keyring: &fakeKeyring{}})
	in := ProviderInput{Preset: providers.Anthropic, BaseURL: url, Model: "claude-sonnet-4-6", APIKey: claudeKey}
	v, err := a.Providers.TestConnection(in)
	require.NoError(t, err)
	assert.True(t, v.OK, v.Message)
	assert.Equal(t, 2, v.ModelCount)
	bad := in
	bad.APIKey = "sk-ant-wrong-000000"
	v, _ = a.Providers.TestConnection(bad)
	assert.Equal(t, providers.VerdictWrongKey, v.Kind)

	_, err = a.Providers.SaveProvider(in)
	require.NoError(t, err)
	models, err := a.Providers.CurrentModels()
	require.NoError(t, err)
	assert.Equal(t, []string{"claude-haiku-4-5", "claude-sonnet-4-6"}, models)

	c, err := a.Conversations.CreateConversation()
	require.NoError(t, err)
	task, err := a.Runner.SendChat(c.ID, "hello")
	require.NoError(t, err)
	waitFor(t, func() bool {
		got, err := a.Runner.GetTask(task.ID)
		return err == nil && got.Status == chat.StatusCompleted
	})
	got, err := a.Runner.GetTask(task.ID)
	require.NoError(t, err)
	assert.Positive(t, got.Usage.CacheWriteTokens, "the prompt was cached, and the task says so")
	assert.Positive(t, got.CostUSD, "Claude's default price applies")
	assert.Equal(t, 200000, got.ContextLimit, "the context length the models API reports")
	assert.Equal(t, []string{"401 authentication_error: invalid x-api-key"}, srv.Rejections(), "only the wrong key was refused")
	require.NotEmpty(t, srv.Requests())
	assert.Equal(t, "hello", srv.Requests()[0].LastUserText())
}

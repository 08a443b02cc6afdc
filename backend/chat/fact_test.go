package chat

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestSecretLike(t *testing.T) {
	secret := map[string][2]string{
		"an OpenAI key":        {"openai", "sk-proj-abcdefghijklmnop1234567890"},
		"an Anthropic key":     {"claude", "use sk-ant-api03-abcdefghijklmnopqrstuvwxyz for it"},
		"a GitHub token":       {"gh", "ghp_abcdefghijklmnopqrstuvwxyz0123456789"},
		"a GitHub PAT":         {"gh", "github_pat_11ABCDEFG0123456789_abcdefghijklmnop"},
		"an AWS key id":        {"aws", "AKIAIOSFODNN7EXAMPLE"},
		"a Slack bot token":    {"slack", "xoxb-1234567890-abcdefghij"},
		"a Slack user token":   {"slack", "xoxp-1234567890-abcdefghij"},
		"a JWT":                {"session", "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U"},
		"a private key":        {"deploy", "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXk=\n-----END OPENSSH PRIVATE KEY-----"},
		"a hex token":          {"hash", "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"},
		"a base64 token":       {"blob", "dGhpcyBpcyBhIHNlY3JldCB2YWx1ZTEyMzQ1Njc4OTA="},
		"a key named password": {"password", "hunter2"},
		"a key named passwd":   {"db passwd", "x"},
		"a key named token":    {"github_token", "anything"},
		"a key named api_key":  {"api_key", "whatever"},
		"a key named apikey":   {"ServiceApiKey", "whatever"},
		"a key named API key":  {"OpenAI API key", "whatever"},
		"a key named secret":   {"client secret", "abc"},
		"a key that is a key":  {"sk-proj-abcdefghijklmnop1234567890", "mine"},
	}
	for name, c := range secret {
		assert.NotEmpty(t, SecretLike(c[0], c[1]), name)
	}
	plain := map[string][2]string{
		"a name":             {"name", "Ada Lovelace"},
		"a preference":       {"style", "answer in British English, short sentences"},
		"a path":             {"project", "/home/ada/src/errand/backend/chat/validate.go"},
		"a long word":        {"word", "pneumonoultramicroscopicsilicovolcanoconiosis"},
		"a URL":              {"docs", "https://example.com/docs/getting-started/installation-guide"},
		"a number":           {"phone", "+44 20 7946 0958"},
		"a date":             {"deadline", "2026-12-01"},
		"a short sk- word":   {"note", "sk-1 is the ski run"},
		"max tokens":         {"max_tokens", "4096"},
		"a uuid-less phrase": {"favourite colour", "blue"},
	}
	for name, c := range plain {
		assert.Empty(t, SecretLike(c[0], c[1]), name)
	}
}

func TestCleanFact(t *testing.T) {
	f, err := CleanFact(Fact{Key: "  name ", Value: " Ada\n", Scope: ScopeGlobal, ConversationID: "ignored"})
	require.NoError(t, err)
	assert.Equal(t, Fact{Key: "name", Value: "Ada", Scope: ScopeGlobal}, f)

	f, err = CleanFact(Fact{Key: "k", Value: "v", ConversationID: "c1"})
	require.NoError(t, err)
	assert.Equal(t, ScopeConversation, f.Scope, "no scope is the conversation's")

	bad := map[string]struct {
		f    Fact
		says string
	}{
		"an empty key":           {Fact{Key: "  ", Value: "v", Scope: ScopeGlobal}, "key is empty"},
		"an empty value":         {Fact{Key: "k", Value: "\t", Scope: ScopeGlobal}, "value is empty"},
		"a key over 4 KB":        {Fact{Key: strings.Repeat("k", MaxFactBytes+1), Value: "v", Scope: ScopeGlobal}, "4096 bytes"},
		"a value over 4 KB":      {Fact{Key: "k", Value: strings.Repeat("v ", MaxFactBytes), Scope: ScopeGlobal}, "4096 bytes"},
		"a key with a newline":   {Fact{Key: "a\nb", Value: "v", Scope: ScopeGlobal}, "control character"},
		"a value with NUL":       {Fact{Key: "k", Value: "a\x00b", Scope: ScopeGlobal}, "control character"},
		"an unknown scope":       {Fact{Key: "k", Value: "v", Scope: "team"}, `the scopes are "conversation" and "global"`},
		"no conversation":        {Fact{Key: "k", Value: "v", Scope: ScopeConversation}, "needs its conversation"},
		"a secret-looking value": {Fact{Key: "k", Value: "sk-abcdefghijklmnopqrstuvwx", Scope: ScopeGlobal}, "looks like a secret"},
		"a secret-looking key":   {Fact{Key: "sk-abcdefghijklmnopqrstuvwx", Value: "v", Scope: ScopeGlobal}, "key looks like a secret"},
	}
	for name, c := range bad {
		_, err := CleanFact(c.f)
		require.Error(t, err, name)
		assert.Equal(t, CodeInvalid, ErrorCode(err), name)
		assert.Contains(t, err.Error(), c.says, name)
		assert.NotContains(t, err.Error(), "abcdefghijklmnop", "%s: a secret is never repeated", name)
	}
}

func TestSecretLikeSeesThroughMasks(t *testing.T) {
	const key = "sk-proj-a8F3kQ9zL2mX7vB4nR6t"
	for _, value := range []string{
		"key:" + key,
		"OPENAI=" + key,
		"“" + key + "”",
		"sk-proj-a8F3kQ9z\u200bL2mX7vB4nR6t",
		"ｓｋ－ｐｒｏｊ－ａ８Ｆ３ｋＱ９ｚＬ２ｍＸ７ｖＢ４ｎＲ６ｔ",
		"the database is postgres://admin:hunter2@db.internal:5432/app",
	} {
		assert.NotEmpty(t, SecretLike("note", value), "%q", value)
	}
	for _, value := range []string{"https://example.com/docs", "time: 10:30", "ratio a=b"} {
		assert.Empty(t, SecretLike("note", value), "%q", value)
	}
}

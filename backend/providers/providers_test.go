package providers

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/errand-app/errand/backend/chat"
	"github.com/errand-app/errand/backend/modelserver/compat"
	"github.com/errand-app/errand/backend/secrets"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/zalando/go-keyring"
)

func modelServer(t *testing.T, key string, models ...string) string {
	srv := compat.NewServer(nil)
	srv.APIKey = key
	srv.AllowNoAuth = key == ""
	srv.Models = models
	url, stop := srv.Start()
	t.Cleanup(stop)
	return url
}

func TestConnectionVerdicts(t *testing.T) {
	ctx := context.Background()
	url := modelServer(t, "good-key", "llama3.1", "qwen2.5")

	v := Test(ctx, nil, Endpoint{BaseURL: url, APIKey: "good-key", Model: "qwen2.5"})
	assert.True(t, v.OK)
	assert.Equal(t, VerdictOK, v.Kind)
	assert.Equal(t, 2, v.ModelCount)
	assert.Equal(t, "Connected: 2 models available", v.Message)

	v = Test(ctx, nil, Endpoint{BaseURL: url, APIKey: "bad-key-123456", Model: "qwen2.5"})
	assert.Equal(t, VerdictWrongKey, v.Kind)
	assert.Equal(t, "The server rejected the API key", v.Message)
	assert.NotContains(t, v.Message, "bad-key-123456")

	v = Test(ctx, nil, Endpoint{BaseURL: url, APIKey: "good-key", Model: "gpt-9"})
	assert.Equal(t, VerdictModelNotFound, v.Kind)
	assert.Contains(t, v.Message, `no model "gpt-9"`)
	assert.Contains(t, v.Message, "llama3.1")

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	closed := "http://" + ln.Addr().String() + "/v1"
	ln.Close()
	v = Test(ctx, nil, Endpoint{BaseURL: closed, Model: "x"})
	assert.Equal(t, VerdictUnreachable, v.Kind)
	assert.Contains(t, v.Message, "Could not reach "+closed)

	html := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.Write([]byte("<html>a router login page</html>"))
	}))
	defer html.Close()
	v = Test(ctx, nil, Endpoint{BaseURL: html.URL, Model: "x"})
	assert.Equal(t, VerdictNotCompatible, v.Kind)
	assert.Contains(t, v.Message, "not like an OpenAI-compatible server")

	notFound := httptest.NewServer(http.NotFoundHandler())
	defer notFound.Close()
	v = Test(ctx, nil, Endpoint{BaseURL: notFound.URL, Model: "x"})
	assert.Equal(t, VerdictNotCompatible, v.Kind)
	assert.Contains(t, v.Message, "ends in /v1")

	v = Test(ctx, nil, Endpoint{BaseURL: "localhost:11434", Model: "x"})
	assert.Equal(t, VerdictInvalid, v.Kind)
}

type memRing map[string]string

func (m memRing) Set(s, u, p string) error { m[s+u] = p; return nil }
func (m memRing) Get(s, u string) (string, error) {
	if v, ok := m[s+u]; ok {
		return v, nil
	}
	return "", keyring.ErrNotFound
}
func (m memRing) Delete(s, u string) error { delete(m, s+u); return nil }

func TestResolveOrder(t *testing.T) {
	ctx := context.Background()
	settings := chat.DefaultSettings()
	sec := secrets.Open(memRing{}, t.TempDir())
	r := &Resolver{Settings: func(context.Context) (chat.Settings, error) { return settings, nil }, Secrets: sec}

	c, err := r.Resolve(ctx, "")
	require.NoError(t, err)
	assert.True(t, c.Demo, "nothing configured: the demo")

	settings.Provider = chat.ProviderConfig{Preset: OpenRouter, Model: "openai/gpt-4o"}
	require.NoError(t, sec.Set(KeyName(OpenRouter), "or-key"))
	c, err = r.Resolve(ctx, "")
	require.NoError(t, err)
	assert.Equal(t, Endpoint{BaseURL: "https://openrouter.ai/api/v1", APIKey: "or-key", Model: "openai/gpt-4o"}, c.Endpoint)
	assert.Equal(t, FromSettings, c.Source)

	c, err = r.Resolve(ctx, "anthropic/claude")
	require.NoError(t, err)
	assert.Equal(t, "anthropic/claude", c.Model, "the conversation's model wins")

	settings.Provider = chat.ProviderConfig{Preset: Custom}
	_, err = r.Resolve(ctx, "")
	assert.Equal(t, chat.CodeInvalid, chat.ErrorCode(err))

	r.Env = Env{BaseURL: "http://127.0.0.1:9/v1", APIKey: "env-key", Model: "env-model"}
	c, err = r.Resolve(ctx, "")
	require.NoError(t, err)
	assert.Equal(t, Endpoint{BaseURL: "http://127.0.0.1:9/v1", APIKey: "env-key", Model: "env-model"}, c.Endpoint)
	assert.Equal(t, FromEnvironment, c.Source)
}

func TestDetectListsOnlyServersThatAnswer(t *testing.T) {
	running := modelServer(t, "", "llama3.1")
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	gone := "http://" + ln.Addr().String() + "/v1"
	ln.Close()
	found := detect(context.Background(), []Preset{
		{ID: Ollama, BaseURL: running, Local: true},
		{ID: LMStudio, BaseURL: gone, Local: true},
	})
	require.Len(t, found, 1)
	assert.Equal(t, Ollama, found[0].ID)
}

func TestLongOrBrokenInputIsQuotedShortOrLeftOut(t *testing.T) {
	err := CheckBaseURL("http://" + strings.Repeat("h", 5<<20))
	require.Error(t, err)
	assert.Less(t, len(err.Error()), 120)
	err = CheckBaseURL(strings.Repeat("x", 2000))
	require.Error(t, err)
	assert.Less(t, len(err.Error()), 150)

	ctx := context.Background()
	url := modelServer(t, "", "llama3.1", "bad\nname", strings.Repeat("m", 300), "a\u202Eb")
	models, err := ListModels(ctx, nil, Endpoint{BaseURL: url})
	require.NoError(t, err)
	assert.Equal(t, []string{"llama3.1"}, models, "names that could not be chosen are left out")
	v := Test(ctx, nil, Endpoint{BaseURL: url, Model: strings.Repeat("q", 1<<20)})
	assert.Equal(t, VerdictModelNotFound, v.Kind)
	assert.Less(t, len(v.Message), 200)
}

func TestAStoredOrEnvironmentKeyWithALineBreakIsAClearError(t *testing.T) {
	ctx := context.Background()
	settings := chat.DefaultSettings()
	settings.Provider = chat.ProviderConfig{Preset: OpenAI, Model: "gpt-4o-mini"}
	ring := memRing{}
	sec := secrets.Open(ring, t.TempDir())
	ring["Errand"+KeyName(OpenAI)] = "sk-abc\r\nX: y" // written by an older version
	r := &Resolver{Settings: func(context.Context) (chat.Settings, error) { return settings, nil }, Secrets: sec}
	_, err := r.Resolve(ctx, "")
	assert.Equal(t, chat.CodeInvalid, chat.ErrorCode(err))
	assert.Contains(t, chat.ErrorMessage(err), "open Settings")
	assert.NotContains(t, chat.ErrorMessage(err), "sk-abc")

	r.Env = Env{BaseURL: "http://127.0.0.1:9/v1", APIKey: "env\nkey"}
	_, err = r.Resolve(ctx, "")
	assert.Equal(t, chat.CodeInvalid, chat.ErrorCode(err))
	assert.Contains(t, chat.ErrorMessage(err), "OPENAI_API_KEY")
}

// A failed listing says what failed in words, and keeps the network error
// itself for errors.Is and errors.As; a key never shows in the words.
func TestAFailedListingKeepsItsCause(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	const key = "sk-listing-secret-0123456789"
	closed := "http://" + ln.Addr().String() + "/v1?key=" + key
	ln.Close()

	_, err = ListModels(context.Background(), nil, Endpoint{BaseURL: closed, APIKey: key})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "Could not reach")
	assert.NotContains(t, err.Error(), key)
	var ue *url.Error
	assert.True(t, errors.As(err, &ue), "the *url.Error stays in the chain")
	var op *net.OpError
	assert.True(t, errors.As(err, &op), "and the *net.OpError under it")
}

// A key is sent only to the address it was saved for: one saved before
// keys were bound goes to its preset's own address only, and one replaced
// behind its binding's back to none.
func TestAKeyIsBoundToItsAddress(t *testing.T) {
	ring := memRing{}
	sec := secrets.Open(ring, t.TempDir())
	require.NoError(t, sec.Set(KeyName(OpenAI), "sk-old-123456")) // saved by an older Errand
	k, err := KeyFor(sec, OpenAI, "https://api.openai.com/v1/")
	require.NoError(t, err)
	assert.Equal(t, "sk-old-123456", k.Key)
	k, err = KeyFor(sec, OpenAI, "https://collector.example/v1")
	require.NoError(t, err)
	assert.Equal(t, StoredKey{Withheld: true, BoundTo: "https://api.openai.com/v1"}, k)

	require.NoError(t, SaveKey(sec, Custom, "http://gpu-box:8000/v1", "sk-box-123456"))
	k, err = KeyFor(sec, Custom, "HTTP://GPU-BOX:8000/v1/")
	require.NoError(t, err)
	assert.Equal(t, "sk-box-123456", k.Key, "the same address, written differently")
	k, err = KeyFor(sec, Custom, "http://gpu-box:8001/v1")
	require.NoError(t, err)
	assert.True(t, k.Withheld)

	require.NoError(t, sec.Set(KeyName(Custom), "sk-swapped-123456"))
	k, err = KeyFor(sec, Custom, "http://gpu-box:8000/v1")
	require.NoError(t, err)
	assert.Equal(t, StoredKey{Withheld: true}, k, "a key that is not the one bound is sent nowhere")

	require.NoError(t, SaveKey(sec, Custom, "http://gpu-box:8000/v1", ""))
	k, err = KeyFor(sec, Custom, "http://gpu-box:8000/v1")
	require.NoError(t, err)
	assert.Equal(t, StoredKey{}, k)
}

package providers

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestContextLengthAsTheServerReportsIt(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/api/v1/models":
			assert.Equal(t, "Bearer k", r.Header.Get("Authorization"))
			_, _ = w.Write([]byte(`{"data":[{"id":"openai/gpt-4o-mini","context_length":128000},{"id":"tiny","context_length":5}]}`))
		case "/api/v0/models/qwen2.5-7b":
			_, _ = w.Write([]byte(`{"id":"qwen2.5-7b","max_context_length":32768,"loaded_context_length":4096}`))
		case "/api/v0/models/unloaded":
			_, _ = w.Write([]byte(`{"id":"unloaded","max_context_length":32768}`))
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	ctx := context.Background()
	or := func(model string) int {
		return ContextLength(ctx, srv.Client(), OpenRouter, Endpoint{BaseURL: srv.URL + "/api/v1", APIKey: "k", Model: model})
	}
	lm := func(model string) int {
		return ContextLength(ctx, srv.Client(), LMStudio, Endpoint{BaseURL: srv.URL + "/v1", Model: model})
	}
	assert.Equal(t, 128000, or("openai/gpt-4o-mini"))
	assert.Zero(t, or("tiny"), "a length out of range is not believed")
	assert.Zero(t, or("unknown"))
	assert.Equal(t, 4096, lm("qwen2.5-7b"), "the loaded length wins")
	assert.Equal(t, 32768, lm("unloaded"))
	assert.Zero(t, lm("missing"))
	assert.Zero(t, ContextLength(ctx, srv.Client(), Ollama, Endpoint{BaseURL: srv.URL + "/v1", Model: "llama3.1"}))
	assert.Zero(t, ContextLength(ctx, srv.Client(), OpenRouter, Endpoint{BaseURL: "http://127.0.0.1:1/api/v1", Model: "m"}))
}

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
	assert.Zero(t, ContextLength(ctx, srv.Client(), OpenRouter, Endpoint{BaseURL: "http://127.0.0.1:1/api/v1", Model: "m"}))
}

// Ollama runs a model with a context of its own choosing, not the model's
// maximum, and cuts a longer prompt silently: Errand plans for the context
// a loaded model runs with, else for the least of Ollama's defaults.
func TestOllamasContextIsTheOneTheModelRunsWith(t *testing.T) {
	shown := false
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/api/ps":
			_, _ = w.Write([]byte(`{"models":[{"name":"llama3.1:latest","model":"llama3.1:latest","size_vram":5000000000,"context_length":16384},` +
				`{"name":"qwen3:8b","model":"qwen3:8b","context_length":8192}]}`))
		case "/api/show":
			shown = true
			_, _ = w.Write([]byte(`{"model_info":{"llama.context_length":131072}}`))
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	ctx := context.Background()
	ollama := func(base, model string) int {
		return ContextLength(ctx, srv.Client(), Ollama, Endpoint{BaseURL: base, Model: model})
	}
	assert.Equal(t, 16384, ollama(srv.URL+"/v1", "llama3.1"), "the loaded model's context, its tag implied")
	assert.Equal(t, 8192, ollama(srv.URL+"/v1", "qwen3:8b"))
	assert.Equal(t, OllamaDefaultContext, ollama(srv.URL+"/v1", "gemma3"), "not loaded: Ollama's default, never the maximum")
	assert.Equal(t, OllamaDefaultContext, ollama("http://127.0.0.1:1/v1", "llama3.1"), "not reachable: the default")
	assert.False(t, shown, "/api/show's maximum is never asked")
}

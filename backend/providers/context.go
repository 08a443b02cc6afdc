package providers

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/errand-app/errand/backend/chat"
)

// OllamaDefaultContext is the context Errand assumes an Ollama model runs
// with when Ollama does not say: the least of Ollama's documented defaults
// (4k below 24 GiB of GPU memory, 32k up to 48 GiB, 256k above), since
// Errand cannot see the GPU and Ollama cuts a longer prompt silently.
const OllamaDefaultContext = 4096

// ContextLength asks the model server what context length it gives the
// endpoint's model, where the preset's server says so: OpenRouter lists a
// context_length with each model, Anthropic a max_input_tokens, LM Studio
// tells the length a loaded model runs with (else its maximum), Ollama the
// length a loaded model runs with (/api/ps). It returns 0 when the server
// does not say, cannot be reached in time, or answers something out of
// range — except Ollama, whose answer is then OllamaDefaultContext:
// /api/show tells the model's maximum, not the smaller context Ollama runs
// it with, and Ollama cuts a longer prompt silently instead of refusing it.
func ContextLength(ctx context.Context, client *http.Client, preset string, ep Endpoint) int {
	if client == nil {
		client = &http.Client{Timeout: 5 * time.Second}
	}
	base := strings.TrimRight(strings.TrimSpace(ep.BaseURL), "/")
	var n int
	switch preset {
	case OpenRouter:
		var list struct {
			Data []struct {
				ID            string `json:"id"`
				ContextLength int    `json:"context_length"`
			} `json:"data"`
		}
		if getJSON(ctx, client, base+"/models", ep.APIKey, &list) {
			for _, m := range list.Data {
				if m.ID == ep.Model {
					n = m.ContextLength
				}
			}
		}
	case Anthropic:
		// The model's own entry tells its max_input_tokens.
		var m struct {
			MaxInput int `json:"max_input_tokens"`
		}
		root := strings.TrimSuffix(base, "/v1")
		ep.Anthropic = true
		if req, err := endpointGet(ctx, ep, root+"/v1/models/"+url.PathEscape(ep.Model)); err == nil && doJSON(client, req, &m) {
			n = m.MaxInput
		}
	case LMStudio:
		root := strings.TrimSuffix(base, "/v1")
		var m struct {
			Loaded int `json:"loaded_context_length"`
			Max    int `json:"max_context_length"`
		}
		if getJSON(ctx, client, root+"/api/v0/models/"+url.PathEscape(ep.Model), ep.APIKey, &m) {
			n = m.Loaded
			if n <= 0 {
				n = m.Max
			}
		}
	case Ollama:
		n = ollamaLoaded(ctx, client, strings.TrimSuffix(base, "/v1"), ep)
		if n < chat.MinContextLength || n > chat.MaxContextLength {
			n = OllamaDefaultContext
		}
	}
	if n < chat.MinContextLength || n > chat.MaxContextLength {
		return 0
	}
	return n
}

// ollamaLoaded is the context length Ollama runs the endpoint's model
// with while it is loaded (/api/ps), or 0 when it is not loaded.
func ollamaLoaded(ctx context.Context, client *http.Client, root string, ep Endpoint) int {
	var ps struct {
		Models []struct {
			Name          string `json:"name"`
			Model         string `json:"model"`
			ContextLength int    `json:"context_length"`
		} `json:"models"`
	}
	if !getJSON(ctx, client, root+"/api/ps", ep.APIKey, &ps) {
		return 0
	}
	want := ollamaName(ep.Model)
	for _, m := range ps.Models {
		if ollamaName(m.Name) == want || ollamaName(m.Model) == want {
			return m.ContextLength
		}
	}
	return 0
}

// ollamaName is a model's name with its tag: "llama3.1" is
// "llama3.1:latest" to Ollama.
func ollamaName(name string) string {
	name = strings.TrimSpace(name)
	if name != "" && !strings.Contains(name[strings.LastIndexByte(name, '/')+1:], ":") {
		name += ":latest"
	}
	return name
}

// getJSON reads a JSON answer of at most 8 MB into v; false on any failure.
func getJSON(ctx context.Context, client *http.Client, address, key string, v any) bool {
	req, err := newGet(ctx, address, key)
	if err != nil {
		return false
	}
	return doJSON(client, req, v)
}

// doJSON sends req and reads its JSON answer of at most 8 MB into v; false
// on any failure.
func doJSON(client *http.Client, req *http.Request, v any) bool {
	resp, err := client.Do(req)
	if err != nil {
		return false
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return false
	}
	return json.NewDecoder(io.LimitReader(resp.Body, 8<<20)).Decode(v) == nil
}

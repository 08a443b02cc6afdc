// Package providers connects Errand to a model: the presets people use
// (OpenAI, Anthropic, Ollama, LM Studio, OpenRouter, any OpenAI-compatible
// server),
// the choice of endpoint for a conversation (environment over settings over
// the offline demo), the model list, and a connection test whose verdict a
// person can act on.
package providers

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"sort"
	"strings"
	"time"

	"github.com/errand-app/errand/backend/chat"
)

// Preset is a kind of model server.
type Preset struct {
	ID       string `json:"id"`
	Name     string `json:"name"`
	BaseURL  string `json:"baseUrl"`
	NeedsKey bool   `json:"needsKey"`
	// Local servers run on this machine and are detected on their port.
	Local bool `json:"local"`
	// Model is a sensible first choice of model.
	Model string `json:"model,omitempty"`
}

// Preset ids.
const (
	Demo       = "demo"
	OpenAI     = "openai"
	Anthropic  = "anthropic"
	Ollama     = "ollama"
	LMStudio   = "lmstudio"
	OpenRouter = "openrouter"
	Custom     = "custom"
)

// Presets lists the kinds of server in the order the settings show them.
var Presets = []Preset{
	{ID: OpenAI, Name: "OpenAI", BaseURL: "https://api.openai.com/v1", NeedsKey: true, Model: "gpt-4o-mini"},
	{ID: Anthropic, Name: "Anthropic", BaseURL: "https://api.anthropic.com", NeedsKey: true, Model: "claude-sonnet-4-6"},
	{ID: Ollama, Name: "Ollama", BaseURL: "http://localhost:11434/v1", Local: true},
	{ID: LMStudio, Name: "LM Studio", BaseURL: "http://localhost:1234/v1", Local: true},
	{ID: OpenRouter, Name: "OpenRouter", BaseURL: "https://openrouter.ai/api/v1", NeedsKey: true, Model: "openai/gpt-4o-mini"},
	{ID: Custom, Name: "Custom (OpenAI-compatible)"},
	{ID: Demo, Name: "Offline demo model"},
}

// Find returns the preset with the id.
func Find(id string) (Preset, bool) {
	for _, p := range Presets {
		if p.ID == id {
			return p, true
		}
	}
	return Preset{}, false
}

// Endpoint is one model on one server, with its key.
type Endpoint struct {
	BaseURL string
	APIKey  string
	Model   string
	// Anthropic: the server speaks Anthropic's Messages API (its model list
	// is /v1/models under the base URL, asked with its headers), not the
	// OpenAI-compatible one.
	Anthropic bool
}

// AnthropicVersion is the anthropic-version header the model list is asked
// with.
const AnthropicVersion = "2023-06-01"

// modelsURL is where the endpoint's server lists its models.
func (ep Endpoint) modelsURL() string {
	base := strings.TrimRight(strings.TrimSpace(ep.BaseURL), "/")
	if ep.Anthropic {
		// The default page holds 20; ask for every model at once.
		return strings.TrimSuffix(base, "/v1") + "/v1/models?limit=1000"
	}
	return base + "/models"
}

// Verdict kinds.
const (
	VerdictOK            = "ok"
	VerdictWrongKey      = "wrong_key"
	VerdictUnreachable   = "unreachable"
	VerdictModelNotFound = "model_not_found"
	VerdictNotCompatible = "not_compatible"
	VerdictInvalid       = "invalid"
)

// Verdict is the outcome of a connection test.
type Verdict struct {
	OK         bool     `json:"ok"`
	Kind       string   `json:"kind"`
	Message    string   `json:"message"`
	ModelCount int      `json:"modelCount"`
	Models     []string `json:"models,omitempty"`
}

// CheckBaseURL says what is wrong with a base URL, if anything.
func CheckBaseURL(raw string) error {
	if len(raw) > chat.MaxURLLen {
		return fmt.Errorf("The server address is longer than %d characters.", chat.MaxURLLen)
	}
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fmt.Errorf("%s is not an http(s) address such as http://localhost:11434/v1.", chat.Quote(raw))
	}
	return nil
}

// Test asks the server for its models, and tells what it found.
func Test(ctx context.Context, client *http.Client, ep Endpoint) Verdict {
	if err := CheckBaseURL(ep.BaseURL); err != nil {
		return Verdict{Kind: VerdictInvalid, Message: err.Error()}
	}
	models, err := listModels(ctx, client, ep)
	var ve *verdictError
	if errors.As(err, &ve) {
		return Verdict{Kind: ve.kind, Message: redact(ve.msg, ep.APIKey)}
	}
	if err != nil {
		return Verdict{Kind: VerdictNotCompatible, Message: redact(err.Error(), ep.APIKey)}
	}
	v := Verdict{OK: true, Kind: VerdictOK, ModelCount: len(models), Models: models}
	if ep.Model != "" && !contains(models, ep.Model) {
		return Verdict{Kind: VerdictModelNotFound, ModelCount: len(models), Models: models,
			Message: fmt.Sprintf("Connected, but the server has no model %s (it has %d: %s)", chat.Quote(ep.Model), len(models), preview(models))}
	}
	v.Message = fmt.Sprintf("Connected: %d model%s available", len(models), plural(len(models)))
	return v
}

// ListModels returns the server's model ids, sorted.
func ListModels(ctx context.Context, client *http.Client, ep Endpoint) ([]string, error) {
	models, err := listModels(ctx, client, ep)
	if err != nil {
		return nil, &redactedError{msg: redact(err.Error(), ep.APIKey), err: err}
	}
	return models, nil
}

// verdictError is a failed listing told as a verdict; cause, when there
// is one, is what failed underneath.
type verdictError struct {
	kind, msg string
	cause     error
}

func (e *verdictError) Error() string { return e.msg }

// KeyRefused reports whether err is a server's refusal of the key sent
// (or of none sent): HTTP 401 or 403.
func KeyRefused(err error) bool {
	var v *verdictError
	return errors.As(err, &v) && v.kind == VerdictWrongKey
}
func (e *verdictError) Unwrap() error { return e.cause }

// redactedError says what err says without the key, and keeps err in its
// chain for errors.Is and errors.As.
type redactedError struct {
	msg string
	err error
}

func (e *redactedError) Error() string { return e.msg }
func (e *redactedError) Unwrap() error { return e.err }

// newGet is a GET of address on a model server, with the key (if any) as
// a bearer token.
func newGet(ctx context.Context, address, key string) (*http.Request, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, address, nil)
	if err != nil {
		return nil, err
	}
	if key != "" {
		req.Header.Set("Authorization", "Bearer "+key)
	}
	return req, nil
}

// endpointGet is a GET of address on the endpoint's server, with the
// headers its API wants: Anthropic's x-api-key and anthropic-version, else
// a bearer token.
func endpointGet(ctx context.Context, ep Endpoint, address string) (*http.Request, error) {
	if !ep.Anthropic {
		return newGet(ctx, address, ep.APIKey)
	}
	req, err := newGet(ctx, address, "")
	if err != nil {
		return nil, err
	}
	req.Header.Set("X-Api-Key", ep.APIKey)
	req.Header.Set("Anthropic-Version", AnthropicVersion)
	return req, nil
}

func listModels(ctx context.Context, client *http.Client, ep Endpoint) ([]string, error) {
	if client == nil {
		client = &http.Client{Timeout: 10 * time.Second}
	}
	base := strings.TrimRight(strings.TrimSpace(ep.BaseURL), "/")
	req, err := endpointGet(ctx, ep, ep.modelsURL())
	if err != nil {
		return nil, &verdictError{VerdictInvalid, err.Error(), err}
	}
	resp, err := client.Do(req)
	if err != nil {
		// A network failure (refused, no such host, a timeout) is told by
		// what failed underneath; the *url.Error around it only repeats
		// the address.
		var ne net.Error
		if errors.As(err, &ne) {
			return nil, &verdictError{VerdictUnreachable, fmt.Sprintf("Could not reach %s: %v", base, rootCause(err)), err}
		}
		return nil, &verdictError{VerdictUnreachable, fmt.Sprintf("Could not reach %s: %v", base, err), err}
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 4<<20))
	switch {
	case resp.StatusCode == http.StatusUnauthorized || resp.StatusCode == http.StatusForbidden:
		msg := "The server rejected the API key"
		if ep.APIKey == "" {
			msg = "The server needs an API key"
		}
		return nil, &verdictError{VerdictWrongKey, msg, nil}
	case resp.StatusCode == http.StatusNotFound && ep.Anthropic:
		return nil, &verdictError{VerdictNotCompatible,
			fmt.Sprintf("%s has no Anthropic /v1/models endpoint (HTTP 404); the address is usually https://api.anthropic.com", base), nil}
	case resp.StatusCode == http.StatusNotFound:
		return nil, &verdictError{VerdictNotCompatible,
			fmt.Sprintf("%s has no OpenAI-compatible /models endpoint (HTTP 404); the address usually ends in /v1", base), nil}
	case resp.StatusCode >= 300:
		return nil, &verdictError{VerdictNotCompatible, fmt.Sprintf("%s answered HTTP %d to /models", base, resp.StatusCode), nil}
	}
	var list struct {
		Data []struct {
			ID string `json:"id"`
		} `json:"data"`
	}
	if err := json.Unmarshal(body, &list); err != nil || list.Data == nil {
		return nil, &verdictError{VerdictNotCompatible,
			fmt.Sprintf("%s answered, but not like an OpenAI-compatible server (no model list in its reply)", base), err}
	}
	models := make([]string, 0, len(list.Data))
	for _, m := range list.Data {
		// A name that could not be chosen (empty, huge, with control
		// characters) is left out rather than shown.
		if m.ID != "" && chat.CheckModelName(m.ID) == nil {
			models = append(models, m.ID)
		}
	}
	sort.Strings(models)
	return models, nil
}

// Detect returns the local presets whose server answers on its usual port.
func Detect(ctx context.Context) []Preset {
	var local []Preset
	for _, p := range Presets {
		if p.Local {
			local = append(local, p)
		}
	}
	return detect(ctx, local)
}

func detect(ctx context.Context, local []Preset) []Preset {
	ctx, cancel := context.WithTimeout(ctx, 800*time.Millisecond)
	defer cancel()
	type found struct {
		p  Preset
		ok bool
	}
	results := make(chan found, len(local))
	client := &http.Client{Timeout: 700 * time.Millisecond}
	for _, p := range local {
		go func(p Preset) {
			_, err := listModels(ctx, client, Endpoint{BaseURL: p.BaseURL})
			results <- found{p, err == nil}
		}(p)
	}
	var out []Preset
	for range local {
		if f := <-results; f.ok {
			out = append(out, f.p)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

// redact removes a key from a message.
func redact(msg, key string) string {
	if len(key) >= 4 {
		msg = strings.ReplaceAll(msg, key, "[key]")
	}
	return msg
}

func rootCause(err error) error {
	for {
		next := errors.Unwrap(err)
		if next == nil {
			return err
		}
		err = next
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func preview(models []string) string {
	if len(models) > 5 {
		return strings.Join(models[:5], ", ") + ", …"
	}
	return strings.Join(models, ", ")
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

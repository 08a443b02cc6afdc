package app

import (
	"context"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/errand-app/errand/backend/agent"
	"github.com/errand-app/errand/backend/chat"
	"github.com/errand-app/errand/backend/llm"
	"github.com/errand-app/errand/backend/llm/anthropic"
	"github.com/errand-app/errand/backend/llm/openai"
	"github.com/errand-app/errand/backend/llm/stall"
	"github.com/errand-app/errand/backend/logfile"
	"github.com/errand-app/errand/backend/modelserver/demo"
	"github.com/errand-app/errand/backend/providers"
	"github.com/errand-app/errand/backend/secrets"
)

// ModelInfo tells the frontend which model answers.
type ModelInfo struct {
	Model   string `json:"model"`
	BaseURL string `json:"baseUrl"`
	// Demo is true for the built-in offline demo model.
	Demo bool `json:"demo"`
	// Source is "environment", "settings" or "demo".
	Source string `json:"source"`
	Preset string `json:"preset"`
}

// models turns the resolver's choice into an llm.Provider.
type models struct {
	store    chat.Store
	resolver *providers.Resolver
	demoURL  string

	mu       sync.Mutex
	contexts map[string]int             // reported context lengths by preset, server and model
	client   *http.Client               // for every model call: cuts a silent server
	learned  map[string]*openai.Learned // what the adapter learned, by server and model
}

// httpClient is the client of every model call, whatever the adapter: it
// cuts a call whose server falls silent, with the timeouts the settings
// hold when the call starts.
func (m *models) httpClient() *http.Client {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.client == nil {
		m.client = (&stall.Transport{Timeouts: m.timeouts}).Client()
	}
	return m.client
}

// timeouts are the settings' model timeouts (the defaults if they cannot
// be read).
func (m *models) timeouts(ctx context.Context) stall.Timeouts {
	s, err := m.store.Settings(ctx)
	if err != nil {
		s = chat.DefaultSettings()
	}
	return stall.Timeouts{
		FirstByte: time.Duration(s.ModelFirstByteTimeoutSec) * time.Second,
		Idle:      time.Duration(s.ModelIdleTimeoutSec) * time.Second,
	}
}

// learnedAbout is what the adapter learned about the server and model of
// c, shared by the providers made for them.
func (m *models) learnedAbout(c providers.Choice) *openai.Learned {
	key := c.BaseURL + "\x00" + c.Model
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.learned == nil {
		m.learned = map[string]*openai.Learned{}
	}
	l := m.learned[key]
	if l == nil {
		l = &openai.Learned{}
		m.learned[key] = l
	}
	return l
}

// contextAsk bounds the question to the server about a model's context
// length, asked once per model (while it answers).
const contextAsk = 3 * time.Second

// reportedContext is the context length the chosen server reports for its
// model (see providers.ContextLength), remembered once known.
func (m *models) reportedContext(ctx context.Context, c providers.Choice) int {
	if c.Demo || (c.Preset != providers.OpenRouter && c.Preset != providers.LMStudio && c.Preset != providers.Anthropic && c.Preset != providers.Ollama) {
		return 0
	}
	if c.Preset == providers.Ollama {
		// Asked for each task: the model may be loaded (or reloaded with
		// another context) since the last.
		ctx, cancel := context.WithTimeout(ctx, contextAsk)
		defer cancel()
		return providers.ContextLength(ctx, nil, c.Preset, c.Endpoint)
	}
	key := c.Preset + "\x00" + c.BaseURL + "\x00" + c.Model
	m.mu.Lock()
	n, ok := m.contexts[key]
	m.mu.Unlock()
	if ok {
		return n
	}
	ctx, cancel := context.WithTimeout(ctx, contextAsk)
	defer cancel()
	if n = providers.ContextLength(ctx, nil, c.Preset, c.Endpoint); n > 0 {
		m.mu.Lock()
		if m.contexts == nil {
			m.contexts = map[string]int{}
		}
		m.contexts[key] = n
		m.mu.Unlock()
	}
	return n
}

func (m *models) choose(ctx context.Context, conversationModel string) (providers.Choice, error) {
	c, err := m.resolver.Resolve(ctx, conversationModel)
	if err != nil {
		return c, err
	}
	if c.Demo {
		c.BaseURL, c.Model = m.demoURL, demo.Model
	}
	return c, nil
}

// forConversation is the runner's Providers option.
// The conversation's own model wins over its agent's, which wins over the
// default.
func (m *models) forConversation(ctx context.Context, conversationID, agentModel string) (llm.Provider, error) {
	conv, err := m.store.GetConversation(ctx, conversationID)
	if err != nil {
		return nil, err
	}
	model := conv.Model
	if model == "" {
		model = agentModel
	}
	return m.forModel(ctx, model)
}

// forModel is the provider of a model chosen by name ("" for the
// default): the runner's ModelProvider option.
func (m *models) forModel(ctx context.Context, model string) (llm.Provider, error) {
	c, err := m.choose(ctx, model)
	if err != nil {
		return nil, err
	}
	retries := 3
	if c.Demo {
		retries = -1
	}
	cfg := openai.Config{BaseURL: c.BaseURL, APIKey: c.APIKey, NoAuth: c.KeyWithheld, Model: c.Model, MaxRetries: retries,
		ContextLength: m.reportedContext(ctx, c), HTTPClient: m.httpClient()}
	var p llm.Provider
	if c.Anthropic {
		p = anthropic.New(anthropicConfig(cfg))
	} else {
		cfg.Learned = m.learnedAbout(c)
		p = openai.New(cfg)
	}
	// A key saved for another address is not sent; if the server then
	// refuses, the task says why and what to do. (A key bound to no
	// address, changed outside Errand, leaves the server's own words.)
	if c.KeyWithheld && c.KeyBoundTo != "" {
		preset, _ := providers.Find(c.Preset)
		p = providers.WithheldKey(p, providers.WithheldRefusal(preset.Name, c.BaseURL, c.KeyBoundTo))
	}
	return p, nil
}

// anthropicConfig is the same endpoint, retries, HTTP client and context
// length for Claude's native adapter.
func anthropicConfig(cfg openai.Config) anthropic.Config {
	return anthropic.Config{BaseURL: cfg.BaseURL, APIKey: cfg.APIKey, Model: cfg.Model, MaxRetries: cfg.MaxRetries,
		HTTPClient: cfg.HTTPClient, ContextLength: cfg.ContextLength}
}

func (m *models) info(ctx context.Context, conversationModel string) (ModelInfo, error) {
	c, err := m.choose(ctx, conversationModel)
	if err != nil {
		return ModelInfo{}, err
	}
	info := ModelInfo{Model: c.Model, BaseURL: c.BaseURL, Demo: c.Demo, Source: c.Source, Preset: c.Preset}
	if c.Demo {
		// The demo answers inside Errand, on a new port each start: no
		// screen shows its address, and leaving it out keeps the first
		// screen the same from one start to the next.
		info.BaseURL = ""
	}
	return info, nil
}

// Providers is the bound service for connecting a model server.
type Providers struct {
	runner   *agent.Runner
	store    chat.Store
	secrets  *secrets.Store
	resolver *providers.Resolver
	models   *models
}

// ProviderView is the provider settings as the settings view shows them.
// The key itself never leaves Go: only whether one is stored.
type ProviderView struct {
	chat.ProviderConfig
	HasKey bool `json:"hasKey"`
	// KeysFor lists the presets that have a stored key, so switching
	// presets in the form shows the right one.
	KeysFor    []string `json:"keysFor"`
	KeyStorage string   `json:"keyStorage"` // "keyring" or "file"
	KeyNote    string   `json:"keyNote"`
	// EnvOverride is set when OPENAI_BASE_URL / OPENAI_API_KEY override
	// these settings.
	EnvOverride bool `json:"envOverride"`
}

// ProviderInput is a provider the person configures. APIKey is used only
// when KeepKey is false; an empty APIKey then deletes the stored key.
type ProviderInput struct {
	Preset  string `json:"preset"`
	BaseURL string `json:"baseUrl"`
	Model   string `json:"model"`
	APIKey  string `json:"apiKey"`
	KeepKey bool   `json:"keepKey"`
}

// Presets lists the kinds of server.
func (p *Providers) Presets() []providers.Preset { return providers.Presets }

// Detect lists the local servers (Ollama, LM Studio) running now.
func (p *Providers) Detect() []providers.Preset {
	ctx, cancel := callCtx()
	defer cancel()
	return providers.Detect(ctx)
}

// GetProvider returns the provider settings.
func (p *Providers) GetProvider() (_ ProviderView, err error) {
	defer recovered(&err)
	ctx, cancel := callCtx()
	defer cancel()
	s, err := p.store.Settings(ctx)
	if err != nil {
		return ProviderView{}, err
	}
	v := ProviderView{ProviderConfig: s.Provider, KeyStorage: string(p.secrets.Where()), KeyNote: p.secrets.Note(),
		EnvOverride: p.resolver.Env.Set()}
	// KeysFor lists the presets with a key saved for the address the form
	// shows for them: the settings' for the preset in use, else the preset's
	// own. A key bound elsewhere is not offered as stored.
	v.KeysFor = []string{}
	for _, preset := range providers.Presets {
		if preset.ID == providers.Demo {
			continue
		}
		address := preset.BaseURL
		if preset.ID == s.Provider.Preset && s.Provider.BaseURL != "" {
			address = s.Provider.BaseURL
		}
		stored, err := providers.KeyFor(p.secrets, preset.ID, address)
		if err != nil {
			return v, chat.Wrap(chat.CodeInternal, err, "%s", chat.Sentence(err.Error()))
		}
		if stored.Key != "" {
			v.KeysFor = append(v.KeysFor, preset.ID)
		}
		if preset.ID != s.Provider.Preset {
			continue
		}
		v.HasKey = stored.Key != ""
		if note := providers.WithheldNote(preset.Name, address, stored); note != "" {
			v.KeyNote += " " + note
		}
	}
	return v, nil
}

func (p *Providers) check(in ProviderInput) (providers.Preset, ProviderInput, error) {
	in.Preset = strings.TrimSpace(in.Preset)
	in.BaseURL = strings.TrimSpace(in.BaseURL)
	in.Model = strings.TrimSpace(in.Model)
	in.APIKey = strings.TrimSpace(in.APIKey)
	preset, ok := providers.Find(in.Preset)
	if !ok {
		return preset, in, chat.Invalidf("preset", "Unknown provider %s.", chat.Quote(in.Preset))
	}
	if preset.ID == providers.Demo {
		return preset, ProviderInput{Preset: providers.Demo}, nil
	}
	if err := chat.CheckModelName(in.Model); err != nil {
		return preset, in, chat.OnField("model", err)
	}
	if !in.KeepKey {
		if err := chat.CheckKey(in.APIKey); err != nil {
			return preset, in, err
		}
	}
	if in.BaseURL == "" {
		in.BaseURL = preset.BaseURL
	}
	if err := providers.CheckBaseURL(in.BaseURL); err != nil {
		return preset, in, &chat.Error{Code: chat.CodeInvalid, Message: err.Error(), Cause: err, Field: "baseUrl"}
	}
	return preset, in, nil
}

// requireKey refuses a provider that needs an API key (OpenAI,
// OpenRouter) when none is typed and none is stored: saved, it would fail
// every task; tested, it would only ask the network what is known here.
func (p *Providers) requireKey(preset providers.Preset, in ProviderInput) error {
	if !preset.NeedsKey || (!in.KeepKey && in.APIKey != "") {
		return nil
	}
	if in.KeepKey {
		stored, err := providers.KeyFor(p.secrets, preset.ID, in.BaseURL)
		if err != nil {
			return chat.Wrap(chat.CodeInternal, err, "%s", chat.Sentence(err.Error()))
		}
		if stored.Key != "" {
			return nil
		}
		if note := providers.WithheldNote(preset.Name, in.BaseURL, stored); note != "" {
			return chat.Errorf(chat.CodeInvalid, "%s", note)
		}
	}
	return chat.Invalidf("apiKey", "%s needs an API key: paste yours in the API key field.", preset.Name)
}

// endpoint is the input with the stored key when it keeps it, and the
// stored key was saved for the input's address (no other gets it).
func (p *Providers) endpoint(in ProviderInput) (providers.Endpoint, error) {
	key := in.APIKey
	if in.KeepKey {
		stored, err := providers.KeyFor(p.secrets, in.Preset, in.BaseURL)
		if err != nil {
			return providers.Endpoint{}, chat.Wrap(chat.CodeInternal, err, "%s", chat.Sentence(err.Error()))
		}
		key = stored.Key
	}
	// A key typed for a test, not saved, is scrubbed from the log all the same.
	logfile.Secrets.Add(key)
	return providers.Endpoint{BaseURL: in.BaseURL, APIKey: key, Model: in.Model, Anthropic: in.Preset == providers.Anthropic}, nil
}

// SaveProvider stores the provider: the key in the keyring (or the 0600
// file), everything else in the settings.
func (p *Providers) SaveProvider(in ProviderInput) (_ ProviderView, err error) {
	defer recovered(&err)
	preset, in, err := p.check(in)
	if err != nil {
		return ProviderView{}, err
	}
	if preset.ID != providers.Demo && in.Model == "" {
		return ProviderView{}, chat.Invalidf("model", "Choose a model.")
	}
	if err := p.requireKey(preset, in); err != nil {
		return ProviderView{}, err
	}
	if preset.ID != providers.Demo && !in.KeepKey {
		if err := providers.SaveKey(p.secrets, preset.ID, in.BaseURL, in.APIKey); err != nil {
			return ProviderView{}, chat.Wrap(chat.CodeInternal, err, "%s", chat.Sentence(err.Error()))
		}
	}
	ctx, cancel := callCtx()
	defer cancel()
	s, err := p.store.Settings(ctx)
	if err != nil {
		return ProviderView{}, err
	}
	s.Provider = chat.ProviderConfig{Preset: preset.ID, BaseURL: in.BaseURL, Model: in.Model}
	if err := p.store.SaveSettings(ctx, s); err != nil {
		return ProviderView{}, err
	}
	p.runner.SettingsChanged(ctx)
	return p.GetProvider()
}

// TestConnection tries the provider as given, without saving it.
func (p *Providers) TestConnection(in ProviderInput) (_ providers.Verdict, err error) {
	defer recovered(&err)
	preset, in, err := p.check(in)
	if err != nil {
		return providers.Verdict{Kind: providers.VerdictInvalid, Message: chat.ErrorMessage(err)}, nil
	}
	if preset.ID == providers.Demo {
		in.BaseURL, in.Model = p.models.demoURL, demo.Model
	}
	if err := p.requireKey(preset, in); err != nil {
		if chat.ErrorCode(err) != chat.CodeInvalid {
			return providers.Verdict{}, err
		}
		return providers.Verdict{Kind: providers.VerdictWrongKey, Message: chat.ErrorMessage(err)}, nil
	}
	ep, err := p.endpoint(in)
	if err != nil {
		return providers.Verdict{}, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	v := providers.Test(ctx, nil, ep)
	// The verdict may repeat a server's or the network's own words.
	v.Message = chat.Sentence(v.Message)
	if v.Kind == providers.VerdictWrongKey && in.KeepKey {
		// The server wants a key, and the one saved was not sent: say why.
		if stored, err := providers.KeyFor(p.secrets, preset.ID, in.BaseURL); err == nil && stored.Withheld {
			v.Message = providers.WithheldNote(preset.Name, in.BaseURL, stored)
		}
	}
	return v, nil
}

// ListModels lists the models of the provider as given.
func (p *Providers) ListModels(in ProviderInput) (_ []string, err error) {
	defer recovered(&err)
	preset, in, err := p.check(in)
	if err != nil {
		return nil, err
	}
	if preset.ID == providers.Demo {
		return []string{demo.Model}, nil
	}
	ep, err := p.endpoint(in)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	models, err := providers.ListModels(ctx, nil, ep)
	if err != nil {
		stored := providers.StoredKey{}
		if in.KeepKey {
			stored, _ = providers.KeyFor(p.secrets, preset.ID, in.BaseURL)
		}
		return nil, listFailure(err, preset.Name, in.BaseURL, stored)
	}
	return models, nil
}

// listFailure is a failed model listing as the person is told it: a
// refusal of a request that went without the key saved for another
// address says so, and what to do.
func listFailure(err error, presetName, address string, stored providers.StoredKey) error {
	if note := providers.WithheldNote(presetName, address, stored); note != "" && providers.KeyRefused(err) {
		return chat.Wrap(chat.CodeModel, err, "%s", note)
	}
	return chat.Wrap(chat.CodeModel, err, "%s", chat.Sentence(err.Error()))
}

// CurrentModels lists the models of the provider in use (for the model
// menu in the chat header).
func (p *Providers) CurrentModels() (_ []string, err error) {
	defer recovered(&err)
	ctx, cancel := callCtx()
	defer cancel()
	c, err := p.models.choose(ctx, "")
	if err != nil {
		return nil, err
	}
	if c.Demo {
		return []string{demo.Model}, nil
	}
	models, err := providers.ListModels(ctx, nil, c.Endpoint)
	if err != nil {
		preset, _ := providers.Find(c.Preset)
		return nil, listFailure(err, preset.Name, c.BaseURL, providers.StoredKey{Withheld: c.KeyWithheld, BoundTo: c.KeyBoundTo})
	}
	return models, nil
}

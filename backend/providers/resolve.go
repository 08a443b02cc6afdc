package providers

import (
	"context"
	"strings"

	"github.com/errand-app/errand/backend/chat"
	"github.com/errand-app/errand/backend/secrets"
)

// Env is the model server named by the environment (OPENAI_BASE_URL,
// OPENAI_API_KEY, ERRAND_MODEL), for scripting and tests. It overrides the
// settings.
type Env struct {
	BaseURL string
	APIKey  string
	Model   string
}

// Set reports whether the environment names a server.
func (e Env) Set() bool { return e.BaseURL != "" || e.APIKey != "" }

// Sources of a Choice.
const (
	FromEnvironment = "environment"
	FromSettings    = "settings"
	FromDemo        = "demo"
)

// Choice is the endpoint a conversation talks to.
type Choice struct {
	Endpoint
	Demo   bool
	Source string
	Preset string
	// KeyWithheld: a key is saved for the preset, but for another address
	// (KeyBoundTo, when known), so none is sent (not even a placeholder).
	KeyWithheld bool
	KeyBoundTo  string
}

// Resolver picks the endpoint for a conversation: the environment if it
// names a server, else the settings (with the key from the secret store),
// else the offline demo. A model chosen for the conversation wins over the
// default model.
type Resolver struct {
	Env      Env
	Settings func(ctx context.Context) (chat.Settings, error)
	Secrets  *secrets.Store
}

// Resolve returns the endpoint for a conversation whose own model choice
// is conversationModel ("" for the default).
func (r *Resolver) Resolve(ctx context.Context, conversationModel string) (Choice, error) {
	if r.Env.Set() {
		c := Choice{Source: FromEnvironment, Preset: Custom, Endpoint: Endpoint{BaseURL: r.Env.BaseURL, APIKey: r.Env.APIKey, Model: r.Env.Model}}
		if c.BaseURL == "" {
			c.BaseURL, c.Preset = Presets[0].BaseURL, OpenAI
		}
		if c.Model == "" {
			c.Model = "gpt-4o-mini"
		}
		if conversationModel != "" {
			c.Model = conversationModel
		}
		if err := chat.CheckKey(c.APIKey); err != nil {
			return Choice{}, chat.Wrap(chat.CodeInvalid, err, "OPENAI_API_KEY: %s", chat.ErrorMessage(err))
		}
		return c, nil
	}
	s, err := r.Settings(ctx)
	if err != nil {
		return Choice{}, err
	}
	p := s.Provider
	if p.Preset == "" || p.Preset == Demo {
		return Choice{Demo: true, Source: FromDemo, Preset: Demo}, nil
	}
	c := Choice{Source: FromSettings, Preset: p.Preset, Endpoint: Endpoint{BaseURL: strings.TrimSpace(p.BaseURL), Model: p.Model,
		Anthropic: p.Preset == Anthropic}}
	preset, _ := Find(p.Preset)
	if c.BaseURL == "" {
		c.BaseURL = preset.BaseURL
	}
	if c.Model == "" {
		c.Model = preset.Model
	}
	if conversationModel != "" {
		c.Model = conversationModel
	}
	if c.BaseURL == "" {
		return Choice{}, chat.Errorf(chat.CodeInvalid, "no server address is set for %s; open Settings to add one", preset.Name)
	}
	if c.Model == "" {
		return Choice{}, chat.Errorf(chat.CodeInvalid, "no model is chosen; open Settings (or the model menu in the chat header) to pick one")
	}
	if r.Secrets != nil {
		stored, err := KeyFor(r.Secrets, p.Preset, c.BaseURL)
		if err != nil {
			return Choice{}, chat.Wrap(chat.CodeInternal, err, "%v", err)
		}
		if err := chat.CheckKey(stored.Key); err != nil {
			return Choice{}, chat.Wrap(chat.CodeInvalid, err, "%s; open Settings to enter it again.", strings.TrimSuffix(chat.ErrorMessage(err), "."))
		}
		// A key saved for another address is not sent: the request goes
		// without one (Settings says why).
		c.APIKey, c.KeyWithheld, c.KeyBoundTo = stored.Key, stored.Withheld, stored.BoundTo
	}
	return c, nil
}

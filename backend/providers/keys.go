package providers

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strings"

	"github.com/errand-app/errand/backend/chat"
	"github.com/errand-app/errand/backend/llm"
	"github.com/errand-app/errand/backend/secrets"
)

// A preset's API key is bound to the server address it was saved for: the
// keyring is one per user, shared by every data folder, so settings that
// name another address (a restored backup's, or an edited one) must never
// make Errand hand the key to that address. The binding is kept beside the
// key, with a fingerprint of the key, so that a key replaced without its
// binding (or a binding written without its key) is bound to nothing.
// A key saved before bindings existed is bound to its preset's own address
// (api.openai.com for OpenAI, say), and a Custom one to none.

// KeyName is the secret-store name of a preset's API key.
func KeyName(preset string) string { return "provider:" + preset }

// bindingName is the secret-store name of the address a preset's key is
// bound to.
func bindingName(preset string) string { return KeyName(preset) + ":address" }

type binding struct {
	Address string `json:"address"`
	KeyHash string `json:"keySha256"`
}

// StoredKey is what the secret store holds for a preset, as seen from an
// address.
type StoredKey struct {
	// Key is the key, when one is saved for the address asked about.
	Key string
	// Withheld is set when a key is saved, but for another address (or for
	// none known): it is not sent. BoundTo names that address, if known.
	Withheld bool
	BoundTo  string
}

// SaveKey stores the preset's key bound to address; an empty key deletes
// the key and its binding.
func SaveKey(s *secrets.Store, preset, address, key string) error {
	if key == "" {
		if err := s.Delete(KeyName(preset)); err != nil {
			return err
		}
		return s.Delete(bindingName(preset))
	}
	if err := chat.CheckKey(key); err != nil {
		return err
	}
	b, err := json.Marshal(binding{Address: NormalAddress(address), KeyHash: fingerprint(key)})
	if err != nil {
		return err
	}
	// The binding first: if the key cannot be written after it, the old
	// key no longer matches its fingerprint and is sent nowhere.
	if err := s.Set(bindingName(preset), string(b)); err != nil {
		return err
	}
	return s.Set(KeyName(preset), key)
}

// KeyFor is the preset's stored key as seen from address: the key when it
// was saved for that address, else withheld.
func KeyFor(s *secrets.Store, preset, address string) (StoredKey, error) {
	key, err := s.Get(KeyName(preset))
	if err != nil || key == "" {
		return StoredKey{}, err
	}
	raw, err := s.Get(bindingName(preset))
	if err != nil {
		return StoredKey{}, err
	}
	bound, ok := boundAddress(preset, key, raw)
	if !ok || bound != NormalAddress(address) {
		return StoredKey{Withheld: true, BoundTo: bound}, nil
	}
	return StoredKey{Key: key}, nil
}

// boundAddress is the address a stored key is bound to; ok is false when
// it is bound to none.
func boundAddress(preset, key, raw string) (string, bool) {
	if raw == "" { // saved before bindings: its preset's own address
		p, _ := Find(preset)
		return NormalAddress(p.BaseURL), p.BaseURL != ""
	}
	var b binding
	if err := json.Unmarshal([]byte(raw), &b); err != nil || b.KeyHash != fingerprint(key) {
		return "", false
	}
	return b.Address, b.Address != ""
}

// NormalAddress is a server address as keys are bound to it: without
// spaces or a trailing slash, its scheme and host in lower case.
func NormalAddress(address string) string {
	a := strings.TrimRight(strings.TrimSpace(address), "/")
	u, err := url.Parse(a)
	if err != nil || u.Host == "" {
		return a
	}
	u.Scheme, u.Host = strings.ToLower(u.Scheme), strings.ToLower(u.Host)
	return u.String()
}

func fingerprint(key string) string {
	h := sha256.Sum256([]byte(key))
	return hex.EncodeToString(h[:])
}

// WithheldNote tells the person that the key saved for a preset is not
// sent to address, and what to do.
func WithheldNote(presetName, address string, k StoredKey) string {
	if !k.Withheld {
		return ""
	}
	return fmt.Sprintf("The %s key saved here belongs to %s, so it is not sent to %s: enter the key for this address.",
		presetName, boundPlace(k.BoundTo), strings.TrimSpace(address))
}

func boundPlace(boundTo string) string {
	if boundTo == "" {
		return "another address"
	}
	return boundTo
}

// WithheldRefusal is a task's error when the model server at address
// refused a request that went without the preset's key, saved for boundTo:
// what happened, and what to do.
func WithheldRefusal(presetName, address, boundTo string) string {
	return fmt.Sprintf("The model server at %s refused the request, which went without a key: the %s key saved here "+
		"is for %s and is never sent to another address. Enter a key for this address in Settings → Model provider.",
		strings.TrimSpace(address), presetName, boundTo)
}

// WithheldKey is p, whose requests go without the key saved for its preset
// (that key belongs to another address): a refusal of its credentials is
// told as refusal, the whole message, and nothing else the server said.
func WithheldKey(p llm.Provider, refusal string) llm.Provider {
	return withheldKey{Provider: p, refusal: refusal}
}

type withheldKey struct {
	llm.Provider
	refusal string
}

func (w withheldKey) Stream(ctx context.Context, req llm.Request, out llm.Deltas) (llm.Response, error) {
	resp, err := w.Provider.Stream(ctx, req, out)
	if errors.Is(err, llm.ErrKeyRefused) {
		err = chat.Wrap(chat.CodeModel, err, "%s", w.refusal)
	}
	return resp, err
}

// ReportedContextLength is the wrapped provider's, or 0.
func (w withheldKey) ReportedContextLength() int {
	if r, ok := w.Provider.(llm.ContextReporter); ok {
		return r.ReportedContextLength()
	}
	return 0
}

package anthropic

import (
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strings"

	sdk "github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/errand-app/errand/backend/chat"
	"github.com/errand-app/errand/backend/llm"
)

// statusOverloaded is Anthropic's "overloaded_error" status.
const statusOverloaded = 529

// streamErrorPrefix is how the SDK words an error event it could not read
// as an API error.
const streamErrorPrefix = "received error while streaming: "

// explain turns a failed request into a chat.Error a person understands.
// The key never appears in it.
func (p *Provider) explain(err error) error {
	var apiErr *sdk.Error
	if errors.As(err, &apiErr) {
		if apiErr.StatusCode == http.StatusOK || apiErr.StatusCode == 0 {
			return p.streamError(err, string(apiErr.Type()), apiErr.Message)
		}
		return p.statusError(err, apiErr.StatusCode, string(apiErr.Type()), apiErr.Message)
	}
	if raw, ok := strings.CutPrefix(err.Error(), streamErrorPrefix); ok {
		var body struct {
			Error struct {
				Type    string `json:"type"`
				Message string `json:"message"`
			} `json:"error"`
		}
		_ = json.Unmarshal([]byte(raw), &body)
		return p.streamError(err, body.Error.Type, body.Error.Message)
	}
	var netErr net.Error
	var opErr *net.OpError
	if errors.As(err, &opErr) || errors.As(err, &netErr) {
		return chat.Wrap(chat.CodeModel, err, "Could not reach %s: %s", p.cfg.BaseURL, p.redact(err.Error()))
	}
	return chat.Wrap(chat.CodeModel, err, "The model's reply could not be read: %s", p.redact(err.Error()))
}

// statusError explains an HTTP error status.
func (p *Provider) statusError(err error, code int, kind, detail string) error {
	detail = p.redact(strings.TrimSpace(detail))
	var msg string
	cause := err
	switch {
	case code == statusOverloaded:
		msg = "The model server is overloaded; try again in a moment"
	case code == http.StatusRequestEntityTooLarge || (code == http.StatusBadRequest && isContextFull(detail)):
		msg = "The model's context window is full"
		cause = fmt.Errorf("%w: %w", llm.ErrContextFull, err)
	case code == http.StatusBadRequest && llm.RefusesImages(detail):
		msg = "The model does not take images"
		cause = fmt.Errorf("%w: %w", llm.ErrNoImages, err)
	default:
		msg = llm.StatusMessage(code, p.cfg.Model, p.cfg.BaseURL, "is not the Anthropic API")
	}
	if detail == "" {
		detail = kind
	}
	if detail != "" {
		msg += ": " + detail
	}
	return chat.Wrap(chat.CodeModel, cause, "%s", msg)
}

// streamError explains an error event inside a streamed reply.
func (p *Provider) streamError(err error, kind, detail string) error {
	detail = p.redact(strings.TrimSpace(detail))
	msg := "The model server reported an error during the reply"
	if kind != "" {
		msg += " (" + kind + ")"
	}
	if detail != "" {
		msg += ": " + detail
	}
	cause := err
	if isContextFull(detail) {
		cause = fmt.Errorf("%w: %w", llm.ErrContextFull, err)
	}
	return chat.Wrap(chat.CodeModel, cause, "%s", msg)
}

// redact removes the key from what a server or the network said.
func (p *Provider) redact(s string) string {
	if key := p.cfg.APIKey; len(key) >= 4 {
		s = strings.ReplaceAll(s, key, "[key]")
	}
	return s
}

// isContextFull recognises Anthropic's "prompt is too long: 208432 tokens
// > 200000 maximum" and the like.
func isContextFull(detail string) bool {
	d := strings.ToLower(detail)
	return strings.Contains(d, "prompt is too long") || strings.Contains(d, "context length") ||
		strings.Contains(d, "context window") || strings.Contains(d, "exceed context limit") ||
		strings.Contains(d, "too many tokens")
}

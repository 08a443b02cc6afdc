package logfile

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"strconv"
	"unicode/utf8"

	"github.com/errand-app/errand/backend/chat"
)

// MaxValueLen is the most of one logged value that is kept; a longer one
// is cut, after redaction, and says how long it was.
const MaxValueLen = 8 << 10

// Handler is a slog.Handler that scrubs every record before passing it
// on: the message and each attribute go through its Redactor, and an
// error is written with its whole chain of causes (chat.Details), since
// an error's own text may leave them out.
type Handler struct {
	inner  slog.Handler
	redact *Redactor
}

// NewHandler wraps inner. A nil r means Secrets.
func NewHandler(inner slog.Handler, r *Redactor) *Handler {
	if r == nil {
		r = Secrets
	}
	return &Handler{inner: inner, redact: r}
}

// New is the handler Errand logs through: text lines to w, from level
// Info, scrubbed by Secrets.
func New(w io.Writer) *Handler {
	return NewHandler(slog.NewTextHandler(w, &slog.HandlerOptions{Level: slog.LevelInfo}), nil)
}

func (h *Handler) Enabled(ctx context.Context, l slog.Level) bool { return h.inner.Enabled(ctx, l) }

func (h *Handler) Handle(ctx context.Context, rec slog.Record) error {
	out := slog.NewRecord(rec.Time, rec.Level, h.text(rec.Message), rec.PC)
	rec.Attrs(func(a slog.Attr) bool {
		out.AddAttrs(h.attr(a))
		return true
	})
	return h.inner.Handle(ctx, out)
}

func (h *Handler) WithAttrs(attrs []slog.Attr) slog.Handler {
	clean := make([]slog.Attr, len(attrs))
	for i, a := range attrs {
		clean[i] = h.attr(a)
	}
	return &Handler{inner: h.inner.WithAttrs(clean), redact: h.redact}
}

func (h *Handler) WithGroup(name string) slog.Handler {
	return &Handler{inner: h.inner.WithGroup(name), redact: h.redact}
}

// attr is a with its value scrubbed: text redacted and cut, an error
// written with its causes, anything else as text first.
func (h *Handler) attr(a slog.Attr) slog.Attr {
	v := a.Value.Resolve()
	switch v.Kind() {
	case slog.KindString:
		return slog.String(a.Key, h.text(v.String()))
	case slog.KindGroup:
		group := v.Group()
		clean := make([]slog.Attr, len(group))
		for i, g := range group {
			clean[i] = h.attr(g)
		}
		return slog.Attr{Key: a.Key, Value: slog.GroupValue(clean...)}
	case slog.KindAny:
		switch x := v.Any().(type) {
		case nil:
			return slog.String(a.Key, "<nil>")
		case error:
			return slog.String(a.Key, h.text(errorText(x)))
		default:
			return slog.String(a.Key, h.text(fmt.Sprintf("%+v", x)))
		}
	default: // numbers, booleans, times, durations
		return slog.Attr{Key: a.Key, Value: v}
	}
}

// errorText is err with its causes; an error whose Error method panics
// (a nil pointer in an interface) is told as such rather than crash the
// logging goroutine.
func errorText(err error) (text string) {
	defer func() {
		if recover() != nil {
			text = fmt.Sprintf("%T (its text could not be read)", err)
		}
	}()
	return chat.Details(err)
}

// text is s redacted, then cut to MaxValueLen on a character boundary.
func (h *Handler) text(s string) string {
	s = h.redact.Redact(s)
	if len(s) <= MaxValueLen {
		return s
	}
	cut := MaxValueLen
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "… (" + strconv.Itoa(len(s)) + " bytes)"
}

package logfile

import (
	"regexp"
	"sort"
	"strings"
	"sync"
)

// Redacted stands where a secret was.
const Redacted = "[redacted]"

// MinSecretLen is the shortest secret a Redactor replaces word for word:
// a shorter one would blot out ordinary text, and is no real key.
const MinSecretLen = 4

// Redactor scrubs secrets from text: the ones it was told (Add), and
// whatever looks like one. It is safe for concurrent use; the zero value
// is ready.
type Redactor struct {
	mu      sync.RWMutex
	secrets []string // longest first, so that a key holding another goes whole
}

// Secrets is the process's Redactor: every key Errand learns — from the
// environment, the keyring, the settings — is added to it, and the log
// and the details of an error shown in the window go through it.
var Secrets = &Redactor{}

// Add tells r secrets to scrub. Empty and very short ones are ignored.
func (r *Redactor) Add(secrets ...string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, s := range secrets {
		s = strings.TrimSpace(s)
		if len(s) < MinSecretLen || contains(r.secrets, s) {
			continue
		}
		r.secrets = append(r.secrets, s)
	}
	sort.SliceStable(r.secrets, func(i, j int) bool { return len(r.secrets[i]) > len(r.secrets[j]) })
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// value is what a secret after a name ("key=", "Authorization: ") may
// hold: up to a space, a quote, a separator or a bracket.
const value = `[^\s"'&#;,()<>\[\]]+`

// patterns are the shapes of secrets, each with what replaces it. A
// value's closing ":" or "." is left standing: it is the sentence's, as
// in Get "https://…?key=…": EOF.
var patterns = []struct {
	re   *regexp.Regexp
	with string
}{
	// Authorization: Bearer abc, "authorization": "Basic abc", X-Api-Key: abc
	{regexp.MustCompile(`(?i)(\b(?:proxy-)?authorization|\bx-api-key|\bapi-key|\bx-goog-api-key)(["']?\s*[:=]\s*["']?)(?:(?:bearer|basic|token)\s+)?` + value), "${1}${2}" + Redacted},
	// Bearer abc… anywhere else.
	{regexp.MustCompile(`(?i)\b(bearer)\s+[A-Za-z0-9._~+/=-]{6,}`), "${1} " + Redacted},
	// sk-…, sk-proj-…, sk-or-v1-…: the shape of OpenAI-style keys.
	{regexp.MustCompile(`\bsk-[A-Za-z0-9_-]{6,}`), Redacted},
	// key=…, api_key=…, token=…, password=… in a URL or text.
	{regexp.MustCompile(`(?i)(\b(?:api[_-]?key|apikey|key|access[_-]?token|refresh[_-]?token|id[_-]?token|token|client[_-]?secret|secret|password|passwd|pwd|sig|signature)=)` + value), "${1}" + Redacted},
	// "api_key": "…" in JSON.
	{regexp.MustCompile(`(?i)("(?:api[_-]?key|apikey|key|access[_-]?token|refresh[_-]?token|token|client[_-]?secret|secret|password)"\s*:\s*")[^"]*`), "${1}" + Redacted},
	// https://user:password@host
	{regexp.MustCompile(`(?i)(\b[a-z][a-z0-9+.-]*://[^/\s:@]*:)[^/\s@]+@`), "${1}" + Redacted + "@"},
}

// replace is re's matches in s replaced by with, a closing ":" or "."
// of a match kept after it.
func replace(re *regexp.Regexp, s, with string) string {
	var b strings.Builder
	last := 0
	for _, m := range re.FindAllStringSubmatchIndex(s, -1) {
		end := m[1]
		for end > m[0] && (s[end-1] == ':' || s[end-1] == '.') {
			end--
		}
		b.WriteString(s[last:m[0]])
		b.Write(re.ExpandString(nil, with, s, m))
		b.WriteString(s[end:m[1]])
		last = m[1]
	}
	if last == 0 {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}

// Redact returns s without the secrets r knows, nor anything shaped like
// a secret.
func (r *Redactor) Redact(s string) string {
	if s == "" {
		return s
	}
	if r != nil {
		r.mu.RLock()
		for _, secret := range r.secrets {
			s = strings.ReplaceAll(s, secret, Redacted)
		}
		r.mu.RUnlock()
	}
	for _, p := range patterns {
		s = replace(p.re, s, p.with)
	}
	return s
}

// minEmbeddedLen is the shortest secret Holds looks for inside a longer
// text: a short one ("production", "/usr/bin" — any value of an MCP
// server's environment is a secret) would match ordinary text.
const minEmbeddedLen = 16

// Holds reports whether s is one of the secrets r was told, or contains
// one of at least 16 bytes.
func (r *Redactor) Holds(s string) bool {
	s = strings.TrimSpace(s)
	r.mu.RLock()
	defer r.mu.RUnlock()
	for _, secret := range r.secrets {
		if s == secret || len(secret) >= minEmbeddedLen && strings.Contains(s, secret) {
			return true
		}
	}
	return false
}

package chat

import (
	"regexp"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// FactScope says whose a fact is: one conversation's, or every
// conversation's.
type FactScope string

// The scopes a fact can have.
const (
	ScopeConversation FactScope = "conversation"
	ScopeGlobal       FactScope = "global"
)

// Limits on facts: each key and value, and how many one owner (the global
// set, or one conversation) holds.
const (
	MaxFactBytes     = 4096
	MaxFactsPerOwner = 200
)

// Fact is something the person asked the agent to remember (the design's
// explicit facts): a key and its value, in a conversation or for all of
// them. The person can see, edit and delete every fact.
type Fact struct {
	ID    string    `json:"id"`
	Key   string    `json:"key"`
	Value string    `json:"value"`
	Scope FactScope `json:"scope"`
	// ConversationID is the owner of a conversation fact; empty for a
	// global one.
	ConversationID string    `json:"conversationId"`
	CreatedAt      time.Time `json:"createdAt" ts_type:"string"`
	UpdatedAt      time.Time `json:"updatedAt" ts_type:"string"`
}

// ParseScope reads a scope; empty means the conversation's.
func ParseScope(s string) (FactScope, error) {
	switch FactScope(strings.TrimSpace(s)) {
	case "", ScopeConversation:
		return ScopeConversation, nil
	case ScopeGlobal:
		return ScopeGlobal, nil
	}
	return "", Invalidf("scope", "Unknown scope %s; the scopes are %q and %q.", Quote(s), ScopeConversation, ScopeGlobal)
}

// CleanFact returns the fact as Errand stores it, its key and value
// trimmed, or a CodeInvalid error that says what is wrong: an empty or
// over-long key or value, a key with a control character, an unknown
// scope, a conversation fact without its conversation, or a value that
// looks like a secret (which is never repeated back).
func CleanFact(f Fact) (Fact, error) {
	scope, err := ParseScope(string(f.Scope))
	if err != nil {
		return f, err
	}
	f.Scope = scope
	if f.Scope == ScopeGlobal {
		f.ConversationID = ""
	} else if err := CheckID("conversation", f.ConversationID); err != nil {
		return f, Invalidf("conversationId", "A conversation fact needs its conversation: %s.", err.Error())
	}
	f.Key, f.Value = strings.TrimSpace(f.Key), strings.TrimSpace(f.Value)
	if err := checkFactText("key", f.Key); err != nil {
		return f, err
	}
	if strings.IndexFunc(f.Key, unsafeRune) >= 0 {
		return f, Invalidf("key", "The key %s holds a line break or another control character; a key is one line of text.", Quote(f.Key))
	}
	if err := checkFactText("value", f.Value); err != nil {
		return f, err
	}
	if strings.IndexFunc(f.Value, func(r rune) bool { return r != '\n' && r != '\t' && unsafeRune(r) }) >= 0 {
		return f, Invalidf("value", "The value of %s holds a control character.", Quote(f.Key))
	}
	if why := keyShaped(f.Key); why != "" {
		return f, Invalidf("key", "The fact's key looks like a secret (%s); Errand does not remember secrets.", why)
	}
	if why := SecretLike(f.Key, f.Value); why != "" {
		return f, Invalidf("value", "The value of %s looks like a secret (%s); Errand does not remember secrets. Keep keys and passwords in the provider settings or a password manager.", Quote(f.Key), why)
	}
	return f, nil
}

func checkFactText(what, s string) error {
	switch {
	case s == "":
		return Invalidf(what, "The fact's %s is empty.", what)
	case len(s) > MaxFactBytes:
		return Invalidf(what, "The fact's %s is %s; the most a %s can hold is %d bytes.", what, sizeOf(len(s)), what, MaxFactBytes)
	case !utf8.ValidString(s):
		return Invalidf(what, "The fact's %s is not valid text.", what)
	}
	return nil
}

// secretKeyEnds are the ends of words in a key whose value is a secret,
// whatever it is ("password", "dbpassword", "github_token"); secretKeyPairs
// are two words that name one ("api key", "private_key").
var (
	secretKeyEnds  = []string{"password", "passwd", "passphrase", "secret", "token", "apikey", "pwd"}
	secretKeyPairs = []string{"api key", "access key", "private key", "secret key", "auth key"}
)

// secretKey reports a key named like a password, secret or token.
func secretKey(key string) bool {
	words := strings.FieldsFunc(strings.ToLower(key), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	})
	for i, w := range words {
		for _, end := range secretKeyEnds {
			if strings.HasSuffix(w, end) {
				return true
			}
		}
		if i > 0 {
			for _, pair := range secretKeyPairs {
				if words[i-1]+" "+w == pair {
					return true
				}
			}
		}
	}
	return false
}

// SecretLike says why a fact looks like a secret, or "" when it does not:
// a key named like a password or token, or a value shaped like an API key,
// a private key, a JWT or a long random token.
func SecretLike(key, value string) string {
	if secretKey(key) {
		return "its key is named like a password or token"
	}
	if why := keyShaped(key); why != "" {
		return why
	}
	value = unmasked(value)
	if strings.Contains(value, "-----BEGIN") && strings.Contains(value, "PRIVATE KEY") {
		return "it holds a private key"
	}
	if urlPassword().MatchString(value) {
		return "it holds a URL with a password"
	}
	for _, word := range strings.FieldsFunc(value, func(r rune) bool {
		return unicode.IsSpace(r) || unicode.Is(unicode.Quotation_Mark, r) || strings.ContainsRune("`,;:=()[]{}<>", r)
	}) {
		if why := secretWord(word); why != "" {
			return why
		}
	}
	return ""
}

// urlPassword is a URL with a user and a password: scheme://user:pass@host.
var urlPassword = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)\b[a-z][a-z0-9+.-]*://[^/\s:@]+:[^/\s@]+@`)
})

// unmasked is text as a secret filter must read it: full-width and other
// compatibility forms folded to plain ones (ｓｋ－ is sk-), and the
// invisible characters that can split a key in two (zero-width spaces and
// joiners, the soft hyphen, the byte-order mark) removed.
func unmasked(s string) string {
	s = norm.NFKC.String(s)
	return strings.Map(func(r rune) rune {
		switch r {
		case '\u200b', '\u200c', '\u200d', '\u2060', '\ufeff', '\u00ad', '\u180e':
			return -1
		}
		return r
	}, s)
}

// keyPrefixes are the starts of well-known API keys, with the shortest
// random part that follows them in a real key.
var keyPrefixes = []struct {
	prefix string
	min    int
}{
	{"sk-ant-", 16}, {"sk-", 16}, {"ghp_", 20}, {"gho_", 20}, {"ghs_", 20}, {"ghu_", 20},
	{"github_pat_", 20}, {"AKIA", 16}, {"ASIA", 16}, {"xoxb-", 10}, {"xoxp-", 10}, {"AIza", 30},
	{"glpat-", 16},
}

// keyShaped says why a fact's key itself looks like a secret, or "".
func keyShaped(key string) string {
	for _, word := range strings.Fields(unmasked(key)) {
		if why := secretWord(word); why != "" {
			return why
		}
	}
	return ""
}

func secretWord(w string) string {
	w = strings.TrimRight(w, ".:!?")
	for _, p := range keyPrefixes {
		if strings.HasPrefix(w, p.prefix) && len(w)-len(p.prefix) >= p.min && tokenChars(w[len(p.prefix):]) {
			return "it has the shape of an API key"
		}
	}
	if strings.HasPrefix(w, "eyJ") && strings.Count(w, ".") == 2 && len(w) >= 30 && tokenChars(strings.ReplaceAll(w, ".", "")) {
		return "it has the shape of a JWT"
	}
	if len(w) >= 32 && tokenChars(w) && random(w) {
		return "it looks like a long random token"
	}
	return ""
}

// tokenChars: only the characters of base64, base64url and hex.
func tokenChars(s string) bool {
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("+/=_-", r)) {
			return false
		}
	}
	return s != ""
}

// random tells a token from a long word or name: it mixes digits with
// letters (hex), or upper and lower case with digits (base64).
func random(s string) bool {
	var lower, upper, digit int
	for _, r := range s {
		switch {
		case r >= 'a' && r <= 'z':
			lower++
		case r >= 'A' && r <= 'Z':
			upper++
		case r >= '0' && r <= '9':
			digit++
		}
	}
	if isHex(s) {
		return digit > 0 && lower+upper > 0
	}
	return digit > 0 && lower > 0 && upper > 0
}

func isHex(s string) bool {
	for _, r := range s {
		if !(r >= '0' && r <= '9' || r >= 'a' && r <= 'f' || r >= 'A' && r <= 'F') {
			return false
		}
	}
	return true
}

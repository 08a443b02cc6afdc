package chat

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"net/mail"
	"net/url"
	"strings"
	"time"
	"unicode/utf8"
)

// A question can carry a form: fields the person fills in, whose answer
// reaches whoever asked as one JSON object of field values. The shape is
// generic: the agent's ask_user uses it, and so can any other source of
// structured questions.

// FieldType is the kind of one form field.
type FieldType string

const (
	FieldText     FieldType = "text"
	FieldTextarea FieldType = "textarea"
	FieldNumber   FieldType = "number"
	FieldDate     FieldType = "date" // YYYY-MM-DD
	FieldEmail    FieldType = "email"
	FieldURL      FieldType = "url"
	FieldSelect   FieldType = "select"
	FieldBoolean  FieldType = "boolean"
	FieldRating   FieldType = "rating" // a whole number from Min (default 1) to Max (default 5)
)

// FieldTypes lists every field type, in the order they are documented.
var FieldTypes = []FieldType{FieldText, FieldTextarea, FieldNumber, FieldDate, FieldEmail, FieldURL, FieldSelect, FieldBoolean, FieldRating}

// Limits on a form.
const (
	MaxFormFields   = 30
	MaxFieldOptions = 100
	MaxChoices      = 20
	MaxLabelLen     = 200
	MaxFieldNameLen = 64
	// MaxRatingSteps bounds the buttons of a rating field.
	MaxRatingSteps = 11
	// MaxQuestionLen bounds a question's text (ask_user's, an MCP server's), in bytes.
	MaxQuestionLen = 8000
)

// CleanQuestion returns a question's text as it is shown: valid UTF-8,
// without bidi controls, every control character but a line break or a
// tab made a space, trimmed. An empty question, or one longer than
// MaxQuestionLen bytes, is refused.
func CleanQuestion(q string) (string, error) {
	if len(q) > MaxQuestionLen {
		return "", Errorf(CodeInvalid, "the question is longer than %d bytes (%d)", MaxQuestionLen, len(q))
	}
	lines := strings.Split(strings.ReplaceAll(q, "\t", "    "), "\n")
	for i, l := range lines {
		lines[i] = StripControls(l)
	}
	q = strings.TrimSpace(strings.Join(lines, "\n"))
	if q == "" {
		return "", Errorf(CodeInvalid, "the question is empty")
	}
	return q, nil
}

// plainText reports whether s is valid UTF-8 without control or bidi
// characters: a name, label or option shown as it is.
func plainText(s string) bool {
	return utf8.ValidString(s) && strings.IndexFunc(s, unsafeRune) < 0
}

// FormField is one field of a form.
type FormField struct {
	Name        string    `json:"name"`
	Label       string    `json:"label"`
	Type        FieldType `json:"type"`
	Options     []string  `json:"options,omitempty"`
	Required    bool      `json:"required,omitempty"`
	Placeholder string    `json:"placeholder,omitempty"`
	Min         *float64  `json:"min,omitempty"`
	Max         *float64  `json:"max,omitempty"`
}

// InputHint says how the window looks while a question waits or after an
// update: the composer disabled (nil: as the agent's definition says) and
// with which placeholder; the history before the message shown or hidden,
// and the End button shown or hidden (nil: as the definition says).
type InputHint struct {
	Disabled      *bool  `json:"disabled,omitempty"`
	Placeholder   string `json:"placeholder,omitempty"`
	ShowHistory   *bool  `json:"show_history,omitempty"`
	ShowEndButton *bool  `json:"show_end_button,omitempty"`
}

// CheckFields refuses a form that cannot be shown: no fields beyond the
// limit, each with a name unique in the form, a label, a known type, the
// options a select needs (and only a select), and a sane range.
func CheckFields(fields []FormField) error {
	if len(fields) > MaxFormFields {
		return Errorf(CodeInvalid, "a form has at most %d fields (this one has %d)", MaxFormFields, len(fields))
	}
	seen := map[string]bool{}
	for i, f := range fields {
		where := fmt.Sprintf("field %d", i+1)
		if strings.TrimSpace(f.Name) == "" {
			return Errorf(CodeInvalid, "%s has no name", where)
		}
		if len(f.Name) > MaxFieldNameLen {
			return Errorf(CodeInvalid, "%s: its name is longer than %d characters", where, MaxFieldNameLen)
		}
		where = fmt.Sprintf("field %s", Quote(f.Name))
		if !plainText(f.Name) || !plainText(f.Label) || !plainText(f.Placeholder) {
			return Errorf(CodeInvalid, "%s: its name, label and placeholder must not hold control or bidi characters", where)
		}
		if seen[f.Name] {
			return Errorf(CodeInvalid, "two fields are named %s; each name must be unique", Quote(f.Name))
		}
		seen[f.Name] = true
		if strings.TrimSpace(f.Label) == "" {
			return Errorf(CodeInvalid, "%s has no label", where)
		}
		if len(f.Label) > MaxLabelLen || len(f.Placeholder) > MaxLabelLen {
			return Errorf(CodeInvalid, "%s: the label and placeholder are at most %d characters", where, MaxLabelLen)
		}
		if !knownFieldType(f.Type) {
			return Errorf(CodeInvalid, "%s has the unknown type %s; the types are %s", where, Quote(string(f.Type)), fieldTypeNames())
		}
		if err := checkOptions(where, f); err != nil {
			return err
		}
		if err := checkRange(where, f); err != nil {
			return err
		}
	}
	return nil
}

func knownFieldType(t FieldType) bool {
	for _, k := range FieldTypes {
		if k == t {
			return true
		}
	}
	return false
}

func fieldTypeNames() string {
	s := make([]string, len(FieldTypes))
	for i, t := range FieldTypes {
		s[i] = string(t)
	}
	return strings.Join(s, ", ")
}

func checkOptions(where string, f FormField) error {
	if f.Type != FieldSelect {
		if len(f.Options) > 0 {
			return Errorf(CodeInvalid, "%s has options, which only a select field takes", where)
		}
		return nil
	}
	if len(f.Options) == 0 {
		return Errorf(CodeInvalid, "%s is a select with no options", where)
	}
	return CheckChoices(where+"'s options", f.Options, MaxFieldOptions)
}

// CheckChoices refuses a list of options with more than max entries, a
// blank one, or two the same.
func CheckChoices(what string, options []string, max int) error {
	if len(options) > max {
		return Errorf(CodeInvalid, "%s: at most %d (there are %d)", what, max, len(options))
	}
	seen := map[string]bool{}
	for _, o := range options {
		if strings.TrimSpace(o) == "" {
			return Errorf(CodeInvalid, "%s: an option is blank", what)
		}
		if len(o) > MaxLabelLen {
			return Errorf(CodeInvalid, "%s: an option is longer than %d characters", what, MaxLabelLen)
		}
		if !plainText(o) {
			return Errorf(CodeInvalid, "%s: %s holds control or bidi characters", what, Quote(o))
		}
		if seen[o] {
			return Errorf(CodeInvalid, "%s: %s is there twice", what, Quote(o))
		}
		seen[o] = true
	}
	return nil
}

func checkRange(where string, f FormField) error {
	for _, v := range []*float64{f.Min, f.Max} {
		if v != nil && !Finite(*v) {
			return Errorf(CodeInvalid, "%s: min and max must be finite numbers", where)
		}
	}
	if f.Min != nil && f.Max != nil && *f.Min > *f.Max {
		return Errorf(CodeInvalid, "%s: min is above max", where)
	}
	switch f.Type {
	case FieldRating:
		return checkRating(where, f)
	case FieldNumber, FieldText, FieldTextarea:
		return nil
	}
	if f.Min != nil || f.Max != nil {
		return Errorf(CodeInvalid, "%s: min and max apply to number, rating and text fields only", where)
	}
	return nil
}

// checkRating refuses a rating no one can answer (no whole number from
// min to max: 1.5 to 1.9) or with more than MaxRatingSteps buttons.
func checkRating(where string, f FormField) error {
	lo, hi := 1.0, 5.0
	if f.Min != nil {
		lo = *f.Min
	}
	if f.Max != nil {
		hi = *f.Max
	}
	steps := math.Floor(hi) - math.Ceil(lo) + 1
	switch {
	case steps < 1:
		return Errorf(CodeInvalid, "%s: a rating needs a whole number from min to max (%g to %g has none)", where, lo, hi)
	case steps > MaxRatingSteps:
		return Errorf(CodeInvalid, "%s: a rating has at most %d steps (%g to %g has %g)", where, MaxRatingSteps, lo, hi, steps)
	}
	return nil
}

// ValidateAnswer checks a form's answer — one JSON object of field values —
// against its fields: every required field present, each value of its
// field's type, a select's value one of its options, a number or rating
// within min and max (a text's length within them). It returns the answer
// normalised (only the known fields, in field order, text trimmed), or an
// error for the person that names the field.
func ValidateAnswer(fields []FormField, answer string) (string, error) {
	dec := json.NewDecoder(strings.NewReader(answer))
	dec.UseNumber()
	var values map[string]any
	if err := dec.Decode(&values); err != nil || values == nil || dec.More() {
		return "", Errorf(CodeInvalid, "the answer must be one JSON object of field values")
	}
	var b bytes.Buffer
	b.WriteByte('{')
	n := 0
	for _, f := range fields {
		v, err := fieldValue(f, values[f.Name])
		if err != nil {
			return "", err
		}
		if v == nil {
			continue
		}
		if n > 0 {
			b.WriteByte(',')
		}
		n++
		k, _ := json.Marshal(f.Name)
		val, _ := json.Marshal(v)
		b.Write(k)
		b.WriteByte(':')
		b.Write(val)
	}
	for name := range values {
		if !hasField(fields, name) {
			return "", Errorf(CodeInvalid, "the form has no field %s", Quote(name))
		}
	}
	b.WriteByte('}')
	return b.String(), nil
}

func hasField(fields []FormField, name string) bool {
	for _, f := range fields {
		if f.Name == name {
			return true
		}
	}
	return false
}

// fieldValue checks one value; nil means the field was left empty.
func fieldValue(f FormField, raw any) (any, error) {
	if s, ok := raw.(string); ok && f.Type != FieldBoolean {
		raw = strings.TrimSpace(s)
		if raw == "" {
			raw = nil
		}
	}
	if raw == nil {
		if f.Required {
			return nil, Errorf(CodeInvalid, "%s is required", f.Label)
		}
		return nil, nil
	}
	switch f.Type {
	case FieldBoolean:
		b, ok := raw.(bool)
		if !ok {
			return nil, Errorf(CodeInvalid, "%s must be yes or no", f.Label)
		}
		if f.Required && !b {
			return nil, Errorf(CodeInvalid, "%s must be ticked", f.Label)
		}
		return b, nil
	case FieldNumber, FieldRating:
		return numberValue(f, raw)
	}
	s, ok := raw.(string)
	if !ok {
		return nil, Errorf(CodeInvalid, "%s must be text", f.Label)
	}
	if len(s) > MaxMessageBytes {
		return nil, Errorf(CodeInvalid, "%s is longer than %s", f.Label, sizeOf(MaxMessageBytes))
	}
	return s, textValue(f, s)
}

func textValue(f FormField, s string) error {
	switch f.Type {
	case FieldDate:
		if _, err := time.Parse(time.DateOnly, s); err != nil {
			return Errorf(CodeInvalid, "%s must be a date (YYYY-MM-DD)", f.Label)
		}
	case FieldEmail:
		if a, err := mail.ParseAddress(s); err != nil || a.Address != s || !strings.Contains(s, "@") {
			return Errorf(CodeInvalid, "%s must be an email address", f.Label)
		}
	case FieldURL:
		if u, err := url.Parse(s); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return Errorf(CodeInvalid, "%s must be a web address (http or https)", f.Label)
		}
	case FieldSelect:
		for _, o := range f.Options {
			if o == s {
				return nil
			}
		}
		return Errorf(CodeInvalid, "%s must be one of: %s", f.Label, strings.Join(f.Options, ", "))
	case FieldText, FieldTextarea:
		n := float64(len([]rune(s)))
		if f.Min != nil && n < *f.Min {
			return Errorf(CodeInvalid, "%s must be at least %v characters", f.Label, *f.Min)
		}
		if f.Max != nil && n > *f.Max {
			return Errorf(CodeInvalid, "%s must be at most %v characters", f.Label, *f.Max)
		}
	}
	return nil
}

func numberValue(f FormField, raw any) (any, error) {
	var v float64
	switch x := raw.(type) {
	case json.Number:
		n, err := x.Float64()
		if err != nil {
			return nil, Errorf(CodeInvalid, "%s must be a number", f.Label)
		}
		v = n
	case string:
		var n json.Number
		if err := json.Unmarshal([]byte(x), &n); err != nil {
			return nil, Errorf(CodeInvalid, "%s must be a number", f.Label)
		}
		v, _ = n.Float64()
	default:
		return nil, Errorf(CodeInvalid, "%s must be a number", f.Label)
	}
	if !Finite(v) {
		return nil, Errorf(CodeInvalid, "%s must be a number", f.Label)
	}
	lo, hi := f.Min, f.Max
	if f.Type == FieldRating {
		if v != math.Trunc(v) {
			return nil, Errorf(CodeInvalid, "%s must be a whole number", f.Label)
		}
		lo, hi = orDefault(lo, 1), orDefault(hi, 5)
	}
	if lo != nil && v < *lo {
		return nil, Errorf(CodeInvalid, "%s must be at least %v", f.Label, *lo)
	}
	if hi != nil && v > *hi {
		return nil, Errorf(CodeInvalid, "%s must be at most %v", f.Label, *hi)
	}
	return v, nil
}

func orDefault(p *float64, d float64) *float64 {
	if p != nil {
		return p
	}
	return &d
}

// ValidateChoices checks the answer to a question with several choices
// allowed: a JSON array of the chosen ones, each a choice unless
// allowOther, at least one. It returns the array normalised.
func ValidateChoices(choices []string, allowOther bool, answer string) (string, error) {
	var picked []string
	if err := json.Unmarshal([]byte(answer), &picked); err != nil {
		return "", Errorf(CodeInvalid, "the answer must be a JSON array of the chosen answers")
	}
	out := []string{}
	for _, p := range picked {
		if p = strings.TrimSpace(p); p == "" {
			continue
		}
		if !allowOther && !contains(choices, p) {
			return "", Errorf(CodeInvalid, "%s is not one of the choices", Quote(p))
		}
		out = append(out, p)
	}
	if len(out) == 0 {
		return "", Errorf(CodeInvalid, "choose at least one answer")
	}
	b, _ := json.Marshal(out)
	return string(b), nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

package mcp

import (
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/errand-app/errand/backend/chat"
)

// Field is one value an elicitation asks for, in the shape of ask_user's
// form fields: its name, label, type ("text", "number", "integer",
// "boolean", "choice" or "choices"), options, whether it is required, and
// the bounds of a number or of the count of choices.
type Field struct {
	Name     string   `json:"name"`
	Label    string   `json:"label"`
	Type     string   `json:"type"`
	Options  []string `json:"options,omitempty"`
	Required bool     `json:"required,omitempty"`
	Min      *float64 `json:"min,omitempty"`
	Max      *float64 `json:"max,omitempty"`
	// values are the options as the server wants them back, when the
	// options show titles.
	values []string
}

// Fields reads an elicitation's requested schema (a flat object schema)
// into fields, in the order of the schema's properties as sent (their
// names sorted when the order is lost), required ones first.
func Fields(schema any) []Field {
	m, _ := schema.(map[string]any)
	props, _ := m["properties"].(map[string]any)
	required := map[string]bool{}
	if rs, ok := m["required"].([]any); ok {
		for _, r := range rs {
			if s, ok := r.(string); ok {
				required[s] = true
			}
		}
	}
	names := make([]string, 0, len(props))
	for n := range props {
		names = append(names, n)
	}
	sort.SliceStable(names, func(i, j int) bool {
		if required[names[i]] != required[names[j]] {
			return required[names[i]]
		}
		return names[i] < names[j]
	})
	out := make([]Field, 0, len(names))
	for _, n := range names {
		p, _ := props[n].(map[string]any)
		out = append(out, field(n, p, required[n]))
	}
	return out
}

func field(name string, p map[string]any, required bool) Field {
	f := Field{Name: name, Label: name, Required: required, Type: "text"}
	if t, _ := p["title"].(string); t != "" {
		f.Label = t
	}
	if d, _ := p["description"].(string); d != "" {
		f.Label = d
	}
	switch p["type"] {
	case "boolean":
		f.Type = "boolean"
	case "number", "integer":
		f.Type = p["type"].(string)
		f.Min, f.Max = num(p["minimum"]), num(p["maximum"])
	case "array":
		f.Type = "choices"
		items, _ := p["items"].(map[string]any)
		f.Options, f.values = options(items)
		f.Min, f.Max = num(p["minItems"]), num(p["maxItems"])
	default:
		if opts, vals := options(p); len(opts) > 0 {
			f.Type, f.Options, f.values = "choice", opts, vals
		}
	}
	return f
}

// options reads an enum (with enumNames) or a oneOf/anyOf of consts with
// titles: what the person sees, and the values the server wants.
func options(p map[string]any) (shown, values []string) {
	if enum, ok := p["enum"].([]any); ok {
		names, _ := p["enumNames"].([]any)
		for i, e := range enum {
			v := fmt.Sprint(e)
			values = append(values, v)
			if i < len(names) {
				shown = append(shown, fmt.Sprint(names[i]))
			} else {
				shown = append(shown, v)
			}
		}
		return shown, values
	}
	for _, key := range []string{"oneOf", "anyOf"} {
		alts, _ := p[key].([]any)
		for _, a := range alts {
			am, _ := a.(map[string]any)
			v := fmt.Sprint(am["const"])
			t, _ := am["title"].(string)
			if t == "" {
				t = v
			}
			values, shown = append(values, v), append(shown, t)
		}
	}
	return shown, values
}

func num(v any) *float64 {
	if f, ok := v.(float64); ok {
		return &f
	}
	return nil
}

// FormFields is the elicitation as an ask_user form (a multiple choice is a
// text field that names its options); ok is false when the fields do not
// make a valid form, and the question is answered as text.
func FormFields(fields []Field) (form []chat.FormField, ok bool) {
	if len(fields) == 0 {
		return nil, false
	}
	for _, f := range fields {
		ff := chat.FormField{Name: f.Name, Label: f.Label, Required: f.Required, Min: f.Min, Max: f.Max, Type: chat.FieldText}
		switch f.Type {
		case "number", "integer":
			ff.Type = chat.FieldNumber
		case "boolean":
			ff.Type = chat.FieldBoolean
		case "choice":
			ff.Type, ff.Options = chat.FieldSelect, f.Options
		case "choices":
			ff.Min, ff.Max = nil, nil
			ff.Placeholder = "one or more of " + strings.Join(f.Options, ", ") + ", separated by commas"
		default:
			ff.Min, ff.Max = nil, nil
		}
		form = append(form, ff)
	}
	if chat.CheckFields(form) != nil {
		return nil, false
	}
	return form, true
}

// Ask is the question above an elicitation's form.
func Ask(server, message string) string {
	return fmt.Sprintf("The MCP server %s asks: %s", server, strings.TrimSpace(message))
}

// Decline is the one-click answer that declines an elicitation.
const Decline = "Decline"

// Question is the question the person sees for an elicitation: the
// server's message, then what to answer; choices are one-click answers
// (the options of a lone choice field, and Decline).
func Question(server, message string, fields []Field) (question string, choices []string) {
	var b strings.Builder
	b.WriteString(Ask(server, message))
	if len(fields) == 1 && fields[0].Type == "choice" {
		return b.String(), append(append([]string(nil), fields[0].Options...), Decline)
	}
	if len(fields) > 0 {
		b.WriteString("\n\nAnswer with one line per value, as name: value")
		if len(fields) == 1 || countRequired(fields) == 1 {
			b.WriteString(" (or just the value of the required one)")
		}
		b.WriteString(", or as a JSON object:")
		for _, f := range fields {
			fmt.Fprintf(&b, "\n- %s: %s", f.Name, f.Label)
			if f.Required {
				b.WriteString(" (required)")
			}
			if len(f.Options) > 0 {
				fmt.Fprintf(&b, " — one of %s", strings.Join(f.Options, ", "))
			} else if f.Type != "text" {
				fmt.Fprintf(&b, " — %s", f.Type)
			}
		}
	}
	return b.String(), []string{Decline}
}

func countRequired(fields []Field) int {
	n := 0
	for _, f := range fields {
		if f.Required {
			n++
		}
	}
	return n
}

// ParseAnswer reads the person's answer into the values the elicitation
// asked for: a JSON object, lines of "name: value", or, when one field is
// required (or there is only one), the plain value of that field. It
// returns nil content and declined for the Decline answer, and an error
// that says what is wrong otherwise.
func ParseAnswer(fields []Field, answer string) (content map[string]any, declined bool, err error) {
	answer = strings.TrimSpace(answer)
	if strings.EqualFold(answer, Decline) {
		return nil, true, nil
	}
	raw := map[string]string{}
	var obj map[string]any
	switch {
	case strings.HasPrefix(answer, "{") && json.Unmarshal([]byte(answer), &obj) == nil:
		for k, v := range obj {
			if s, ok := v.(string); ok {
				raw[k] = s
			} else {
				b, _ := json.Marshal(v)
				raw[k] = string(b)
			}
		}
	case looksLikePairs(fields, answer):
		for _, line := range strings.Split(answer, "\n") {
			if k, v, ok := strings.Cut(line, ":"); ok {
				raw[strings.TrimSpace(k)] = strings.TrimSpace(v)
			}
		}
	default:
		f, ok := soleField(fields)
		if !ok {
			return nil, false, fmt.Errorf("answer with one line per value, as name: value")
		}
		raw[f.Name] = answer
	}
	content = map[string]any{}
	for _, f := range fields {
		s, ok := raw[f.Name]
		if !ok || s == "" {
			if f.Required {
				return nil, false, fmt.Errorf("%s is required", f.Name)
			}
			continue
		}
		v, err := convert(f, s)
		if err != nil {
			return nil, false, fmt.Errorf("%s: %w", f.Name, err)
		}
		content[f.Name] = v
	}
	return content, false, nil
}

func looksLikePairs(fields []Field, answer string) bool {
	for _, line := range strings.Split(answer, "\n") {
		k, _, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		for _, f := range fields {
			if strings.TrimSpace(k) == f.Name {
				return true
			}
		}
	}
	return false
}

func soleField(fields []Field) (Field, bool) {
	if len(fields) == 1 {
		return fields[0], true
	}
	var req []Field
	for _, f := range fields {
		if f.Required {
			req = append(req, f)
		}
	}
	if len(req) == 1 {
		return req[0], true
	}
	return Field{}, false
}

// convert reads one value as its field's type wants it.
func convert(f Field, s string) (any, error) {
	switch f.Type {
	case "boolean":
		switch strings.ToLower(s) {
		case "yes", "y", "true":
			return true, nil
		case "no", "n", "false":
			return false, nil
		}
		return nil, fmt.Errorf("answer yes or no")
	case "number", "integer":
		v, err := strconv.ParseFloat(s, 64)
		if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, fmt.Errorf("%q is not a number", s)
		}
		if f.Type == "integer" && v != math.Trunc(v) {
			return nil, fmt.Errorf("%q is not a whole number", s)
		}
		if (f.Min != nil && v < *f.Min) || (f.Max != nil && v > *f.Max) {
			return nil, fmt.Errorf("%v is out of range", v)
		}
		return v, nil
	case "choice":
		return pick(f, s)
	case "choices":
		var out []any
		var list []string
		if json.Unmarshal([]byte(s), &list) != nil {
			list = strings.Split(s, ",")
		}
		for _, p := range list {
			v, err := pick(f, strings.TrimSpace(p))
			if err != nil {
				return nil, err
			}
			out = append(out, v)
		}
		return out, nil
	}
	return s, nil
}

// pick finds an option by what is shown or by its value.
func pick(f Field, s string) (any, error) {
	for i, o := range f.Options {
		v := o
		if i < len(f.values) {
			v = f.values[i]
		}
		if strings.EqualFold(s, o) || strings.EqualFold(s, v) {
			return v, nil
		}
	}
	return nil, fmt.Errorf("%q is not one of %s", s, strings.Join(f.Options, ", "))
}

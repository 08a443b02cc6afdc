package chat

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func ptr(v float64) *float64 { return &v }

var formFields = []FormField{
	{Name: "name", Label: "Name", Type: FieldText, Required: true, Max: ptr(20)},
	{Name: "bio", Label: "Bio", Type: FieldTextarea},
	{Name: "age", Label: "Age", Type: FieldNumber, Min: ptr(0), Max: ptr(130)},
	{Name: "born", Label: "Born", Type: FieldDate},
	{Name: "mail", Label: "Email", Type: FieldEmail},
	{Name: "site", Label: "Website", Type: FieldURL},
	{Name: "role", Label: "Role", Type: FieldSelect, Options: []string{"Dev", "Ops"}},
	{Name: "agree", Label: "I agree", Type: FieldBoolean, Required: true},
	{Name: "stars", Label: "Stars", Type: FieldRating},
}

func TestValidateAnswer(t *testing.T) {
	for _, c := range []struct {
		answer, want, err string
	}{
		{`{"name":"Ann","agree":true}`, `{"name":"Ann","agree":true}`, ""},
		{`{"agree":true,"name":"  Ann ","age":"41","born":"2000-02-29","mail":"a@b.io","site":"https://x.org","role":"Ops","stars":5,"bio":""}`,
			`{"name":"Ann","age":41,"born":"2000-02-29","mail":"a@b.io","site":"https://x.org","role":"Ops","agree":true,"stars":5}`, ""},
		{`{"agree":true}`, "", "Name is required"},
		{`{"name":"  ","agree":true}`, "", "Name is required"},
		{`{"name":"Ann"}`, "", "I agree is required"},
		{`{"name":"Ann","agree":false}`, "", "I agree must be ticked"},
		{`{"name":"Ann","agree":"yes"}`, "", "I agree must be yes or no"},
		{`{"name":"` + strings.Repeat("a", 21) + `","agree":true}`, "", "Name must be at most 20 characters"},
		{`{"name":42,"agree":true}`, "", "Name must be text"},
		{`{"name":"Ann","agree":true,"age":-1}`, "", "Age must be at least 0"},
		{`{"name":"Ann","agree":true,"age":131}`, "", "Age must be at most 130"},
		{`{"name":"Ann","agree":true,"age":"old"}`, "", "Age must be a number"},
		{`{"name":"Ann","agree":true,"born":"29/02/2000"}`, "", "Born must be a date"},
		{`{"name":"Ann","agree":true,"born":"2001-02-29"}`, "", "Born must be a date"},
		{`{"name":"Ann","agree":true,"mail":"nobody"}`, "", "Email must be an email address"},
		{`{"name":"Ann","agree":true,"site":"javascript:alert(1)"}`, "", "Website must be a web address"},
		{`{"name":"Ann","agree":true,"role":"CEO"}`, "", "Role must be one of: Dev, Ops"},
		{`{"name":"Ann","agree":true,"stars":6}`, "", "Stars must be at most 5"},
		{`{"name":"Ann","agree":true,"stars":2.5}`, "", "Stars must be a whole number"},
		{`{"name":"Ann","agree":true,"extra":1}`, "", `the form has no field "extra"`},
		{`["Ann"]`, "", "one JSON object"},
		{`{"name":"Ann"} {}`, "", "one JSON object"},
		{`null`, "", "one JSON object"},
	} {
		got, err := ValidateAnswer(formFields, c.answer)
		if c.err != "" {
			require.Error(t, err, c.answer)
			assert.Contains(t, err.Error(), c.err, c.answer)
			assert.Equal(t, CodeInvalid, ErrorCode(err))
			continue
		}
		require.NoError(t, err, c.answer)
		assert.JSONEq(t, c.want, got, c.answer)
	}
}

func TestCheckFields(t *testing.T) {
	require.NoError(t, CheckFields(formFields))
	for want, fields := range map[string][]FormField{
		"unknown type":        {{Name: "a", Label: "A", Type: "colour"}},
		"two fields":          {{Name: "a", Label: "A", Type: FieldText}, {Name: "a", Label: "B", Type: FieldText}},
		"has no label":        {{Name: "a", Type: FieldText}},
		"has no name":         {{Label: "A", Type: FieldText}},
		"a select with no":    {{Name: "a", Label: "A", Type: FieldSelect}},
		"only a select":       {{Name: "a", Label: "A", Type: FieldText, Options: []string{"x"}}},
		"at most 100":         {{Name: "a", Label: "A", Type: FieldSelect, Options: manyOptions(500)}},
		"min is above max":    {{Name: "a", Label: "A", Type: FieldNumber, Min: ptr(5), Max: ptr(1)}},
		"number, rating and ": {{Name: "a", Label: "A", Type: FieldDate, Min: ptr(1)}},
	} {
		err := CheckFields(fields)
		require.Error(t, err, want)
		assert.Contains(t, err.Error(), want)
	}
}

func manyOptions(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = strings.Repeat("o", i%9+1) + string(rune('a'+i%26)) + string(rune('A'+i/26))
	}
	return out
}

package mcp_test

import (
	"encoding/json"
	"testing"

	"github.com/errand-app/errand/backend/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func schema(t *testing.T, s string) any {
	var v any
	require.NoError(t, json.Unmarshal([]byte(s), &v))
	return v
}

const formSchema = `{"type":"object","required":["name"],"properties":{
	"name":{"type":"string","title":"Name"},
	"age":{"type":"integer","minimum":0,"maximum":150},
	"agree":{"type":"boolean","description":"Agree to the terms"},
	"hero":{"type":"string","oneOf":[{"const":"hero-1","title":"Superman"},{"const":"hero-2","title":"Wonder Woman"}]},
	"pet":{"type":"string","enum":["pet-1","pet-2"],"enumNames":["Cats","Dogs"]},
	"tools":{"type":"array","items":{"type":"string","enum":["Guitar","Piano"]},"maxItems":2}}}`

func TestElicitationSchemaBecomesFields(t *testing.T) {
	fields := mcp.Fields(schema(t, formSchema))
	byName := map[string]mcp.Field{}
	for _, f := range fields {
		byName[f.Name] = f
	}
	assert.Equal(t, "name", fields[0].Name, "required fields first")
	assert.Equal(t, mcp.Field{Name: "name", Label: "Name", Type: "text", Required: true}, byName["name"])
	assert.Equal(t, "integer", byName["age"].Type)
	assert.Equal(t, 150.0, *byName["age"].Max)
	assert.Equal(t, "boolean", byName["agree"].Type)
	assert.Equal(t, "Agree to the terms", byName["agree"].Label)
	assert.Equal(t, "choice", byName["hero"].Type)
	assert.Equal(t, []string{"Superman", "Wonder Woman"}, byName["hero"].Options)
	assert.Equal(t, []string{"Cats", "Dogs"}, byName["pet"].Options)
	assert.Equal(t, "choices", byName["tools"].Type)
	assert.Equal(t, []string{"Guitar", "Piano"}, byName["tools"].Options)
}

func TestElicitationAnswersAreReadIntoTheFields(t *testing.T) {
	fields := mcp.Fields(schema(t, formSchema))
	got, declined, err := mcp.ParseAnswer(fields, "Ada")
	require.NoError(t, err)
	assert.False(t, declined)
	assert.Equal(t, map[string]any{"name": "Ada"}, got, "a plain answer is the one required field")

	got, _, err = mcp.ParseAnswer(fields, "name: Ada\nage: 36\nagree: yes\nhero: Wonder Woman\npet: dogs\ntools: Guitar, Piano")
	require.NoError(t, err)
	assert.Equal(t, map[string]any{"name": "Ada", "age": 36.0, "agree": true, "hero": "hero-2", "pet": "pet-2",
		"tools": []any{"Guitar", "Piano"}}, got)

	got, _, err = mcp.ParseAnswer(fields, `{"name":"Ada","age":36}`)
	require.NoError(t, err)
	assert.Equal(t, map[string]any{"name": "Ada", "age": 36.0}, got)

	_, declined, err = mcp.ParseAnswer(fields, "Decline")
	require.NoError(t, err)
	assert.True(t, declined)

	for answer, problem := range map[string]string{
		"age: 36":                 "name is required",
		"name: Ada\nage: old":     "not a number",
		"name: Ada\nage: 200":     "out of range",
		"name: Ada\nhero: Batman": "not one of Superman, Wonder Woman",
		"name: Ada\nagree: maybe": "yes or no",
	} {
		_, _, err := mcp.ParseAnswer(fields, answer)
		require.Error(t, err, answer)
		assert.Contains(t, err.Error(), problem, answer)
	}
}

func TestElicitationQuestion(t *testing.T) {
	q, choices := mcp.Question("everything", "Pick a pet", mcp.Fields(schema(t, `{"type":"object","properties":{"pet":{"type":"string","enum":["cat","dog"]}}}`)))
	assert.Equal(t, "The MCP server everything asks: Pick a pet", q)
	assert.Equal(t, []string{"cat", "dog", mcp.Decline}, choices, "a lone choice is answered with one click")

	q, choices = mcp.Question("everything", "Who are you?", mcp.Fields(schema(t, formSchema)))
	assert.Contains(t, q, "- name: Name (required)")
	assert.Contains(t, q, "one of Superman, Wonder Woman")
	assert.Equal(t, []string{mcp.Decline}, choices)
}

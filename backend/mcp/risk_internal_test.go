package mcp

import (
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestAToolWhoseSchemaIsNotAnObjectIsRefused(t *testing.T) {
	yes := true
	s := &server{m: NewManager(Options{})}
	s.cfg.Name = "srv"
	s.raw = []*sdk.Tool{
		{Name: "scalar", InputSchema: map[string]any{"type": "string"}},
		{Name: "none"},
		{Name: "fine", InputSchema: map[string]any{"type": "object"}, Annotations: &sdk.ToolAnnotations{DestructiveHint: &yes}},
		{Name: "way-too-long-" + strings.Repeat("x", 60), InputSchema: map[string]any{"type": "object"}},
	}
	s.schemaErrs = checkSchemas(s.raw)
	s.rebuildLocked()
	require.Len(t, s.infos, 4)
	assert.Contains(t, s.infos[0].Refused, "not an object")
	assert.Contains(t, s.infos[1].Refused, "not an object")
	assert.Empty(t, s.infos[2].Refused)
	assert.Equal(t, "destructive", s.infos[2].Risk)
	assert.Contains(t, s.infos[3].Refused, "not one a model accepts")
	require.Len(t, s.offered, 1)
	assert.Equal(t, "srv__fine", s.offered[0].Name())
}

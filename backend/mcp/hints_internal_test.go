package mcp

import (
	"testing"

	"github.com/errand-app/errand/backend/tools"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
)

func TestContradictoryHintsTakeTheRiskierOne(t *testing.T) {
	yes, no := true, false
	assert.Equal(t, tools.RiskDestructive, HintRisk(&sdk.ToolAnnotations{ReadOnlyHint: true, DestructiveHint: &yes}),
		"a tool that says it is read-only and destructive is destructive")
	assert.Equal(t, tools.RiskRead, HintRisk(&sdk.ToolAnnotations{ReadOnlyHint: true, DestructiveHint: &no}))
	assert.Equal(t, tools.RiskRead, HintRisk(&sdk.ToolAnnotations{ReadOnlyHint: true}))
}

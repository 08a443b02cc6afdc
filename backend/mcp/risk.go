package mcp

import (
	"fmt"
	"regexp"

	"github.com/errand-app/errand/backend/tools"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// Separator joins a server's name and its tool's name: server__tool.
const Separator = "__"

var toolNameRe = regexp.MustCompile(`^[A-Za-z0-9_-]{1,64}$`)

// HintRisk is the risk a tool's annotations declare: read-only when
// readOnlyHint, destructive when destructiveHint, otherwise writes.
func HintRisk(a *sdk.ToolAnnotations) tools.Risk {
	switch {
	case a == nil:
		return tools.RiskWrite
	case a.ReadOnlyHint:
		return tools.RiskRead
	case a.DestructiveHint != nil && *a.DestructiveHint:
		return tools.RiskDestructive
	}
	return tools.RiskWrite
}

// RiskOf is the risk in force: the person's override, else the hint.
func RiskOf(a *sdk.ToolAnnotations, override string) tools.Risk {
	if r := tools.Risk(override); r.Valid() {
		return r
	}
	return HintRisk(a)
}

// offerable tells why a server's tool cannot be offered to the model, or
// nil: its full name must be a name the model accepts and its input schema
// an object schema that compiles.
func offerable(fullName string, schema any) (map[string]any, error) {
	if !toolNameRe.MatchString(fullName) {
		return nil, fmt.Errorf("its name %q is not one a model accepts (letters, digits, \"-\" and \"_\", at most 64)", fullName)
	}
	m, _ := schema.(map[string]any)
	if m == nil {
		return nil, fmt.Errorf("its input schema is not an object")
	}
	if err := tools.CheckSchema(fullName, m); err != nil {
		return nil, err
	}
	return m, nil
}

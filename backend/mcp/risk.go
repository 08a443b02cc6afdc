package mcp

import (
	"fmt"
	"regexp"
	"strings"
	"sync"

	"github.com/errand-app/errand/backend/tools"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// Separator joins a server's name and its tool's name: server__tool.
const Separator = "__"

var toolNameRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9_-]{1,64}$`) })

// HintRisk is the risk a tool's annotations declare: destructive when
// destructiveHint (also beside a contradicting readOnlyHint: the riskier
// one holds), read-only when readOnlyHint, otherwise writes.
func HintRisk(a *sdk.ToolAnnotations) tools.Risk {
	switch {
	case a == nil:
		return tools.RiskWrite
	case a.DestructiveHint != nil && *a.DestructiveHint:
		return tools.RiskDestructive
	case a.ReadOnlyHint:
		return tools.RiskRead
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

// checkSchemas checks each tool's input schema. Compiling is bounded in
// size and time (tools.CheckSchema) but may take a while: it runs outside
// every lock.
func checkSchemas(list []*sdk.Tool) map[*sdk.Tool]error {
	out := make(map[*sdk.Tool]error, len(list))
	for _, t := range list {
		m, _ := t.InputSchema.(map[string]any)
		if m == nil {
			out[t] = fmt.Errorf("its input schema is not an object")
			continue
		}
		out[t] = tools.CheckSchema(t.Name, m)
	}
	return out
}

// offerable tells why a server's tool cannot be offered to the model, or
// nil: its full name must be a name the model accepts, and one no other
// server's tool can have (so neither the server's name ends with "_" nor
// the tool's starts with one: x + _y and x_ + y would both be x___y), and
// its input schema an object schema that compiles (checked).
func offerable(server string, t *sdk.Tool, checked map[*sdk.Tool]error) (map[string]any, error) {
	full := server + Separator + t.Name
	switch {
	case t.Name == "":
		return nil, fmt.Errorf("it has no name")
	case strings.HasPrefix(t.Name, "_"), strings.HasSuffix(server, "_"):
		return nil, fmt.Errorf("its name %q could be another server's tool's (a server name ending in \"_\" or a tool name starting with one)", full)
	case !toolNameRe().MatchString(full):
		return nil, fmt.Errorf("its name %q is not one a model accepts (letters, digits, \"-\" and \"_\", at most 64)", full)
	}
	err, done := checked[t]
	if !done {
		err = fmt.Errorf("its input schema was not checked")
	}
	if err != nil {
		return nil, err
	}
	return t.InputSchema.(map[string]any), nil
}

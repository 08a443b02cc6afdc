package secrets

import (
	"os"
	"strings"

	"github.com/errand-app/errand/backend/logfile"
)

// keyVars are the environment variables Errand reads keys from.
var keyVars = []string{"OPENAI_API_KEY"}

// ChildEnv is the environment for a process Errand starts (a command, an
// MCP server): Errand's own, without the variables it reads keys from and
// without any variable whose value holds a secret Errand knows (an API
// key, an MCP server's token; see logfile.Secrets). extra ("NAME=value")
// is added after, for a child that needs its own.
func ChildEnv(extra ...string) []string {
	var env []string
	for _, kv := range os.Environ() {
		name, value, _ := strings.Cut(kv, "=")
		if isKeyVar(name) || logfile.Secrets.Holds(value) {
			continue
		}
		env = append(env, kv)
	}
	return append(env, extra...)
}

func isKeyVar(name string) bool {
	for _, k := range keyVars {
		if strings.EqualFold(name, k) {
			return true
		}
	}
	return false
}

package mcp_test

import (
	"testing"
	"time"

	"github.com/errand-app/errand/backend/chat"
	"github.com/errand-app/errand/backend/logfile"
	"github.com/errand-app/errand/backend/mcp"
	"github.com/stretchr/testify/assert"
)

func TestAServerGetsNoSecretsOfErrandsAndItsTokenIsRedactedFromItsStatus(t *testing.T) {
	// Not parallel: it sets the process's environment.
	const key = "errand-key-0123456789abcdef"
	logfile.Secrets.Add(key) // as Errand does with every key it reads
	t.Setenv("OPENAI_API_KEY", key)
	t.Setenv("OTHER_SERVERS_TOKEN", key)
	const token = "tok-5f3a9c2e71"
	m, w := newManager(t, mcp.Options{StartTimeout: 5 * time.Second})
	m.Set([]chat.MCPServer{{
		ID: "s1", Name: "leaky", Transport: chat.MCPStdio, Command: "bash", Enabled: true,
		Args: []string{"-c", `echo "login refused for $SERVER_TOKEN (keys: [$OPENAI_API_KEY$OTHER_SERVERS_TOKEN])" >&2; exit 3`},
		Env:  map[string]string{"SERVER_TOKEN": token},
	}})
	st := w.wait(t, "s1", "failed", func(s mcp.State) bool { return s.Status == mcp.StatusFailed })
	assert.Contains(t, st.Reason, "login refused for "+logfile.Redacted+" (keys: [])", "the server's token is redacted; Errand's key never reached it")
	assert.NotContains(t, st.Reason, token)
	assert.NotContains(t, st.Reason, key)
}

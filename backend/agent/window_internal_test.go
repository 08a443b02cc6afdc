package agent

import (
	"fmt"
	"strings"
	"testing"

	"github.com/errand-app/errand/backend/chat"
	"github.com/stretchr/testify/assert"
)

func TestTheExecutionLogListsToolRunsAndCountsWhatItLeavesOut(t *testing.T) {
	t.Parallel()
	var history []chat.Message
	for i := range 30 {
		id := fmt.Sprintf("c%d", i)
		history = append(history,
			chat.Message{ID: "a" + id, Role: chat.RoleAssistant, Seq: int64(2 * i), ToolCalls: []chat.ToolCall{{ID: id, Name: "read_file"}}},
			chat.Message{ID: "r" + id, Role: chat.RoleTool, Seq: int64(2*i + 1), ToolCallID: id, ToolName: "read_file", IsError: i%3 == 0})
	}
	history = append(history, chat.Message{ID: "open", Role: chat.RoleAssistant, Seq: 100,
		ToolCalls: []chat.ToolCall{{ID: "x", Name: "run_command"}, {ID: "y", Name: ToolSendUpdate}}})
	log := toolLog("", turns(history, nil))
	lines := strings.Split(log, "\n")
	assert.Len(t, lines, 31, "one line per run; control tools are not listed")
	assert.Equal(t, "- read_file: failed", lines[0])
	assert.Equal(t, "- read_file: succeeded", lines[1])
	assert.Equal(t, "- run_command: did not finish", lines[30])

	log = toolLog(log, turns(history, nil))
	lines = strings.Split(log, "\n")
	assert.Len(t, lines, maxLogLines)
	assert.Equal(t, "- (23 earlier tool runs not listed)", lines[0])
	log = toolLog(log, turns(history[:2], nil))
	assert.Equal(t, "- (24 earlier tool runs not listed)", strings.Split(log, "\n")[0], "the count carries over")
}

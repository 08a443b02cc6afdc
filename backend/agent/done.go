package agent

import (
	"encoding/json"
	"strings"

	"github.com/errand-app/errand/backend/chat"
	"github.com/errand-app/errand/backend/llm"
	"github.com/google/uuid"
)

// DoneMarker ends the reply of a model that says it is done in words
// instead of calling task_complete; the reply then completes the task as
// the call would, with the words before the marker as its summary.
const DoneMarker = "[TASK_COMPLETE]"

// cutMarker returns a reply without the done marker at its end, and
// whether it was there.
func cutMarker(text string) (string, bool) {
	t := strings.TrimRight(text, " \t\r\n*`_.")
	if !strings.HasSuffix(t, DoneMarker) {
		return text, false
	}
	return strings.TrimSpace(strings.TrimSuffix(t, DoneMarker)), true
}

// doneInWords turns a reply that ends the task in words into the
// task_complete call it stands for, so that it completes the task the same
// way — checked against the plan, with the same card, its files and Undo:
// a reply that ends with DoneMarker, or a second text-only reply in a row
// (a model that never calls task_complete must not loop all night). The
// words become the call's summary and leave the message's text.
func (st *loopState) doneInWords(resp *llm.Response) {
	if len(resp.ToolCalls) > 0 {
		return
	}
	text, marked := cutMarker(resp.Content)
	if !marked && st.textStreak < 1 {
		return
	}
	if text = strings.TrimSpace(text); text == "" {
		text = "The task is done."
	}
	args, _ := json.Marshal(map[string]string{"summary": text})
	resp.Content = ""
	resp.ToolCalls = []chat.ToolCall{{ID: "call_" + strings.ReplaceAll(uuid.NewString(), "-", ""), Name: ToolTaskComplete, Arguments: string(args)}}
}

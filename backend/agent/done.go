package agent

import "strings"

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

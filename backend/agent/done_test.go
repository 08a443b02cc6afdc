package agent

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/errand-app/errand/backend/chat"
	"github.com/errand-app/errand/backend/checkpoint"
	"github.com/errand-app/errand/backend/modelserver/compat"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// ending is what the window shows of a finished task: its summary, the
// kinds of its messages after the request (the completion card is the
// task_complete call), and the files it changed (Files changed, Undo).
type taskEnding struct {
	status  chat.TaskStatus
	summary string
	shape   []string
	card    string // the summary the completion card shows
	files   []chat.ChangedFile
}

// endingOf reads a finished task's ending from the store and the keeper.
func endingOf(t *testing.T, h *harness, k *checkpoint.Keeper, task chat.Task) taskEnding {
	t.Helper()
	e := taskEnding{status: task.Status, summary: task.Summary}
	for _, m := range h.messages(task.ConversationID) {
		if m.TaskID != task.ID || m.Role == chat.RoleUser {
			continue
		}
		kind := string(m.Role)
		for _, c := range m.ToolCalls {
			kind += ":" + c.Name
			if c.Name == ToolTaskComplete {
				var a struct{ Summary string }
				require.NoError(t, json.Unmarshal([]byte(c.Arguments), &a))
				e.card = a.Summary
			}
		}
		if m.Role == chat.RoleAssistant && m.Content != "" {
			kind += "+text"
		}
		e.shape = append(e.shape, kind)
	}
	changed, err := k.Changes(context.Background(), task.ID)
	require.NoError(t, err)
	e.files = changed.Files
	return e
}

func runEnding(t *testing.T, replies ...compat.Reply) (taskEnding, *harness, chat.Task) {
	h, k := checkpointed(t, checkpoint.Defaults, replies...)
	conv := h.conversation()
	task := h.start(conv, "Write notes.txt")
	done := h.events.waitEnded(task.ID)
	return endingOf(t, h, k, done), h, done
}

// A model that says it is done with [TASK_COMPLETE] instead of calling
// task_complete completes the task exactly as the call does: the same
// stored messages, the same completion card (without the marker), the
// same Files changed.
func TestAReplyEndingWithTheDoneMarkerCompletesTheTaskAsTheToolDoes(t *testing.T) {
	t.Parallel()
	byTool, _, _ := runEnding(t, writeFile("notes.txt", "milk"), complete("I wrote notes.txt."))
	byWords, h, task := runEnding(t, writeFile("notes.txt", "milk"), compat.Reply{Text: "I wrote notes.txt.\n\n" + DoneMarker})

	require.Equal(t, chat.StatusCompleted, byWords.status)
	assert.Equal(t, byTool, byWords, "the same ending, card and files")
	assert.Equal(t, "I wrote notes.txt.", byWords.card, "the marker is not shown")
	assert.Equal(t, []chat.ChangedFile{{Path: "notes.txt", Change: "created"}}, byWords.files)
	assert.Equal(t, 2, task.StepCount, "no further step was asked for")
	for _, m := range h.messages(task.ConversationID) {
		assert.NotContains(t, m.Content, DoneMarker, "nothing stored holds the marker")
	}
}

// A task that ends because its model answered in words twice in a row
// gets the completion card with its files, like one that called the tool.
func TestATaskEndedByTextOnlyRepliesGetsTheSameCompletionCard(t *testing.T) {
	t.Parallel()
	byTool, _, _ := runEnding(t, writeFile("notes.txt", "milk"), compat.Reply{Text: "Let me check."}, complete("notes.txt holds milk."))
	byWords, h, task := runEnding(t, writeFile("notes.txt", "milk"), compat.Reply{Text: "Let me check."}, compat.Reply{Text: "notes.txt holds milk."},
		complete("again"))

	require.Equal(t, chat.StatusCompleted, byWords.status)
	assert.Equal(t, byTool, byWords, "the same ending, card and files")
	assert.Equal(t, []chat.ChangedFile{{Path: "notes.txt", Change: "created"}}, byWords.files)

	// The conversation stays one the API accepts: the next task's request
	// carries the completion and its result.
	next := h.start(task.ConversationID, "Again")
	assert.Equal(t, chat.StatusCompleted, h.events.waitEnded(next.ID).Status)
}

// A marker in the middle of a reply is just text.
func TestTheDoneMarkerCountsOnlyAtTheEnd(t *testing.T) {
	t.Parallel()
	text, ok := cutMarker("Done.\n**" + DoneMarker + "**\n")
	assert.True(t, ok)
	assert.Equal(t, "Done.\n**", text)
	_, ok = cutMarker("I will write " + DoneMarker + " when finished, not yet.")
	assert.False(t, ok)
}

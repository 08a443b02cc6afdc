package agent

import (
	"context"
	"testing"

	"github.com/errand-app/errand/backend/chat"
	"github.com/errand-app/errand/backend/llm/compat"
	"github.com/errand-app/errand/backend/llm/demo"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func demoScript(req *compat.Request) compat.Reply {
	r := demo.Reply(req)
	r.ChunkDelay = 0
	return r
}

func TestTheDemoModelRunsTheInterviewer(t *testing.T) {
	h := newHarness(t, demoScript, harnessOpts{})
	conv := h.conversation()
	interviewer, _ := chat.BuiltinAgent(chat.AgentInterviewer)
	h.useAgent(conv, interviewer)
	ctx := context.Background()
	task, err := h.runner.StartProactive(ctx, conv)
	require.NoError(t, err)

	form := h.events.waitStatus(task.ID, chat.StatusWaitingUser)
	require.NotEmpty(t, form.PendingFields, "it speaks first, with a form")
	require.NotNil(t, form.Input)
	require.NotNil(t, form.Input.Disabled)
	assert.True(t, *form.Input.Disabled)
	require.Error(t, h.runner.Respond(ctx, task.ID, `{"project":"Garden"}`), "required fields are missing")
	require.NoError(t, h.runner.Respond(ctx, task.ID, `{"project":"Garden planner","goal":"Plan beds","priority":"High","confidence":4}`))

	h.events.wait("the choices", func() bool {
		t := h.task(task.ID)
		return t.Status == chat.StatusWaitingUser && t.PendingMultiple
	})
	require.NoError(t, h.runner.Respond(ctx, task.ID, `["Cost","Quality"]`))
	done := h.events.waitEnded(task.ID)
	require.Equal(t, chat.StatusCompleted, done.Status, done.ErrorMessage)
	msgs := h.messages(conv)
	summary := msgs[len(msgs)-2].Content // before task_complete's result
	assert.Contains(t, summary, "Garden planner")
	assert.Contains(t, summary, "Cost, Quality")
}

func TestTheDemoModelRunsTheQuiz(t *testing.T) {
	h := newHarness(t, demoScript, harnessOpts{})
	conv := h.conversation()
	quiz, _ := chat.BuiltinAgent(chat.AgentQuiz)
	h.useAgent(conv, quiz)
	ctx := context.Background()
	task, err := h.runner.StartProactive(ctx, conv)
	require.NoError(t, err)

	topic := h.events.waitStatus(task.ID, chat.StatusWaitingUser)
	assert.Equal(t, "Which topic should I quiz you on?", topic.PendingQuestion)
	assert.True(t, topic.PendingAllowOther)
	answers := []string{"Geography", "Canberra", "Amazon", "India"}
	asked := map[string]bool{topic.PendingQuestion: true}
	for i, a := range answers {
		require.NoError(t, h.runner.Respond(ctx, task.ID, a))
		if i == len(answers)-1 {
			break
		}
		h.events.wait("the next question", func() bool {
			t := h.task(task.ID)
			return t.Status == chat.StatusWaitingUser && !asked[t.PendingQuestion]
		})
		q := h.task(task.ID)
		asked[q.PendingQuestion] = true
		assert.Len(t, q.PendingChoices, 4, q.PendingQuestion)
	}
	done := h.events.waitEnded(task.ID)
	require.Equal(t, chat.StatusCompleted, done.Status, done.ErrorMessage)
	assert.Equal(t, "Demo quiz: 2 out of 3 right.", done.Summary)
}

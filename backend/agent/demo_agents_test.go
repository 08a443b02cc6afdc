package agent

import (
	"context"
	"fmt"
	"testing"

	"github.com/errand-app/errand/backend/chat"
	"github.com/errand-app/errand/backend/modelserver/compat"
	"github.com/errand-app/errand/backend/modelserver/demo"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func demoScript(req *compat.Request) compat.Reply {
	r := demo.Reply(req)
	r.ChunkDelay = 0
	return r
}

func TestTheDemoModelRunsTheInterviewer(t *testing.T) {
	t.Parallel()
	h := newHarness(t, demoScript, harnessOpts{thinking: true})
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
	t.Parallel()
	h := newHarness(t, demoScript, harnessOpts{thinking: true})
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
	h.convReaches(conv, chat.StateCompleted) // the quiz's conversation is completed
}

func TestTheDemoModelPlansReflectsAndLetsAutoDecide(t *testing.T) {
	t.Parallel()
	h := newHarness(t, demoScript, harnessOpts{thinking: true})
	conv := h.autoConversation()
	ctx := context.Background()

	hi := h.send(conv, "Hi, what can you do?")
	assert.Equal(t, chat.ModeChat, hi.Mode, "a greeting is answered directly")
	h.events.waitStatus(hi.ID, chat.StatusCompleted)

	task := h.send(conv, "Create a file with a packing list for a weekend trip to Lisbon")
	assert.Equal(t, chat.ModeAgent, task.Mode, "a file request runs as a task")
	asked := h.events.waitStatus(task.ID, chat.StatusWaitingUser)
	require.NotNil(t, asked.Plan, "the demo writes a plan first")
	assert.Equal(t, "Plan · 0 of 3", fmt.Sprintf("Plan · %d of %d", asked.Plan.Done(), len(asked.Plan.Steps)))
	require.NoError(t, h.runner.Respond(ctx, task.ID, "A short summary"))
	done := h.events.waitEnded(task.ID)
	require.Equal(t, chat.StatusCompleted, done.Status, done.ErrorMessage)
	assert.Equal(t, 3, done.Plan.Done())
	assert.Equal(t, 1, done.Reflections, "the demo's result was checked once")
	res := resultsOf(h.messages(conv), ToolReflect)
	require.Len(t, res, 1)
	assert.False(t, res[0].IsError)
	assert.Contains(t, res[0].Content, "The goal is achieved")
}

func TestTheDemoQuizEndsTheConversationWhenThePersonWantsToStop(t *testing.T) {
	t.Parallel()
	h := newHarness(t, demoScript, harnessOpts{thinking: true})
	conv := h.conversation()
	quiz, _ := chat.BuiltinAgent(chat.AgentQuiz)
	h.useAgent(conv, quiz)
	ctx := context.Background()
	task, err := h.runner.StartProactive(ctx, conv)
	require.NoError(t, err)
	h.events.waitStatus(task.ID, chat.StatusWaitingUser)
	require.NoError(t, h.runner.Respond(ctx, task.ID, "Stop"))
	done := h.events.waitEnded(task.ID)
	require.Equal(t, chat.StatusCompleted, done.Status, done.ErrorMessage)
	c := h.conv(conv)
	assert.Equal(t, chat.StateEnded, c.State)
	assert.Equal(t, "The person asked to stop the quiz.", c.EndReason)
}

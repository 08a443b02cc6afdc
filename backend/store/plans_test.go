package store

import (
	"context"
	"testing"

	"github.com/errand-app/errand/backend/chat"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestPlanRevisionsAreKeptAndSurviveReopen(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, path := openTemp(t)
	c := newConversation(t, s)
	task, prompt := newTask(c.ID, "Build the site")
	_, err := s.StartTask(ctx, task, prompt)
	require.NoError(t, err)

	_, ok, err := s.Plan(ctx, task.ID)
	require.NoError(t, err)
	assert.False(t, ok, "a new task has no plan")

	first, err := s.SavePlan(ctx, task.ID, []chat.PlanStep{
		{Title: " Write the page ", Status: chat.StepInProgress},
		{Title: "Check the links", Status: chat.StepPending},
	}, "done when every link answers")
	require.NoError(t, err)
	assert.Equal(t, 1, first.Revision)
	assert.Equal(t, c.ID, first.ConversationID)
	assert.Equal(t, "Write the page", first.Steps[0].Title, "titles are trimmed")

	second, err := s.SavePlan(ctx, task.ID, []chat.PlanStep{
		{Title: "Write the page", Status: chat.StepDone},
		{Title: "Check the links", Status: chat.StepInProgress},
	}, "")
	require.NoError(t, err)
	assert.Equal(t, 2, second.Revision)
	assert.Equal(t, 1, second.Done())
	cur, ok := second.Current()
	require.True(t, ok)
	assert.Equal(t, "Check the links", cur.Title)

	require.NoError(t, s.Close())
	s2, err := Open(ctx, path)
	require.NoError(t, err)
	defer s2.Close()
	latest, ok, err := s2.Plan(ctx, task.ID)
	require.NoError(t, err)
	require.True(t, ok)
	assert.Equal(t, second, latest)
	revs, err := s2.PlanRevisions(ctx, task.ID)
	require.NoError(t, err)
	assert.Equal(t, []chat.Plan{first, second}, revs)
	inConv, err := s2.ConversationPlans(ctx, c.ID)
	require.NoError(t, err)
	assert.Equal(t, []chat.Plan{second}, inConv, "the conversation lists each task's newest plan")
}

func TestABadPlanIsRefusedAndNothingIsSaved(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, _ := openTemp(t)
	c := newConversation(t, s)
	task, prompt := newTask(c.ID, "Build the site")
	_, err := s.StartTask(ctx, task, prompt)
	require.NoError(t, err)

	many := make([]chat.PlanStep, chat.MaxPlanSteps+1)
	for i := range many {
		many[i] = chat.PlanStep{Title: "step", Status: chat.StepPending}
	}
	cases := map[string][]chat.PlanStep{
		"at least one step":   nil,
		"at most 50 steps":    many,
		"empty title":         {{Title: "  ", Status: chat.StepPending}},
		"unknown status":      {{Title: "Write", Status: "almost"}},
		"a control character": {{Title: "Write\nit", Status: chat.StepDone}},
	}
	for want, steps := range cases {
		_, err := s.SavePlan(ctx, task.ID, steps, "")
		assert.Equal(t, chat.CodeInvalid, chat.ErrorCode(err), want)
		assert.ErrorContains(t, err, want)
	}
	_, err = s.SavePlan(ctx, "no-such-task", []chat.PlanStep{{Title: "x", Status: chat.StepPending}}, "")
	assert.Equal(t, chat.CodeNotFound, chat.ErrorCode(err))
	revs, err := s.PlanRevisions(ctx, task.ID)
	require.NoError(t, err)
	assert.Empty(t, revs)
}

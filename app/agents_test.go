package app

import (
	"strings"
	"testing"

	"github.com/errand-app/errand/backend/chat"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestAgentDefinitionsCRUDAndImportExport(t *testing.T) {
	t.Parallel()
	a := newApp(t)
	list, err := a.Agents.ListAgents()
	require.NoError(t, err)
	require.Len(t, list, 3)
	assert.Equal(t, []string{"Errand", "Interviewer", "Quiz"}, []string{list[0].Name, list[1].Name, list[2].Name})

	d := chat.AgentDefinition{ID: "reviewer", Name: " Reviewer ", Mode: chat.ChatReactive, CanUserType: true,
		Instructions: "Review code.", Tools: []string{"read_file", "search_text", "github__create_issue"}, Limits: chat.Limits{MaxSteps: 12}}
	made, err := a.Agents.CreateAgent(d)
	require.NoError(t, err)
	assert.Equal(t, "Reviewer", made.Name, "trimmed")

	// Bad input is refused, and nothing is saved.
	for name, bad := range map[string]chat.AgentDefinition{
		"an empty name":     {ID: "x", Name: " ", Mode: chat.ChatReactive},
		"a duplicate id":    d,
		"a built-in's id":   {ID: "quiz", Name: "Q", Mode: chat.ChatReactive},
		"an unknown tool":   {ID: "y", Name: "Y", Mode: chat.ChatReactive, Tools: []string{"rm_rf"}},
		"huge instructions": {ID: "z", Name: "Z", Mode: chat.ChatReactive, Instructions: strings.Repeat("x", 100*1024+1)},
		"a bad id":          {ID: "Has Spaces", Name: "S", Mode: chat.ChatReactive},
		"a bad mode":        {ID: "m", Name: "M", Mode: "chatty"},
	} {
		_, err := a.Agents.CreateAgent(bad)
		assert.Error(t, err, name)
	}
	list, err = a.Agents.ListAgents()
	require.NoError(t, err)
	require.Len(t, list, 4, "only the good one was saved")

	made.Description = "Reads and comments."
	upd, err := a.Agents.UpdateAgent(made)
	require.NoError(t, err)
	assert.Equal(t, "Reads and comments.", upd.Description)
	_, err = a.Agents.UpdateAgent(chat.AgentDefinition{ID: "errand", Name: "Mine", Mode: chat.ChatReactive})
	assert.Error(t, err, "a built-in cannot be changed")

	// Export and import round trip, under a new id.
	text, err := a.Agents.ExportAgent("reviewer")
	require.NoError(t, err)
	_, err = a.Agents.ImportAgent(text)
	assert.Error(t, err, "the id is taken")
	imported, err := a.Agents.ImportAgent(strings.Replace(text, `"id": "reviewer"`, `"id": "reviewer-2"`, 1))
	require.NoError(t, err)
	upd.ID, upd.CreatedAt, upd.UpdatedAt = imported.ID, imported.CreatedAt, imported.UpdatedAt
	assert.Equal(t, upd, imported, "the round trip keeps every field")
	for _, broken := range []string{"", "{", `{"format":"other","agent":{}}`, `{"format":"errand-agent/1","agent":{"id":"q"}}`, `[1,2]`} {
		_, err := a.Agents.ImportAgent(broken)
		assert.Error(t, err, broken)
	}

	// A duplicate of a built-in lists its tools.
	dup, err := a.Agents.DuplicateAgent("errand")
	require.NoError(t, err)
	assert.Equal(t, "Errand (copy)", dup.Name)
	assert.False(t, dup.AllTools)
	assert.Contains(t, dup.Tools, "read_file")

	// Deleting an agent moves its conversations back to Errand, with a notice.
	c, err := a.Conversations.CreateConversation()
	require.NoError(t, err)
	_, err = a.Conversations.SetAgent(c.ID, "reviewer")
	require.NoError(t, err)
	page, err := a.Conversations.ListConversationsPage("", "", 10, "reviewer", false)
	require.NoError(t, err)
	require.Len(t, page.Items, 1, "the list filters by agent")
	require.NoError(t, a.Agents.DeleteAgent("reviewer"))
	got, err := a.Conversations.LoadConversation(c.ID)
	require.NoError(t, err)
	assert.Equal(t, "", got.Conversation.AgentID)
	require.NotEmpty(t, got.Messages)
	assert.Contains(t, got.Messages[len(got.Messages)-1].Content, "The agent Reviewer was deleted")
	page, err = a.Conversations.ListConversationsPage("", "", 10, "errand", false)
	require.NoError(t, err)
	assert.Len(t, page.Items, 1)
	assert.Error(t, a.Agents.DeleteAgent("errand"), "a built-in cannot be deleted")
}

func TestAgentFilesThatHideSomethingAreRefused(t *testing.T) {
	a := newApp(t)
	good := chat.AgentDefinition{ID: "helper", Name: "Helper", Mode: chat.ChatReactive, Description: "Helps.\nTwo lines are fine."}
	made, err := a.Agents.CreateAgent(good)
	require.NoError(t, err)
	text, err := a.Agents.ExportAgent(made.ID)
	require.NoError(t, err)
	require.NoError(t, a.Agents.DeleteAgent(made.ID))

	for name, bad := range map[string]chat.AgentDefinition{
		"a bidi description":  {ID: "b", Name: "B", Mode: chat.ChatReactive, Description: "Safe \u202egnp.exe"},
		"a NUL description":   {ID: "n", Name: "N", Mode: chat.ChatReactive, Description: "a\x00b"},
		"an invisible name":   {ID: "i", Name: "\u200b\u200b", Mode: chat.ChatReactive},
		"a Hangul-blank name": {ID: "h", Name: "\u3164", Mode: chat.ChatReactive},
	} {
		_, err := a.Agents.CreateAgent(bad)
		assert.Error(t, err, name)
	}
	_, err = a.Agents.ImportAgent(text + `{"format":"errand-agent/1","agent":{}}`)
	assert.ErrorContains(t, err, "more after the agent")
	_, err = a.Agents.ImportAgent(text + "\n")
	assert.NoError(t, err, "a final line break is no trailing text")
}

func TestAnAgentShapesTheWindowAndTheFileKeepsIt(t *testing.T) {
	t.Parallel()
	a := newApp(t)
	exam := chat.AgentDefinition{ID: "exam", Name: "Exam", Mode: chat.ChatProactive, Opening: "Ask the first question.",
		ShowHistory: false, ShowEndButton: false, TypeDuringOpening: true}
	made, err := a.Agents.CreateAgent(exam)
	require.NoError(t, err)
	list, err := a.Agents.ListAgents()
	require.NoError(t, err)
	stored := list[len(list)-1]
	assert.False(t, stored.ShowHistory, "hidden history is stored")
	assert.False(t, stored.ShowEndButton, "the hidden End button is stored")
	assert.True(t, stored.TypeDuringOpening)
	for _, d := range list[:3] {
		assert.True(t, d.ShowHistory && d.ShowEndButton, "the built-in %s shows both", d.Name)
	}

	text, err := a.Agents.ExportAgent(made.ID)
	require.NoError(t, err)
	assert.Contains(t, text, `"showHistory": false`)
	imported, err := a.Agents.ImportAgent(strings.Replace(text, `"id": "exam"`, `"id": "exam-2"`, 1))
	require.NoError(t, err)
	assert.False(t, imported.ShowHistory || imported.ShowEndButton, "the round trip keeps both")

	// A file from before these fields shows both.
	old := `{"format":"errand-agent/1","agent":{"id":"old","name":"Old","mode":"reactive","canUserType":true}}`
	got, err := a.Agents.ImportAgent(old)
	require.NoError(t, err)
	assert.True(t, got.ShowHistory && got.ShowEndButton && !got.TypeDuringOpening)

	_, err = a.Agents.ImportAgent(strings.Replace(text, `"showHistory": false`, `"showHistory": "no"`, 1))
	assert.ErrorContains(t, err, "showHistory", "a bad value says which field")
	_, err = a.Agents.CreateAgent(chat.AgentDefinition{ID: "r", Name: "R", Mode: chat.ChatReactive, TypeDuringOpening: true})
	assert.Equal(t, "typeDuringOpening", chat.ErrorField(err), "only a proactive agent has an opening")
	assert.ErrorContains(t, err, "Only a proactive agent")

	_, err = a.Conversations.PlanHistory("")
	assert.Equal(t, chat.CodeInvalid, chat.ErrorCode(err), "Plan history needs a task")
	revs, err := a.Conversations.PlanHistory("no-such-task")
	require.NoError(t, err)
	assert.Empty(t, revs)
}

package main

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/errand-app/errand/backend/modelserver/compat"
)

func TestAgentControlScripts(t *testing.T) {
	t.Parallel()
	url, stderr := start(t, "-log")

	t.Run("write approved", func(t *testing.T) {
		k := newTask(t, url, "[write] a greeting")
		res := k.turn(true)
		assert.Equal(t, "I will write the file.", res.Text)
		assertCall(t, res, "write_file", `{"path":"hello.txt","content":"Hello from Errand"}`)
		k.result("Wrote 17 bytes to hello.txt.")
		res = k.turn(true)
		assert.Equal(t, "Result: Wrote 17 bytes to hello.txt.", res.Text)
		assertCall(t, res, "task_complete", `{"summary":"Finished the write task"}`)
	})

	t.Run("write denied", func(t *testing.T) {
		k := newTask(t, url, "[write] a greeting")
		k.turn(true)
		k.result("The user denied this call. Their reason: not today")
		res := k.turn(true)
		assert.Equal(t, "Result: The user denied this call. Their reason: not today", res.Text)
	})

	t.Run("command", func(t *testing.T) {
		k := newTask(t, url, "[command] list")
		res := k.turn(true)
		assertCall(t, res, "run_command", `{"command":"ls -la && echo done"}`)
		k.result("exit code 0\ndone")
		res = k.turn(true)
		assert.Equal(t, "Result: exit code 0\ndone", res.Text)
	})

	t.Run("remember", func(t *testing.T) {
		k := newTask(t, url, "[remember] my editor")
		res := k.turn(true)
		assertCall(t, res, "remember", `{"key":"favourite editor","value":"helix","scope":"global"}`)
		k.result(`Remembered "favourite editor" for every conversation.`)
		res = k.turn(true)
		assert.Equal(t, `Result: Remembered "favourite editor" for every conversation.`, res.Text)
		assertCall(t, res, "task_complete", `{"summary":"Remembered"}`)
	})

	t.Run("mcp-echo", func(t *testing.T) {
		k := newTask(t, url, "[mcp-echo] say hello")
		res := k.turn(true)
		assertCall(t, res, "everything__echo", `{"message":"hello from the MCP server"}`)
		k.result("Echo: hello from the MCP server")
		res = k.turn(true)
		assert.Equal(t, "Result: Echo: hello from the MCP server", res.Text)
	})

	t.Run("facts", func(t *testing.T) {
		k := newTask(t, url, "[facts] what do you know")
		res := k.turn(true)
		assert.Equal(t, "Facts: none", res.Text)
		k = newTask(t, url, "[facts] what do you know")
		k.msgs[0].Content = compat.Text("You are an agent.\n\n" + factsHeader + "\n- favourite editor: zed (global)\n- language: Go")
		res = k.turn(true)
		assert.Equal(t, "Facts: favourite editor: zed (global) | language: Go", res.Text)
	})

	t.Run("loop", func(t *testing.T) {
		k := newTask(t, url, "[loop] go round")
		for n, want := range []string{"Update 1", "Update 2", "Update 3"} {
			res := k.turn(true)
			assertCall(t, res, "send_update", `{"message":"`+want+`"}`)
			assert.Equal(t, []string{"Step 1.", "Step 2.", "Step 3."}[n], res.Text)
			k.result("The update was shown to the user.")
		}
		res := k.turn(true)
		assertCall(t, res, "task_complete", `{"summary":"Finished after 3 updates"}`)
	})

	t.Run("fail once", func(t *testing.T) {
		k := newTask(t, url, "[fail] then recover")
		req := &compat.Request{Model: "mock-model", Messages: k.msgs, Stream: true, Tools: tools}
		_, err := compat.Do(context.Background(), url, "", req)
		require.Error(t, err)
		assert.Contains(t, err.Error(), "refuses the first request")
		res := k.turn(true)
		assert.Equal(t, "Recovered.", res.Text)
		assertCall(t, res, "task_complete", `{"summary":"Finished after a retry"}`)
	})

	assert.Empty(t, stderr.String(), "no request was refused")
}

// [stall] holds its first two requests (the call and Errand's one retry)
// with nothing sent; the next is answered.
func TestStallScript(t *testing.T) {
	t.Parallel()
	url, _ := start(t)
	k := newTask(t, url, "[stall] then recover")
	req := &compat.Request{Model: "mock-model", Messages: k.msgs, Stream: true, Tools: tools}
	for range 2 {
		ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
		_, err := compat.Do(ctx, url, "", req)
		cancel()
		require.ErrorIs(t, err, context.DeadlineExceeded, "the server sent nothing")
	}
	res := k.turn(true)
	assert.Equal(t, "Recovered.", res.Text)
	assertCall(t, res, "task_complete", `{"summary":"Finished after the stall"}`)
}

// [think] reasons before its send_update and answers at the next step;
// with -thinking its reasoning must come back on that step's request.
func TestThinkScript(t *testing.T) {
	t.Parallel()
	url, stderr := start(t, "-log", "-thinking")
	k := newTask(t, url, "[think] add the odd numbers")
	res := k.turn(true)
	assert.Equal(t, thinkReasoning, res.Reasoning)
	assert.Equal(t, "\n\n", res.Text, "DeepSeek's line ends before a tool call (Errand's adapter drops them)")
	assertCall(t, res, "send_update", `{"message":"Adding the odd numbers"}`)
	k.result("The update was shown to the user.")

	// Without its reasoning the step is refused, as DeepSeek refuses it.
	req := &compat.Request{Model: "mock-model", Messages: k.msgs, Stream: true, Tools: tools}
	_, err := compat.Do(context.Background(), url, "", req)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "must be passed back")

	reasoning := res.Reasoning
	k.msgs[len(k.msgs)-2].ReasoningContent = &reasoning
	req.ReasoningEffort = "high"
	res, err = compat.Do(context.Background(), url, "", req)
	require.NoError(t, err)
	assert.Equal(t, thinkAnswer+" (Reasoning effort: high.)", res.Text)
	assertCall(t, res, "task_complete", `{"summary":"Added the first ten odd numbers"}`)

	req.ReasoningEffort = ""
	res, err = compat.Do(context.Background(), url, "", req)
	require.NoError(t, err)
	assert.Equal(t, thinkAnswer, res.Text, "no effort asked, none said")
	assert.Contains(t, stderr.String(), "must be passed back", "the one refusal was logged")
}

// TestAttachmentsScript: [attachments] says which image parts and which
// code word the prompt message carried, as Chat Completions sends them.
func TestAttachmentsScript(t *testing.T) {
	t.Parallel()
	body := `{"model":"m","messages":[
		{"role":"system","content":"You are Errand."},
		{"role":"user","content":[
			{"type":"text","text":"[attachments] what do these show?"},
			{"type":"image_url","image_url":{"url":"data:image/png;base64,iVBORw0KGgo="}},
			{"type":"text","text":"notes.md:\n# Notes\nThe launch code word is PELICAN-42."}
		]}],
		"tools":[{"type":"function","function":{"name":"task_complete","parameters":{"type":"object"}}}]}`
	req, err := compat.DecodeRequest(strings.NewReader(body))
	require.NoError(t, err)
	r := script(req)
	assert.Equal(t, "Attachments seen: 1 image (image/png); text with PELICAN-42", r.Text)

	plain := &compat.Request{
		Messages: []compat.Message{{Role: "user", Content: compat.Text("[attachments] none")}},
		Tools:    req.Tools,
	}
	assert.Equal(t, "Attachments seen: 0 images; no code word in the text", script(plain).Text)
}

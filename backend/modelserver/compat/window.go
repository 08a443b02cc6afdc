package compat

import (
	"fmt"
	"net/http"

	"github.com/errand-app/errand/backend/chat"
	"github.com/errand-app/errand/backend/contextwin"
	"github.com/errand-app/errand/backend/llm"
)

// CountPrompt counts a request's prompt tokens with the tokenizer Errand
// uses for the request's model, uncalibrated: what a server with a context
// length (Server.ContextLength) holds against it.
func CountPrompt(req *Request) int {
	var r llm.Request
	for _, m := range req.Messages {
		lm := llm.Message{Role: chat.Role(m.Role), Content: m.Text(), ToolCallID: m.ToolCallID}
		for _, tc := range m.ToolCalls {
			lm.ToolCalls = append(lm.ToolCalls, chat.ToolCall{ID: tc.ID, Name: tc.Function.Name, Arguments: tc.Function.Arguments})
		}
		r.Messages = append(r.Messages, lm)
	}
	for _, t := range req.Tools {
		if t.Function != nil {
			r.Tools = append(r.Tools, llm.Tool{Name: t.Function.Name, Description: t.Function.Description, Parameters: t.Function.Parameters})
		}
	}
	return contextwin.NewCounter(req.Model).Raw(r)
}

// contextExceeded is the real API's answer to a request longer than the
// model's context length.
func contextExceeded(limit, got int) *APIError {
	return &APIError{Status: http.StatusBadRequest, Type: "invalid_request_error", Param: "messages", Code: "context_length_exceeded",
		Message: fmt.Sprintf("This model's maximum context length is %d tokens. However, your messages resulted in %d tokens. Please reduce the length of the messages.", limit, got)}
}

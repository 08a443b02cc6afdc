package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/errand-app/errand/backend/tools"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// tool is one of a server's tools, as the agent's registry holds it.
type tool struct {
	s      *server
	name   string // on the server
	full   string // server__tool
	desc   string
	schema map[string]any
	risk   tools.Risk
}

func (t *tool) Name() string           { return t.full }
func (t *tool) Description() string    { return t.desc }
func (t *tool) Schema() map[string]any { return t.schema }
func (t *tool) Risk() tools.Risk       { return t.risk }

// noteNotUndoable records, before a tool that may write is called, that
// what it changes is not kept: Undo changes names it as not undoable.
func (t *tool) noteNotUndoable(ctx context.Context, env tools.Env) error {
	if env.Checkpoints == nil || t.risk == tools.RiskRead {
		return nil
	}
	if err := env.Checkpoints.NotUndoable(ctx, t.full); err != nil {
		return fmt.Errorf("its call could not be recorded for Undo changes (%w)", err)
	}
	return nil
}

// maxResultBytes bounds what one call's result tells the model.
const maxResultBytes = 64 << 10

// Run calls the tool on its server. Stop (ctx) ends the call at once: the
// SDK sends the server the protocol's cancellation and does not wait. A
// call longer than the timeout setting is cancelled the same way.
func (t *tool) Run(ctx context.Context, env tools.Env, args json.RawMessage) (tools.Result, error) {
	conn, err := t.s.connection(ctx)
	if err != nil {
		if ctx.Err() != nil {
			return tools.Result{}, ctx.Err()
		}
		return tools.Result{Content: err.Error(), IsError: true}, nil
	}
	if err := t.noteNotUndoable(ctx, env); err != nil {
		return tools.Result{Content: fmt.Sprintf("%s was not called: %v", t.full, err), IsError: true}, nil
	}
	timeout := t.s.m.opts.CallTimeout()
	callCtx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	defer t.s.pushAsker(callCtx, env.Ask)()
	res, err := conn.CallTool(callCtx, &sdk.CallToolParams{Name: t.name, Arguments: args})
	switch {
	case err == nil:
		return t.s.result(ctx, res), nil
	case ctx.Err() != nil:
		return tools.Result{}, ctx.Err()
	case errors.Is(err, context.DeadlineExceeded):
		return tools.Result{Content: fmt.Sprintf("%s timed out after %s (the MCP call timeout in Settings) and was cancelled.", t.full, timeout), IsError: true}, nil
	case errors.Is(err, sdk.ErrConnectionClosed):
		return tools.Result{Content: fmt.Sprintf("The MCP server %s stopped during the call; it restarts on the next call.", t.s.name()), IsError: true}, nil
	}
	return tools.Result{Content: fmt.Sprintf("%s failed: %v", t.full, err), IsError: true}, nil
}

// result is what the model is told of a call's result: its text, and the
// other content described (an image kept for the window to show).
func (s *server) result(ctx context.Context, res *sdk.CallToolResult) tools.Result {
	var parts []string
	for _, c := range res.Content {
		parts = append(parts, s.describe(ctx, c))
	}
	if len(parts) == 0 && res.StructuredContent != nil {
		b, _ := json.Marshal(res.StructuredContent)
		parts = append(parts, string(b))
	}
	text := strings.Join(parts, "\n")
	if len(text) > maxResultBytes {
		cut := maxResultBytes
		for cut > 0 && !utf8.RuneStart(text[cut]) {
			cut--
		}
		text = text[:cut] + fmt.Sprintf("\n[… cut: the result was %d bytes]", len(text))
	}
	if text == "" {
		text = "(no content)"
	}
	return tools.Result{Content: text, IsError: res.IsError}
}

// ImageRef is how a tool result names a kept image: the window shows the
// image in its place, the model reads the words.
const ImageRef = "errand-image:"

func (s *server) describe(ctx context.Context, c sdk.Content) string {
	switch c := c.(type) {
	case *sdk.TextContent:
		return c.Text
	case *sdk.ImageContent:
		if imgs := s.m.opts.Images; imgs != nil && strings.HasPrefix(c.MIMEType, "image/") {
			if id, err := imgs.SaveToolImage(ctx, c.MIMEType, c.Data); err == nil {
				return fmt.Sprintf("[image %s, %d bytes, shown to the user: %s%s]", c.MIMEType, len(c.Data), ImageRef, id)
			}
		}
		return fmt.Sprintf("[image %s, %d bytes]", c.MIMEType, len(c.Data))
	case *sdk.AudioContent:
		return fmt.Sprintf("[audio %s, %d bytes]", c.MIMEType, len(c.Data))
	case *sdk.ResourceLink:
		return fmt.Sprintf("[resource %s %s]", c.URI, c.Name)
	case *sdk.EmbeddedResource:
		if r := c.Resource; r != nil {
			if r.Text != "" {
				return fmt.Sprintf("[resource %s]\n%s", r.URI, r.Text)
			}
			return fmt.Sprintf("[resource %s, %s, %d bytes]", r.URI, r.MIMEType, len(r.Blob))
		}
	}
	b, _ := json.Marshal(c)
	return string(b)
}

// asker is a call in flight that can put a server's elicitation to the person.
type asker struct {
	ctx context.Context
	ask tools.Asker
}

// pushAsker lets elicitations during the call reach the person; the
// returned func ends that.
func (s *server) pushAsker(ctx context.Context, ask tools.Asker) func() {
	if ask == nil {
		return func() {}
	}
	a := &asker{ctx: ctx, ask: ask}
	s.mu.Lock()
	s.askers = append(s.askers, a)
	s.mu.Unlock()
	return func() {
		s.mu.Lock()
		defer s.mu.Unlock()
		for i, x := range s.askers {
			if x == a {
				s.askers = append(s.askers[:i], s.askers[i+1:]...)
				break
			}
		}
	}
}

// maxElicitTries is how often an answer that does not fit is asked again.
const maxElicitTries = 3

// elicit answers a server's elicitation with an inline question to the
// person behind the latest call in flight; with none, it is declined.
func (s *server) elicit(ctx context.Context, req *sdk.ElicitRequest) (*sdk.ElicitResult, error) {
	s.mu.Lock()
	var a *asker
	if n := len(s.askers); n > 0 {
		a = s.askers[n-1]
	}
	name := s.cfg.Name
	s.mu.Unlock()
	if a == nil || req.Params.Mode == "url" {
		return &sdk.ElicitResult{Action: "decline"}, nil
	}
	// The question ends with the call (Stop) or with the server's request.
	askCtx, cancel := context.WithCancel(a.ctx)
	defer cancel()
	defer context.AfterFunc(ctx, cancel)()
	fields := Fields(req.Params.RequestedSchema)
	question, choices := Question(name, req.Params.Message, fields)
	form, isForm := FormFields(fields)
	if isForm {
		question, choices = Ask(name, req.Params.Message), nil
	}
	q := question
	for try := 1; ; try++ {
		answer, err := a.ask(askCtx, tools.Question{Text: q, Choices: choices, Fields: form})
		if err != nil {
			return nil, err
		}
		content, declined, err := ParseAnswer(fields, answer)
		if declined {
			return &sdk.ElicitResult{Action: "decline"}, nil
		}
		if err == nil {
			return &sdk.ElicitResult{Action: "accept", Content: content}, nil
		}
		if try == maxElicitTries {
			return &sdk.ElicitResult{Action: "cancel"}, nil
		}
		q = fmt.Sprintf("That answer does not fit (%s).\n\n%s", err, question)
	}
}

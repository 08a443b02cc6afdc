package anthropic

import (
	"encoding/base64"
	"encoding/json"

	sdk "github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/packages/param"
	"github.com/errand-app/errand/backend/chat"
	"github.com/errand-app/errand/backend/llm"
)

// params builds the Messages API request. Three cache breakpoints mark
// what repeats from one step to the next: the system prompt, the tools
// and the conversation so far (its last block), so each step pays the
// full input price only for what is new.
func (p *Provider) params(req llm.Request) sdk.MessageNewParams {
	system, msgs := splitSystem(req.Messages)
	budget := ThinkingBudget(req.ReasoningEffort)
	if budget > 0 && !thinkingKept(msgs) {
		// The API refuses thinking on for a turn whose tool calls were
		// made without it (another model, or effort set mid-task); such a
		// step goes without thinking, as Anthropic's documentation advises.
		budget = 0
	}
	params := sdk.MessageNewParams{
		Model:     sdk.Model(p.cfg.Model),
		MaxTokens: int64(p.cfg.MaxTokens) + budget,
		Messages:  toMessages(msgs, budget > 0),
		Tools:     toolParams(req.Tools, req.ToolsKey),
	}
	if system != "" {
		params.System = []sdk.TextBlockParam{{Text: system, CacheControl: sdk.NewCacheControlEphemeralParam()}}
	}
	if budget > 0 {
		params.Thinking = sdk.ThinkingConfigParamUnion{OfEnabled: &sdk.ThinkingConfigEnabledParam{
			BudgetTokens: budget, Display: sdk.ThinkingConfigEnabledDisplaySummarized}}
	}
	return params
}

// splitSystem takes the system messages before the first other message as
// the system prompt; a later one (a notice within the conversation) stays
// in the conversation, as a user's text.
func splitSystem(msgs []llm.Message) (string, []llm.Message) {
	var system string
	i := 0
	for ; i < len(msgs) && msgs[i].Role == chat.RoleSystem; i++ {
		if msgs[i].Content == "" {
			continue
		}
		if system != "" {
			system += "\n\n"
		}
		system += msgs[i].Content
	}
	return system, msgs[i:]
}

// currentTurn is the index of the first message of the current turn: the
// one after the person's last message.
func currentTurn(msgs []llm.Message) int {
	for i := len(msgs) - 1; i >= 0; i-- {
		if msgs[i].Role == chat.RoleUser {
			return i + 1
		}
	}
	return 0
}

// thinkingKept reports whether every assistant message of the current turn
// that made tool calls has thinking blocks to send back.
func thinkingKept(msgs []llm.Message) bool {
	for _, m := range msgs[currentTurn(msgs):] {
		if m.Role == chat.RoleAssistant && len(m.ToolCalls) > 0 && len(thinkingBlocks(m.ReasoningData)) == 0 {
			return false
		}
	}
	return true
}

// thinkingBlocks reads ReasoningData; data another provider wrote (or none)
// gives no blocks.
func thinkingBlocks(data string) []sdk.ContentBlockParamUnion {
	if data == "" {
		return nil
	}
	var kept []thinkingBlock
	if json.Unmarshal([]byte(data), &kept) != nil {
		return nil
	}
	var out []sdk.ContentBlockParamUnion
	for _, b := range kept {
		switch {
		case b.Type == "thinking" && b.Signature != "":
			out = append(out, sdk.NewThinkingBlock(b.Signature, b.Thinking))
		case b.Type == "redacted_thinking" && b.Data != "":
			out = append(out, sdk.NewRedactedThinkingBlock(b.Data))
		}
	}
	return out
}

// toMessages maps the conversation to Anthropic's turns: user and
// assistant alternating, starting with the user; tool results (and
// anything else in a row from the same side) merged into one turn. With
// thinking on, the current turn's assistant messages carry their thinking
// blocks back before their tool calls; older turns' thinking is not sent
// (the API would drop it anyway).
func toMessages(msgs []llm.Message, thinking bool) []sdk.MessageParam {
	turn := currentTurn(msgs)
	var out []sdk.MessageParam
	add := func(user bool, blocks ...sdk.ContentBlockParamUnion) {
		if len(blocks) == 0 {
			return
		}
		if n := len(out); n > 0 && (out[n-1].OfUser != nil) == user {
			appendBlocks(&out[n-1], blocks)
			return
		}
		if len(out) == 0 && !user {
			out = append(out, sdk.NewUserMessage(sdk.NewTextBlock("(The conversation continues.)")))
		}
		if user {
			out = append(out, sdk.NewUserMessage(blocks...))
		} else {
			out = append(out, sdk.NewAssistantMessage(blocks...))
		}
	}
	for i, m := range msgs {
		switch m.Role {
		case chat.RoleUser, chat.RoleSystem:
			if m.Content != "" {
				add(true, sdk.NewTextBlock(m.Content))
			}
			add(true, imageBlocks(m.Images)...)
		case chat.RoleTool:
			add(true, toolResult(m))
		case chat.RoleAssistant:
			var blocks []sdk.ContentBlockParamUnion
			if thinking && i >= turn && len(m.ToolCalls) > 0 {
				blocks = thinkingBlocks(m.ReasoningData)
			}
			if m.Content != "" {
				blocks = append(blocks, sdk.NewTextBlock(m.Content))
			}
			for _, c := range m.ToolCalls {
				blocks = append(blocks, sdk.NewToolUseBlock(c.ID, toolInput(c.Arguments), c.Name))
			}
			add(false, blocks...)
		}
	}
	markLast(out)
	return out
}

// appendBlocks adds blocks to a turn, tool results first as the API wants
// them in a user turn.
func appendBlocks(m *sdk.MessageParam, blocks []sdk.ContentBlockParamUnion) {
	var content *[]sdk.ContentBlockParamUnion
	if m.OfUser != nil {
		content = &m.OfUser.Content
	} else {
		content = &m.OfAssistant.Content
	}
	all := append(*content, blocks...)
	if m.OfUser != nil {
		var results, rest []sdk.ContentBlockParamUnion
		for _, b := range all {
			if b.OfToolResult != nil {
				results = append(results, b)
			} else {
				rest = append(rest, b)
			}
		}
		all = append(results, rest...)
	}
	*content = all
}

// toolResult is a tool message as a tool_result block (an empty result
// has no content: the API refuses an empty text block).
func toolResult(m llm.Message) sdk.ContentBlockParamUnion {
	r := sdk.ToolResultBlockParam{ToolUseID: m.ToolCallID}
	if m.Content != "" {
		r.Content = []sdk.ToolResultBlockParamContentUnion{{OfText: &sdk.TextBlockParam{Text: m.Content}}}
	}
	// The images a tool returned go inside its result, as the API allows.
	for _, b := range imageBlocks(m.Images) {
		r.Content = append(r.Content, sdk.ToolResultBlockParamContentUnion{OfImage: b.OfImage})
	}
	return sdk.ContentBlockParamUnion{OfToolResult: &r}
}

// imageBlocks are images as base64 image blocks.
func imageBlocks(images []llm.Image) []sdk.ContentBlockParamUnion {
	out := make([]sdk.ContentBlockParamUnion, 0, len(images))
	for _, img := range images {
		out = append(out, sdk.NewImageBlockBase64(img.Mime, base64.StdEncoding.EncodeToString(img.Data)))
	}
	return out
}

// toolInput is a call's arguments as the JSON object the API wants; what
// is not one (a call cut off mid-arguments) goes as the empty object.
func toolInput(args string) any {
	var obj map[string]any
	if json.Unmarshal([]byte(args), &obj) != nil || obj == nil {
		return map[string]any{}
	}
	return json.RawMessage(args)
}

// markLast puts a cache breakpoint on the last block of the last turn
// that can carry one.
func markLast(msgs []sdk.MessageParam) {
	if len(msgs) == 0 {
		return
	}
	m := msgs[len(msgs)-1]
	var content []sdk.ContentBlockParamUnion
	if m.OfUser != nil {
		content = m.OfUser.Content
	} else {
		content = m.OfAssistant.Content
	}
	if len(content) == 0 {
		return
	}
	if cc := content[len(content)-1].GetCacheControl(); cc != nil {
		*cc = sdk.NewCacheControlEphemeralParam()
	}
}

// encodedTools are the tool sets sent so far.
var encodedTools llm.ToolSets[sdk.ToolUnionParam]

// toolParams are tools as the request's parameters: encoded once for each
// key, and anew every time when key is "".
func toolParams(tools []llm.Tool, key string) []sdk.ToolUnionParam {
	if len(tools) == 0 {
		return nil
	}
	return encodedTools.Get(key, func() ([]sdk.ToolUnionParam, error) { return encodedToolParams(tools) },
		func() []sdk.ToolUnionParam { return toTools(tools) })
}

// encodedToolParams are toTools encoded now.
func encodedToolParams(tools []llm.Tool) ([]sdk.ToolUnionParam, error) {
	return llm.Encoded(toTools(tools), func(b json.RawMessage) sdk.ToolUnionParam {
		return param.Override[sdk.ToolUnionParam](b)
	})
}

// toTools maps tool definitions, with a cache breakpoint on the last (it
// caches them all).
func toTools(tools []llm.Tool) []sdk.ToolUnionParam {
	out := make([]sdk.ToolUnionParam, 0, len(tools))
	for _, t := range tools {
		tp := sdk.ToolParam{Name: t.Name, InputSchema: toSchema(t.Parameters)}
		if t.Description != "" {
			tp.Description = param.NewOpt(t.Description)
		}
		out = append(out, sdk.ToolUnionParam{OfTool: &tp})
	}
	if n := len(out); n > 0 {
		out[n-1].OfTool.CacheControl = sdk.NewCacheControlEphemeralParam()
	}
	return out
}

// toSchema splits a JSON schema of type object into the SDK's fields.
func toSchema(schema map[string]any) sdk.ToolInputSchemaParam {
	s := sdk.ToolInputSchemaParam{ExtraFields: map[string]any{}}
	for k, v := range schema {
		switch k {
		case "type":
		case "properties":
			s.Properties = v
		case "required":
			s.Required = stringList(v)
		default:
			s.ExtraFields[k] = v
		}
	}
	if s.Properties == nil {
		s.Properties = map[string]any{}
	}
	return s
}

// stringList reads a JSON array of strings, []string or []any.
func stringList(v any) []string {
	switch v := v.(type) {
	case []string:
		return v
	case []any:
		out := make([]string, 0, len(v))
		for _, x := range v {
			if s, ok := x.(string); ok {
				out = append(out, s)
			}
		}
		return out
	}
	return nil
}

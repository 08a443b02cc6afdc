package openai

import (
	"encoding/json"

	"github.com/errand-app/errand/backend/llm"
	oa "github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/packages/param"
	"github.com/openai/openai-go/v3/shared"
)

// encodedTools are the tool sets sent so far, shared by all providers of
// this API.
var encodedTools llm.ToolSets[oa.ChatCompletionToolUnionParam]

// toolParams are tools as the request's parameters: encoded once for each
// key, and anew every time when key is "".
func toolParams(tools []llm.Tool, key string) []oa.ChatCompletionToolUnionParam {
	if len(tools) == 0 {
		return nil
	}
	return encodedTools.Get(key,
		func() ([]oa.ChatCompletionToolUnionParam, error) { return encodedToolParams(tools) },
		func() []oa.ChatCompletionToolUnionParam { return plainToolParams(tools) })
}

// plainToolParams are tools as openai-go's parameters, encoded when sent.
func plainToolParams(tools []llm.Tool) []oa.ChatCompletionToolUnionParam {
	out := make([]oa.ChatCompletionToolUnionParam, len(tools))
	for i, t := range tools {
		out[i] = oa.ChatCompletionFunctionTool(shared.FunctionDefinitionParam{
			Name:        t.Name,
			Description: oa.String(t.Description),
			Parameters:  shared.FunctionParameters(t.Parameters),
		})
	}
	return out
}

// encodedToolParams are the same parameters encoded now: each one is sent
// as the JSON openai-go made of it here. The slice's capacity is its
// length, so that no request appends to a shared one.
func encodedToolParams(tools []llm.Tool) ([]oa.ChatCompletionToolUnionParam, error) {
	out := plainToolParams(tools)
	for i, p := range out {
		b, err := json.Marshal(p)
		if err != nil {
			return nil, err
		}
		out[i] = param.Override[oa.ChatCompletionToolUnionParam](json.RawMessage(b))
	}
	return out[:len(out):len(out)], nil
}

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

// encodedToolParams are the same parameters encoded now.
func encodedToolParams(tools []llm.Tool) ([]oa.ChatCompletionToolUnionParam, error) {
	return llm.Encoded(plainToolParams(tools), func(b json.RawMessage) oa.ChatCompletionToolUnionParam {
		return param.Override[oa.ChatCompletionToolUnionParam](b)
	})
}

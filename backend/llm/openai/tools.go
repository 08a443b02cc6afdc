package openai

import (
	"encoding/json"
	"sync"

	"github.com/errand-app/errand/backend/llm"
	oa "github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/packages/param"
	"github.com/openai/openai-go/v3/shared"
)

// maxEncodedToolSets bounds encodedTools: past it the table starts again
// (a settings edit or an MCP server coming and going makes a new set; a
// long session should not keep every one).
const maxEncodedToolSets = 32

// encodedTools are the tool sets sent so far, by their llm.Request.ToolsKey,
// each tool already encoded as JSON. openai-go encodes a tool's schema by
// reflection on every request, which was the largest part of the work
// between a task's start and its first request; the encoding of a set
// depends on nothing but the set, so all providers share it.
var encodedTools struct {
	mu   sync.Mutex
	sets map[string][]oa.ChatCompletionToolUnionParam
}

// toolParams are tools as the request's parameters: encoded once for each
// key, and anew every time when key is "".
func toolParams(tools []llm.Tool, key string) []oa.ChatCompletionToolUnionParam {
	if len(tools) == 0 {
		return nil
	}
	if key == "" {
		return plainToolParams(tools)
	}
	encodedTools.mu.Lock()
	set, ok := encodedTools.sets[key]
	encodedTools.mu.Unlock()
	if ok {
		return set
	}
	set, err := encodedToolParams(tools)
	if err != nil {
		// Left to the request's own encoding, which reports it.
		return plainToolParams(tools)
	}
	encodedTools.mu.Lock()
	defer encodedTools.mu.Unlock()
	if encodedTools.sets == nil || len(encodedTools.sets) >= maxEncodedToolSets {
		encodedTools.sets = map[string][]oa.ChatCompletionToolUnionParam{}
	}
	encodedTools.sets[key] = set
	return set
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

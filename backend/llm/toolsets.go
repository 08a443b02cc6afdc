package llm

import (
	"encoding/json"
	"sync"
)

// maxToolSets bounds a ToolSets: past it the table starts again (a settings
// edit or an MCP server coming and going makes a new set; a long session
// should not keep every one).
const maxToolSets = 32

// ToolSets keeps the tool sets a provider sent so far, by
// Request.ToolsKey, each encoded as the provider's SDK sends it. The SDKs
// encode a tool's schema by reflection on every request, which was the
// largest part of the work between a task's start and its first request;
// a set's encoding depends on nothing but the set.
type ToolSets[T any] struct {
	mu   sync.Mutex
	sets map[string][]T
}

// Get is key's set: encoded by encode the first time, then the same. With
// key "" (tools that have no name), or when encode fails (the request's own
// encoding then reports it), it is plain's, made anew each time.
func (c *ToolSets[T]) Get(key string, encode func() ([]T, error), plain func() []T) []T {
	if key == "" {
		return plain()
	}
	c.mu.Lock()
	set, ok := c.sets[key]
	c.mu.Unlock()
	if ok {
		return set
	}
	set, err := encode()
	if err != nil {
		return plain()
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.sets == nil || len(c.sets) >= maxToolSets {
		c.sets = map[string][]T{}
	}
	c.sets[key] = set
	return set
}

// Encoded is params encoded now, each as JSON that override makes into a
// param the SDK sends as it is. The slice's capacity is its length, so
// that no request appends to a shared one.
func Encoded[T any](params []T, override func(json.RawMessage) T) ([]T, error) {
	for i, p := range params {
		b, err := json.Marshal(p)
		if err != nil {
			return nil, err
		}
		params[i] = override(b)
	}
	return params[:len(params):len(params)], nil
}

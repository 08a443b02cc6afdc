package llm

import (
	"encoding/json"
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
)

// A named set is encoded once and then handed out as it was; a set without
// a name, or one that cannot be encoded, is made anew each time.
func TestToolSetsEncodeANamedSetOnce(t *testing.T) {
	t.Parallel()
	var sets ToolSets[string]
	encodes, plains := 0, 0
	encode := func() ([]string, error) { encodes++; return []string{"encoded"}, nil }
	plain := func() []string { plains++; return []string{"plain"} }

	for range 3 {
		assert.Equal(t, []string{"encoded"}, sets.Get("tools", encode, plain))
	}
	assert.Equal(t, 1, encodes, "encoded once for its name")
	for range 2 {
		assert.Equal(t, []string{"plain"}, sets.Get("", encode, plain))
	}
	assert.Equal(t, 1, encodes, "a set without a name is not kept")
	assert.Equal(t, 2, plains)

	failing := func() ([]string, error) { encodes++; return nil, errors.New("no") }
	assert.Equal(t, []string{"plain"}, sets.Get("broken", failing, plain))
	assert.Equal(t, []string{"plain"}, sets.Get("broken", failing, plain))
	assert.Equal(t, 3, encodes, "a set that failed is tried again, not kept")
}

// Past maxToolSets names the table starts again: a long session keeps no
// more than that many sets.
func TestToolSetsKeepABoundedNumber(t *testing.T) {
	t.Parallel()
	var sets ToolSets[int]
	encodes := 0
	for i := range maxToolSets + 1 {
		sets.Get(fmt.Sprint(i), func() ([]int, error) { encodes++; return []int{i}, nil }, nil)
	}
	assert.Len(t, sets.sets, 1, "the table started again")
	sets.Get("0", func() ([]int, error) { encodes++; return []int{0}, nil }, nil)
	assert.Equal(t, maxToolSets+2, encodes, "a set dropped is encoded again")
}

// Encoded's slice cannot be appended to in place: a request that adds a
// tool gets its own array.
func TestEncodedLeavesNoRoomToAppend(t *testing.T) {
	t.Parallel()
	params := make([]json.RawMessage, 2, 8)
	out, err := Encoded(params, func(b json.RawMessage) json.RawMessage { return b })
	assert.NoError(t, err)
	assert.Equal(t, len(out), cap(out))
	assert.JSONEq(t, `null`, string(out[0]))
}

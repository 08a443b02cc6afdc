package tools

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestASchemaThatRefersToAFileIsRefusedWithoutOpeningIt(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	local := filepath.Join(dir, "local.json")
	require.NoError(t, os.WriteFile(local, []byte(`{"type":"string","description":"the content of a local file"}`), 0o600))
	// A FIFO nobody writes to: opening it for reading blocks for ever.
	fifo := filepath.Join(dir, "pipe")
	require.NoError(t, syscall.Mkfifo(fifo, 0o600))
	for _, ref := range []string{"file://" + local, "file://" + fifo, "https://example.com/schema.json"} {
		schema := map[string]any{"type": "object", "properties": map[string]any{"x": map[string]any{"$ref": ref}}}
		done := make(chan error, 1)
		go func() { done <- CheckSchema("srv__tool", schema) }()
		err := <-done
		require.Error(t, err, ref)
		assert.Contains(t, err.Error(), "refers to "+ref, "the reason names the reference")
	}
}

func TestAHugeSchemaIsRefused(t *testing.T) {
	t.Parallel()
	props := map[string]any{}
	for i := range 20000 {
		props[fmt.Sprintf("field_%05d", i)] = map[string]any{"type": "string", "description": strings.Repeat("x", 20)}
	}
	err := CheckSchema("srv__tool", map[string]any{"type": "object", "properties": props})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "over the limit")
}

// countingTool counts how often its schema is read: once per compile.
type countingTool struct {
	fakeTool
	reads *atomic.Int64
}

func (c countingTool) Schema() map[string]any { c.reads.Add(1); return c.fakeTool.Schema() }

type listSource struct {
	tools []Tool
	gen   uint64
}

func (s listSource) Tools() ([]Tool, uint64) { return s.tools, s.gen }
func (s listSource) Generation() uint64      { return s.gen }

func TestADuplicateAmongManyToolsCostsOneBuild(t *testing.T) {
	t.Parallel()
	var reads atomic.Int64
	var extra []Tool
	for i := range 500 {
		extra = append(extra, countingTool{fakeTool{fmt.Sprintf("srv__t%d", i), RiskRead, Object(map[string]any{})}, &reads})
	}
	extra = append(extra, countingTool{fakeTool{"srv__t7", RiskRead, Object(map[string]any{})}, &reads})
	live := NewLive(controlSpecs(), nil, listSource{extra, 1})
	reg := live.Registry()
	assert.NotNil(t, reg.Tool("srv__t499"), "the tools after the duplicate are offered")
	assert.NotNil(t, reg.Tool("srv__t7"))
	assert.Len(t, reg.Definitions(), 2+500, "the duplicate is left out")
	assert.LessOrEqual(t, reads.Load(), int64(len(extra)), "each schema compiled once, not once per tool")
}

func TestTheFixedToolsAreReadiedOnFirstUseNotWhenMade(t *testing.T) {
	t.Parallel()
	var reads atomic.Int64
	fixed := []Tool{countingTool{fakeTool{"counted", RiskRead, Object(map[string]any{})}, &reads}}
	live := NewLive(controlSpecs(), fixed, nil)
	assert.Zero(t, reads.Load(), "making it compiles no schema (nor tries the sandbox)")
	live.Prepare()
	assert.EqualValues(t, 1, reads.Load())
	assert.NotNil(t, live.Registry().Tool("counted"))
	assert.EqualValues(t, 1, reads.Load(), "readied once")

	bad := NewLive(nil, []Tool{fakeTool{"broken", RiskRead, map[string]any{"type": 12}}}, nil)
	defer func() {
		err, _ := recover().(error)
		require.Error(t, err, "a fixed tool's bad schema is a programming error: it panics on first use")
		assert.Contains(t, err.Error(), "tool broken schema")
	}()
	bad.Registry()
}

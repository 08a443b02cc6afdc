package contextwin

import (
	"testing"

	"github.com/errand-app/errand/backend/chat"
	"github.com/errand-app/errand/backend/llm"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestImageTokensFollowThePublishedFormulas(t *testing.T) {
	t.Parallel()
	// OpenAI's own examples: 1024×1024 is 765 tokens; 2048×4096 is 1105.
	assert.Equal(t, 765, OpenAIImageTokens(1024, 1024))
	assert.Equal(t, 1105, OpenAIImageTokens(2048, 4096))
	assert.Equal(t, 255, OpenAIImageTokens(300, 200), "one tile")
	// Anthropic's: a 1000×1000 image is about 1334 tokens; a large one is
	// resized to about 1.15 megapixels first.
	assert.Equal(t, 1334, AnthropicImageTokens(1000, 1000))
	assert.InDelta(t, 1534, AnthropicImageTokens(4000, 3000), 2)

	img := llm.Image{Width: 2048, Height: 1536, Name: "photo.jpg"}
	msg := llm.Message{Role: chat.RoleUser, Content: "look", Images: []llm.Image{img}}
	plain := llm.Message{Role: chat.RoleUser, Content: "look"}
	gpt, claude := NewCounter("gpt-4o"), NewCounter("claude-sonnet-4")
	assert.Equal(t, OpenAIImageTokens(2048, 1536), gpt.Message(msg)-gpt.Message(plain), "the budget counts the image")
	assert.Equal(t, AnthropicImageTokens(2048, 1536), claude.Message(msg)-claude.Message(plain))
}

func TestOldImagesLeaveTheRequestBeforeAnyText(t *testing.T) {
	t.Parallel()
	c := NewCounter("gpt-4o")
	img := llm.Image{Width: 2048, Height: 2048, Name: "whiteboard.png"}
	units := []Unit{
		c.Unit([]llm.Message{{Role: chat.RoleUser, Content: "What is on the whiteboard?", Images: []llm.Image{img}}}, 1),
		c.Unit([]llm.Message{{Role: chat.RoleAssistant, Content: "A plan in three steps."}}, 2),
		c.Unit([]llm.Message{{Role: chat.RoleUser, Content: "Do step one."}}, 3),
		c.Unit([]llm.Message{{Role: chat.RoleAssistant, Content: "Done."}}, 4),
	}
	limit := sum(units) - 100 // the image must go; the text fits
	f, ok := c.Fit(units, limit)
	require.True(t, ok)
	assert.Zero(t, f.Dropped, "no message is left out")
	assert.False(t, llm.HasImages(f.Messages), "the old image is left out")
	assert.Contains(t, f.Messages[0].Content, "What is on the whiteboard?")
	assert.Contains(t, f.Messages[0].Content, `[Image "whiteboard.png" was shown earlier; left out of this request to save room.]`)
	assert.Less(t, Projected(units), sum(units)-OpenAIImageTokens(2048, 2048)+10,
		"compaction is decided on the size without the old image")

	recent := []Unit{units[2], c.Unit([]llm.Message{{Role: chat.RoleUser, Content: "And this?", Images: []llm.Image{img}}}, 5)}
	f, ok = c.Fit(recent, sum(recent))
	require.True(t, ok)
	assert.True(t, llm.HasImages(f.Messages), "the latest message keeps its image")
}

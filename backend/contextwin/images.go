package contextwin

import (
	"fmt"
	"math"
	"strings"

	"github.com/errand-app/errand/backend/llm"
)

// unknownImageTokens is what an image of unknown size is counted as:
// OpenAI's cost of a 1024×1024 image.
const unknownImageTokens = 765

// OpenAIImageTokens is OpenAI's published cost of an image at high
// detail: fitted within 2048×2048, then its shortest side scaled to 768,
// 85 tokens plus 170 for each 512-pixel tile it covers.
func OpenAIImageTokens(w, h int) int {
	if w <= 0 || h <= 0 {
		return unknownImageTokens
	}
	fw, fh := float64(w), float64(h)
	if s := 2048 / math.Max(fw, fh); s < 1 {
		fw, fh = fw*s, fh*s
	}
	if s := 768 / math.Min(fw, fh); s < 1 {
		fw, fh = fw*s, fh*s
	}
	tiles := math.Ceil(fw/512) * math.Ceil(fh/512)
	return 85 + 170*int(tiles)
}

// AnthropicImageTokens is Anthropic's published estimate, width × height
// / 750, of the image as the API resizes it: its long edge at most 1,568
// pixels and its area at most about 1.15 megapixels.
func AnthropicImageTokens(w, h int) int {
	if w <= 0 || h <= 0 {
		return unknownImageTokens
	}
	fw, fh := float64(w), float64(h)
	if s := 1568 / math.Max(fw, fh); s < 1 {
		fw, fh = fw*s, fh*s
	}
	if s := math.Sqrt(1_150_000 / (fw * fh)); s < 1 {
		fw, fh = fw*s, fh*s
	}
	return int(math.Ceil(fw * fh / 750))
}

// isClaude reports a model counted with Anthropic's formula.
func isClaude(model string) bool { return strings.Contains(strings.ToLower(model), "claude") }

// Image counts one image the model is sent, by its provider's formula.
func (c *Counter) Image(img llm.Image) int {
	if c.claude {
		return AnthropicImageTokens(img.Width, img.Height)
	}
	return OpenAIImageTokens(img.Width, img.Height)
}

// withoutImages returns u with its images left out, each named in its
// message's text, recounted; u itself when it has none.
func (c *Counter) withoutImages(u Unit) Unit {
	if !llm.HasImages(u.Messages) {
		return u
	}
	msgs := make([]llm.Message, len(u.Messages))
	for i, m := range u.Messages {
		for _, img := range m.Images {
			m.Content += fmt.Sprintf("\n[Image %q was shown earlier; left out of this request to save room.]", img.Name)
		}
		m.Images = nil
		msgs[i] = m
	}
	out := c.Unit(msgs, u.Seq)
	out.Pinned = u.Pinned
	return out
}

// imageCost estimates what the images of msgs cost (by OpenAI's formula,
// which counts more than Anthropic's for the same image).
func imageCost(msgs []llm.Message) int {
	n := 0
	for _, m := range msgs {
		for _, img := range m.Images {
			n += OpenAIImageTokens(img.Width, img.Height)
		}
	}
	return n
}

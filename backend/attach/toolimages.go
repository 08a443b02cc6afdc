package attach

import (
	"context"
	"sync"

	"github.com/errand-app/errand/backend/llm"
)

// ToolImages reads the images MCP tools returned (the store keeps them).
type ToolImages interface {
	ToolImage(ctx context.Context, id string) (mime string, data []byte, err error)
}

// toolCacheSize bounds the tool images kept ready for the model: a
// task's steps send the same few again and again.
const toolCacheSize = 16

// toolCache keeps the model copies of the latest tool images, by id.
type toolCache struct {
	mu   sync.Mutex
	imgs map[string]llm.Image
}

// ToolImage is an image a tool returned as the model is sent it:
// downscaled and re-encoded like a person's (see modelCopy).
func (s *Service) ToolImage(ctx context.Context, id string) (llm.Image, error) {
	s.tools.mu.Lock()
	img, ok := s.tools.imgs[id]
	s.tools.mu.Unlock()
	if ok {
		return img, nil
	}
	if s.toolImages == nil {
		return llm.Image{}, errNoToolImages
	}
	_, data, err := s.toolImages.ToolImage(ctx, id)
	if err != nil {
		return llm.Image{}, err
	}
	img, err = forModel("image returned by a tool", data)
	if err != nil {
		return llm.Image{}, err
	}
	s.tools.mu.Lock()
	defer s.tools.mu.Unlock()
	if s.tools.imgs == nil || len(s.tools.imgs) >= toolCacheSize {
		s.tools.imgs = map[string]llm.Image{}
	}
	s.tools.imgs[id] = img
	return img, nil
}

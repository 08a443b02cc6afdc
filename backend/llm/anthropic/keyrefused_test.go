package anthropic_test

import (
	"context"
	"errors"
	"testing"

	"github.com/errand-app/errand/backend/llm"
	"github.com/errand-app/errand/backend/modelserver/anthropictest"
	"github.com/stretchr/testify/assert"
)

// A refusal of the credentials is marked as such, so that a request sent
// without the key saved for another address can be explained.
func TestARefusedKeyIsMarkedAsSuch(t *testing.T) {
	t.Parallel()
	for status, refused := range map[int]bool{401: true, 403: true, 404: false, 500: false} {
		srv := anthropictest.New(func(*anthropictest.Request) anthropictest.Reply { return anthropictest.Reply{Status: status} })
		_, err := newProvider(t, srv).Stream(context.Background(), userAsks("hi"), llm.Deltas{})
		assert.Equal(t, refused, errors.Is(err, llm.ErrKeyRefused), "HTTP %d", status)
	}
}

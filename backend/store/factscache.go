package store

import (
	"slices"
	"sync"

	"github.com/errand-app/errand/backend/chat"
)

// factsCache keeps the facts each conversation's agent sees (Facts), read
// once and kept until a fact changes: the agent shows them in every
// request, and they change only when the person or the agent changes one,
// through the store, which then forgets them all.
type factsCache struct {
	mu     sync.Mutex
	gen    uint64 // counts the changes; a read begun before one is not kept
	byConv map[string][]chat.Fact
}

// get returns the facts kept for conversationID, or the generation a read
// from the database must be kept under.
func (c *factsCache) get(conversationID string) (facts []chat.Fact, gen uint64, ok bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	facts, ok = c.byConv[conversationID]
	return slices.Clone(facts), c.gen, ok
}

// put keeps what a read found, unless a fact changed since it began.
func (c *factsCache) put(gen uint64, conversationID string, facts []chat.Fact) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if gen != c.gen {
		return
	}
	if c.byConv == nil {
		c.byConv = map[string][]chat.Fact{}
	}
	c.byConv[conversationID] = slices.Clone(facts)
}

// changed forgets every conversation's facts; each write to the facts
// calls it once its transaction has ended.
func (c *factsCache) changed() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.gen++
	c.byConv = nil
}

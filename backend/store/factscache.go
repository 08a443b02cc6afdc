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
	// shared, once read, holds the global facts and names the
	// conversations with facts of their own: any other conversation (a
	// new one, say) sees the global facts alone, with no read of its own.
	shared *sharedFacts
}

type sharedFacts struct {
	global []chat.Fact
	owners map[string]bool
}

// get returns the facts kept for conversationID, or the generation a read
// from the database must be kept under and whether the shared facts are
// kept (then only the conversation's own need reading).
func (c *factsCache) get(conversationID string) (facts []chat.Fact, gen uint64, ok, shared bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if facts, ok = c.byConv[conversationID]; ok {
		return slices.Clone(facts), c.gen, true, true
	}
	if c.shared != nil && !c.shared.owners[conversationID] {
		return slices.Clone(c.shared.global), c.gen, true, true
	}
	return nil, c.gen, false, c.shared != nil
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

// putShared keeps the shared facts, unless a fact changed since their read
// began.
func (c *factsCache) putShared(gen uint64, s *sharedFacts) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if gen == c.gen {
		c.shared = s
	}
}

// changed forgets every conversation's facts; each write to the facts
// calls it once its transaction has ended.
func (c *factsCache) changed() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.gen++
	c.byConv = nil
	c.shared = nil
}

package bpe

// pieceTokens is the number of tokens a piece of the split text encodes
// to: its bytes are parts, and the adjacent pair whose bytes make the
// lowest-ranked token merges first (the leftmost of equal ranks), until no
// adjacent pair makes a token. The pairs wait in a heap, so a long piece
// (a run of letters, a line of one character) costs n log n, not n².
func (v vocabulary) pieceTokens(piece string) int {
	if _, ok := v.rank(piece); ok {
		return 1
	}
	if len(piece) < 2 {
		return len(piece)
	}
	var partsBuf [64]part
	var heapBuf [64]pair
	parts := partsBuf[:0]
	for i := range len(piece) {
		parts = append(parts, part{next: int32(i + 1), prev: int32(i - 1), rank: noRank})
	}
	m := merger{v: v, piece: piece, parts: parts, pairs: heapBuf[:0]}
	for i := range parts {
		m.rerank(int32(i))
	}
	n := len(piece)
	for len(m.pairs) > 0 {
		p := m.pop()
		if m.parts[p.at].rank != p.rank {
			continue // the part has merged since, or its pair has changed
		}
		m.merge(p.at)
		n--
	}
	return n
}

// noRank marks a part that makes no token with the next one.
const noRank = ^uint32(0)

// part is one part of a piece, starting at its index: the parts before
// and after it (-1 and len(piece) at the ends) and the rank of the token
// it makes with the next one.
type part struct {
	prev, next int32
	rank       uint32
}

// pair is a part that makes a token of rank with the next one.
type pair struct {
	rank uint32
	at   int32
}

type merger struct {
	v     vocabulary
	piece string
	parts []part
	pairs []pair // a min-heap by rank, then position
}

// merge joins the part at i with the next one.
func (m *merger) merge(i int32) {
	j := m.parts[i].next
	m.parts[j].rank = noRank
	k := m.parts[j].next
	m.parts[i].next = k
	if int(k) < len(m.parts) {
		m.parts[k].prev = i
	}
	m.rerank(i)
	if p := m.parts[i].prev; p >= 0 {
		m.rerank(p)
	}
}

// rerank finds the rank of the token the part at i makes with the next
// one, and puts the pair in the heap when there is one.
func (m *merger) rerank(i int32) {
	p := &m.parts[i]
	p.rank = noRank
	j := p.next
	if int(j) >= len(m.parts) {
		return
	}
	end := m.parts[j].next
	if r, ok := m.v.rank(m.piece[i:end]); ok {
		p.rank = r
		m.push(pair{r, i})
	}
}

func (a pair) less(b pair) bool {
	return a.rank < b.rank || a.rank == b.rank && a.at < b.at
}

func (m *merger) push(p pair) {
	m.pairs = append(m.pairs, p)
	h := m.pairs
	for i := len(h) - 1; i > 0; {
		up := (i - 1) / 2
		if !h[i].less(h[up]) {
			break
		}
		h[i], h[up] = h[up], h[i]
		i = up
	}
}

func (m *merger) pop() pair {
	h := m.pairs
	top := h[0]
	last := len(h) - 1
	h[0] = h[last]
	h = h[:last]
	for i := 0; ; {
		least, l, r := i, 2*i+1, 2*i+2
		if l < len(h) && h[l].less(h[least]) {
			least = l
		}
		if r < len(h) && h[r].less(h[least]) {
			least = r
		}
		if least == i {
			break
		}
		h[i], h[least] = h[least], h[i]
		i = least
	}
	m.pairs = h
	return top
}

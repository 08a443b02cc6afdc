package checkpoint

import (
	"io/fs"
	"sync"
)

// stamps remembers each file's hash with the size and modification time
// it had, so a snapshot of a workspace that mostly did not change reads
// only the files that did. Modification times are in nanoseconds where the
// file system keeps them, so a rewrite with the same size is still seen.
type stamps struct {
	mu sync.Mutex
	m  map[string]stamp
}

type stamp struct {
	size  int64
	mtime int64
	hash  string
}

// maxStamps bounds the memory the stamps take (about 200 bytes each).
const maxStamps = 200_000

func (s *stamps) lookup(path string, info fs.FileInfo) (string, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	st, ok := s.m[path]
	if !ok || st.size != info.Size() || st.mtime != info.ModTime().UnixNano() {
		return "", false
	}
	return st.hash, true
}

func (s *stamps) remember(path string, info fs.FileInfo, hash string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.m) >= maxStamps {
		clear(s.m)
	}
	s.m[path] = stamp{size: info.Size(), mtime: info.ModTime().UnixNano(), hash: hash}
}

func (s *stamps) forget(path string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.m, path)
}

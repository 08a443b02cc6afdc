//go:build !linux

package memtrim

// ReleaseFiles does nothing outside Linux: other systems do not count a
// program's clean file pages against it the same way.
func ReleaseFiles() (own int64, err error) { return 0, nil }

// TrimMalloc does nothing outside Linux.
func TrimMalloc() {}

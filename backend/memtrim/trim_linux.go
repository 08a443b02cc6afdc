package memtrim

import (
	"bufio"
	"bytes"
	"cmp"
	"fmt"
	"io"
	"os"
	"strconv"
	"syscall"
)

// ReleaseFiles unmaps the resident pages of the process's clean mappings
// of files (its executable's and its libraries' code and read-only data),
// and says how many of those bytes no other process mapped: what the
// process gave back.
func ReleaseFiles() (own int64, err error) {
	f, err := os.Open("/proc/self/smaps")
	if err != nil {
		return 0, fmt.Errorf("read the process's mappings: %w", err)
	}
	defer f.Close()
	return releaseClean(f, unmapPages)
}

// unmapPages drops m's resident pages; the file gives them again on use.
func unmapPages(m mapping) error {
	for _, advice := range []uintptr{syscall.MADV_NOHUGEPAGE, syscall.MADV_DONTNEED} {
		_, _, errno := syscall.Syscall(syscall.SYS_MADVISE, m.start, m.end-m.start, advice)
		if errno != 0 {
			return fmt.Errorf("release %x-%x: %w", m.start, m.end, errno)
		}
	}
	return nil
}

// mapping is one of /proc/self/smaps' mappings, as far as its release
// needs it.
type mapping struct {
	start, end uintptr
	// file: a private mapping of a file that is still there.
	file      bool
	writable  bool
	own       int64 // bytes resident that no other process maps
	anonymous int64 // bytes the process changed (copied on write)
}

// clean is whether the mapping can only hold unchanged pages of its file,
// which the file gives again: never writable, and none of its pages
// copied on write (relocations made at load). Unmapping any other would
// lose what the process wrote.
func (m mapping) clean() bool {
	return m.file && !m.writable && m.anonymous == 0
}

// releaseClean reads an smaps file and calls release with each clean
// mapping that holds pages of its own; it returns those bytes, and the
// first error of a release (it goes on to the next mapping). It reads
// line by line and allocates next to nothing: the process has a thousand
// mappings or more (about 1 MB of text), and reading them is part of
// giving memory back, not a reason to take more.
func releaseClean(smaps io.Reader, release func(mapping) error) (own int64, err error) {
	var cur mapping
	done := func() {
		if !cur.clean() || cur.own == 0 {
			return
		}
		if e := release(cur); e != nil {
			err = cmp.Or(err, e)
			return
		}
		own += cur.own
	}
	sc := bufio.NewScanner(smaps)
	for sc.Scan() {
		line := sc.Bytes()
		key, rest, _ := bytes.Cut(line, []byte(" "))
		if !bytes.HasSuffix(key, []byte(":")) { // a mapping's header
			done()
			cur = header(line)
			continue
		}
		switch string(key) { // compared without a copy
		case "Private_Clean:", "Private_Dirty:":
			// Dirty: in the page cache, not yet written to the file (the
			// mapping is clean: the process changed none of them).
			cur.own += kilobytes(rest)
		case "Anonymous:":
			cur.anonymous = kilobytes(rest)
		}
	}
	done()
	if e := sc.Err(); e != nil {
		return own, fmt.Errorf("read the process's mappings: %w", e)
	}
	return own, err
}

// kilobytes reads "   1024 kB" as bytes.
func kilobytes(field []byte) int64 {
	kb, _ := strconv.ParseInt(string(bytes.TrimSuffix(bytes.TrimSpace(field), []byte(" kB"))), 10, 64)
	return kb << 10
}

// hex reads an address; 0 if it is none.
func hex(b []byte) uint64 {
	n, _ := strconv.ParseUint(string(b), 16, 64)
	return n
}

// header reads "start-end perms offset dev inode [path]"; a line it
// cannot read is a mapping it leaves alone.
func header(line []byte) mapping {
	var f [6][]byte
	rest := line
	for i := range 5 {
		f[i], rest, _ = bytes.Cut(rest, []byte(" "))
	}
	f[5] = bytes.TrimLeft(rest, " ") // the path, after padding
	lo, hi, _ := bytes.Cut(f[0], []byte("-"))
	start, end := hex(lo), hex(hi)
	if end <= start || len(f[1]) != 4 {
		return mapping{}
	}
	return mapping{
		start:    uintptr(start),
		end:      uintptr(end),
		writable: f[1][1] == 'w',
		file:     f[1][3] == 'p' && bytes.HasPrefix(f[5], []byte("/")) && !bytes.HasSuffix(f[5], []byte(" (deleted)")),
	}
}

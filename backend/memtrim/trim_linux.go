package memtrim

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"
)

// ReleaseExecutable unmaps the resident pages of the process's own
// executable file that are clean copies of it (its code and read-only
// data), and says how many bytes were resident there before.
func ReleaseExecutable() (resident int64, err error) {
	exe, err := os.Readlink("/proc/self/exe")
	if err != nil {
		return 0, fmt.Errorf("find the executable: %w", err)
	}
	return Release(exe)
}

// Release unmaps the resident pages of the process's mappings of the file
// at path that are clean copies of it. A mapping that holds a page the
// process changed (relocations made at load) is left alone: unmapping it
// would lose the change.
func Release(path string) (resident int64, err error) {
	maps, err := readMappings("/proc/self/smaps", path)
	if err != nil {
		return 0, err
	}
	for _, m := range maps {
		if !m.clean() {
			continue
		}
		resident += m.rss
		for _, advice := range []uintptr{syscall.MADV_NOHUGEPAGE, syscall.MADV_DONTNEED} {
			_, _, errno := syscall.Syscall(syscall.SYS_MADVISE, m.start, m.end-m.start, advice)
			if errno != 0 {
				return resident, fmt.Errorf("release %x-%x: %w", m.start, m.end, errno)
			}
		}
	}
	return resident, nil
}

// mapping is one of /proc/self/smaps' mappings of a file.
type mapping struct {
	start, end uintptr
	perms      string
	rss        int64 // bytes resident
	anonymous  int64 // bytes the process changed (copied on write)
}

// clean is whether the mapping can only hold unchanged pages of the file:
// never writable, and none of its pages copied on write.
func (m mapping) clean() bool {
	return !strings.Contains(m.perms, "w") && m.anonymous == 0
}

// readMappings lists the mappings of path in an smaps file. It reads the
// file line by line and splits only the lines of path's mappings: the
// process has a thousand mappings or more (about 1 MB of text), and
// reading them is part of giving memory back, not a reason to take more.
func readMappings(smaps, path string) ([]mapping, error) {
	f, err := os.Open(smaps)
	if err != nil {
		return nil, fmt.Errorf("read the process's mappings: %w", err)
	}
	defer f.Close()
	var out []mapping
	var cur *mapping
	suffix := []byte(path)
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Bytes()
		key, rest, _ := bytes.Cut(line, []byte(" "))
		if !bytes.HasSuffix(key, []byte(":")) { // a mapping's header
			cur = nil
			if m, ok := headerOf(line, path, suffix); ok {
				out = append(out, m)
				cur = &out[len(out)-1]
			}
			continue
		}
		if cur == nil {
			continue
		}
		switch string(key) { // compared without a copy
		case "Rss:":
			cur.rss = kilobytes(rest)
		case "Anonymous:":
			cur.anonymous = kilobytes(rest)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("read the process's mappings: %w", err)
	}
	return out, nil
}

// headerOf reads a mapping's header line when it maps path (suffix: path
// as bytes, made once for all the lines).
func headerOf(line []byte, path string, suffix []byte) (mapping, bool) {
	if !bytes.HasSuffix(line, suffix) {
		return mapping{}, false
	}
	f := strings.Fields(string(line))
	if len(f) < 6 || strings.Join(f[5:], " ") != path {
		return mapping{}, false
	}
	return header(f)
}

// kilobytes reads "   1024 kB" as bytes.
func kilobytes(field []byte) int64 {
	kb, _ := strconv.ParseInt(string(bytes.TrimSuffix(bytes.TrimSpace(field), []byte(" kB"))), 10, 64)
	return kb << 10
}

// header reads "start-end perms offset dev inode path".
func header(f []string) (mapping, bool) {
	lo, hi, ok := strings.Cut(f[0], "-")
	if !ok {
		return mapping{}, false
	}
	start, err1 := strconv.ParseUint(lo, 16, 64)
	end, err2 := strconv.ParseUint(hi, 16, 64)
	if err1 != nil || err2 != nil || end <= start {
		return mapping{}, false
	}
	return mapping{start: uintptr(start), end: uintptr(end), perms: f[1]}, true
}

package memtrim

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Releasing unmaps a file's clean pages, and reading them again maps the
// same bytes again.
func TestReleaseUnmapsAFilesCleanPagesAndTheyReadTheSameAfter(t *testing.T) {
	path := filepath.Join(t.TempDir(), "code")
	want := bytes.Repeat([]byte("errand code and read-only data "), 1<<15) // 1 MB
	require.NoError(t, os.WriteFile(path, want, 0o600))
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	mem, err := syscall.Mmap(int(f.Fd()), 0, len(want), syscall.PROT_READ, syscall.MAP_PRIVATE)
	require.NoError(t, err)
	defer func() { _ = syscall.Munmap(mem) }()
	require.Equal(t, want, mem, "read: every page resident")
	require.Equal(t, int64(len(want)), mapped(t, path).rss)

	own, err := ReleaseFiles()
	require.NoError(t, err)
	assert.GreaterOrEqual(t, own, int64(len(want)), "the file's pages were the process's own")
	assert.Zero(t, mapped(t, path).rss, "unmapped")
	assert.Equal(t, want, mem, "mapped again on reading, the same bytes")
}

// What the process changed in its files' mappings (its data, the
// relocations made at load) is all still there, and it runs on.
func TestReleaseKeepsWhatTheProcessChanged(t *testing.T) {
	exe, err := os.Readlink("/proc/self/exe")
	require.NoError(t, err)
	before := mapped(t, exe)
	require.Positive(t, before.anonymous, "the test binary has data of its own")
	_, err = ReleaseFiles()
	require.NoError(t, err)
	assert.GreaterOrEqual(t, mapped(t, exe).anonymous, before.anonymous)
}

type residency struct{ rss, anonymous int64 }

// mapped adds up the resident and the changed bytes of path's mappings.
func mapped(t *testing.T, path string) (r residency) {
	t.Helper()
	f, err := os.Open("/proc/self/smaps")
	require.NoError(t, err)
	defer f.Close()
	in := false
	for sc := bufio.NewScanner(f); sc.Scan(); {
		fields := strings.Fields(sc.Text())
		switch {
		case len(fields) > 0 && !strings.HasSuffix(fields[0], ":"):
			in = len(fields) >= 6 && strings.Join(fields[5:], " ") == path
		case in && fields[0] == "Rss:":
			r.rss += kilobytes([]byte(fields[1]))
		case in && fields[0] == "Anonymous:":
			r.anonymous += kilobytes([]byte(fields[1]))
		}
	}
	return r
}

// Only the private, never-written mappings of files that are still there,
// holding no page the process changed, are released.
func TestOnlyCleanMappingsOfFilesAreReleased(t *testing.T) {
	smaps := `00400000-00408000 r--p 00000000 fd:01 1                          /opt/errand
Private_Clean:        32 kB
Anonymous:             0 kB
VmFlags: rd mr mw me sd
00408000-00508000 r-xp 00008000 fd:01 1                          /opt/errand
Private_Clean:      1024 kB
Anonymous:             0 kB
VmFlags: rd ex mr mw me sd
00600000-00601000 r--p 00200000 fd:01 1                          /opt/errand
Private_Clean:         0 kB
Anonymous:             4 kB
00601000-00602000 rw-p 00201000 fd:01 1                          /opt/errand
Private_Clean:         4 kB
Private_Dirty:         4 kB
Anonymous:             0 kB
7f0000000000-7f0000004000 r-xp 00000000 fd:01 2                  /usr/lib/libc.so.6
Private_Clean:         8 kB
Private_Dirty:         8 kB
7f0000004000-7f0000005000 r-xp 00000000 fd:01 2                  /usr/lib/libgone.so (deleted)
Private_Clean:         4 kB
7f0000005000-7f0000006000 r--s 00000000 00:01 3                  /memfd:shared
Private_Clean:         4 kB
7f0000006000-7f0000007000 r--p 00000000 00:00 0 
Private_Clean:         4 kB
7f0000007000-7f0000008000 r-xp 00000000 fd:01 2                  /usr/lib/libshared.so
Private_Clean:         0 kB
7ffc00000000-7ffc00001000 r-xp 00000000 00:00 0                  [vdso]
Private_Clean:         4 kB
`
	var released []mapping
	refused := errors.New("madvise: invalid argument")
	own, err := releaseClean(strings.NewReader(smaps), func(m mapping) error {
		released = append(released, m)
		if m.start == 0x400000 {
			return refused // one the system will not release: the rest still are
		}
		return nil
	})
	assert.ErrorIs(t, err, refused)
	assert.Equal(t, []mapping{
		{start: 0x400000, end: 0x408000, file: true, own: 32 << 10},
		{start: 0x408000, end: 0x508000, file: true, own: 1024 << 10},
		{start: 0x7f0000000000, end: 0x7f0000004000, file: true, own: 16 << 10},
	}, released)
	assert.Equal(t, int64(1040<<10), own, "given back: what was released")
}

// Giving memory back does not take much itself: reading a process's
// thousands of mappings (about 1.5 MB of text, as Errand's has) allocates
// a small part of the text.
func TestReadingTheMappingsAllocatesLittle(t *testing.T) {
	var b strings.Builder
	for i := 0; i < 4000; i++ {
		fmt.Fprintf(&b, "%x-%x r-xp 00000000 fd:01 %d /usr/lib/x86_64-linux-gnu/lib%d.so\n", 0x400000+i*0x2000, 0x401000+i*0x2000, i, i)
		for _, field := range []string{"Size", "KernelPageSize", "MMUPageSize", "Rss", "Pss", "Pss_Dirty", "Shared_Clean", "Shared_Dirty", "Private_Clean", "Private_Dirty", "Referenced", "Anonymous", "LazyFree", "AnonHugePages", "Swap", "Locked"} {
			kb := 4
			if field == "Anonymous" {
				kb = 0 // changed by none: each is released
			}
			fmt.Fprintf(&b, "%-16s%8d kB\n", field+":", kb)
		}
		b.WriteString("VmFlags: rd ex mr mw me dw sd\n")
	}
	require.Greater(t, b.Len(), 1<<20)
	smaps := strings.NewReader(b.String())

	var before, after runtime.MemStats
	released := 0
	runtime.ReadMemStats(&before)
	own, err := releaseClean(smaps, func(mapping) error { released++; return nil })
	runtime.ReadMemStats(&after)
	require.NoError(t, err)
	assert.Equal(t, 4000, released)
	assert.Equal(t, int64(4000*8<<10), own)
	assert.Less(t, after.TotalAlloc-before.TotalAlloc, uint64(b.Len()/100), "allocated bytes, for %d bytes read", b.Len())
}

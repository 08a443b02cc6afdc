package memtrim

import (
	"bytes"
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

// Releasing a file's clean mapping unmaps its pages, and reading it again
// maps the same bytes again.
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
	require.Equal(t, int64(len(want)), resident(t, path))

	released, err := Release(path)
	require.NoError(t, err)
	assert.Equal(t, int64(len(want)), released)
	assert.Zero(t, resident(t, path), "unmapped")
	assert.Equal(t, want, mem, "mapped again on reading, the same bytes")
}

func resident(t *testing.T, path string) (rss int64) {
	t.Helper()
	maps, err := readMappings("/proc/self/smaps", path)
	require.NoError(t, err)
	for _, m := range maps {
		rss += m.rss
	}
	return rss
}

// The process's own executable: released without error, and it runs on.
func TestReleaseExecutable(t *testing.T) {
	exe, err := os.Readlink("/proc/self/exe")
	require.NoError(t, err)
	before, err := readMappings("/proc/self/smaps", exe)
	require.NoError(t, err)
	released, err := ReleaseExecutable()
	require.NoError(t, err)
	assert.Positive(t, released, "the test binary's code was resident")

	// The pages the process changed (its data, relocations) are all still there.
	after, err := readMappings("/proc/self/smaps", exe)
	require.NoError(t, err)
	changed := map[uintptr]int64{}
	for _, m := range after {
		changed[m.start] = m.anonymous
	}
	for _, m := range before {
		if m.anonymous > 0 {
			assert.GreaterOrEqual(t, changed[m.start], m.anonymous, "%x %s", m.start, m.perms)
		}
	}
}

// A mapping holding a page the process changed is never released.
func TestAMappingWithChangedPagesIsNotClean(t *testing.T) {
	assert.False(t, mapping{perms: "r--p", anonymous: 4096}.clean(), "relocated at load")
	assert.False(t, mapping{perms: "rw-p"}.clean(), "writable")
	assert.True(t, mapping{perms: "r-xp"}.clean())
	assert.True(t, mapping{perms: "r--p"}.clean())
}

func TestReadMappingsReadsTheFilesMappings(t *testing.T) {
	smaps := t.TempDir() + "/smaps"
	require.NoError(t, os.WriteFile(smaps, []byte(`00400000-00408000 r--p 00000000 fd:01 1 /opt/errand
Rss:                  32 kB
Anonymous:             0 kB
00408000-00508000 r-xp 00008000 fd:01 1 /opt/errand
Rss:                1024 kB
Anonymous:             0 kB
00600000-00601000 r--p 00200000 fd:01 1 /opt/errand
Rss:                   4 kB
Anonymous:             4 kB
7f0000000000-7f0000001000 r-xp 00000000 fd:01 2 /usr/lib/libc.so.6
Rss:                   4 kB
`), 0o600))
	maps, err := readMappings(smaps, "/opt/errand")
	require.NoError(t, err)
	require.Len(t, maps, 3)
	assert.Equal(t, mapping{start: 0x408000, end: 0x508000, perms: "r-xp", rss: 1024 << 10}, maps[1])
	assert.False(t, maps[2].clean())
}

// Giving memory back does not take much itself: reading a process's
// thousands of mappings (about 1.5 MB of text, as Errand's has) keeps only
// those of the file asked for, and allocates a small part of the text.
func TestReadingTheMappingsAllocatesLittle(t *testing.T) {
	var b strings.Builder
	for i := 0; i < 4000; i++ {
		path := fmt.Sprintf("/usr/lib/x86_64-linux-gnu/lib%d.so", i)
		if i%1000 == 0 {
			path = "/opt/errand"
		}
		fmt.Fprintf(&b, "%x-%x r-xp 00000000 fd:01 %d %s\n", 0x400000+i*0x2000, 0x401000+i*0x2000, i, path)
		for _, field := range []string{"Size", "KernelPageSize", "MMUPageSize", "Rss", "Pss", "Pss_Dirty", "Shared_Clean", "Shared_Dirty", "Private_Clean", "Private_Dirty", "Referenced", "Anonymous", "LazyFree", "AnonHugePages", "Swap", "Locked"} {
			fmt.Fprintf(&b, "%-16s%8d kB\n", field+":", 4)
		}
		b.WriteString("VmFlags: rd ex mr mw me dw sd\n")
	}
	smaps := filepath.Join(t.TempDir(), "smaps")
	require.NoError(t, os.WriteFile(smaps, []byte(b.String()), 0o600))
	require.Greater(t, b.Len(), 1<<20)

	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	maps, err := readMappings(smaps, "/opt/errand")
	runtime.ReadMemStats(&after)
	require.NoError(t, err)
	require.Len(t, maps, 4)
	assert.Equal(t, int64(4<<10), maps[3].rss)
	assert.Less(t, after.TotalAlloc-before.TotalAlloc, uint64(b.Len()/8), "allocated bytes, for %d bytes read", b.Len())
}

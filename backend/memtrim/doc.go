// Package memtrim gives back memory the process no longer needs once the
// work that needed it is done: the pages of its executable and its
// libraries that the start or a task touched, and the C heaps' free
// memory (Errand calls it after the late start and once no task has
// worked for a while; the window's web process does the same for its own
// libraries, see app/webmemory).
//
// Errand's executable is large (about 90 MB: Wails binds methods by
// reflection, so the linker keeps every exported method of the model SDKs'
// many types), and Linux maps a file's pages in large runs as it is read:
// after the start about 50 MB of it stayed resident and counted as Errand's
// own memory, although an idle Errand runs almost none of that code. Those
// pages, and the toolkit's libraries' (GTK, cairo, Mesa's software
// renderer: about 8 MB more), are clean copies of their files. Releasing them (madvise
// MADV_DONTNEED) only unmaps them: the kernel keeps them in its page cache
// while it has room, and any code or data that is needed again is mapped
// again on first use.
package memtrim

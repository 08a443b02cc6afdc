package agent

import "syscall"

// readerNice is how much lower than the process's the priority of a
// thread reading a model's stream is (a nice value; up to 19).
const readerNice = 5

// lowerThreadPriority lowers the calling OS thread's priority by
// readerNice. On Linux a nice value is a thread's own (setpriority on its
// thread id), and raising it needs no privilege.
func lowerThreadPriority() {
	tid := syscall.Gettid()
	now, err := syscall.Getpriority(syscall.PRIO_PROCESS, tid)
	if err != nil {
		return
	}
	// The raw syscall returns 20 - nice.
	_ = syscall.Setpriority(syscall.PRIO_PROCESS, tid, min(20-now+readerNice, 19))
}

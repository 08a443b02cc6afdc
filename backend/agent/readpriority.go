package agent

import (
	"runtime"

	"github.com/errand-app/errand/backend/llm"
)

// behindWindow reads a model's stream (stream) on a goroutine and an OS
// thread of its own, whose scheduling priority is lowered
// (lowerThreadPriority): when the CPUs are full, as when a server streams
// faster than the window can show, the window's threads come first, and
// a click on Stop is not kept waiting by the reading of chunks. An idle
// machine still reads at full speed. The thread is never unlocked, so it
// ends with the goroutine: a lowered priority cannot be raised again
// without privileges, and no other goroutine may inherit it. What the
// reader stores runs beside it, at the process's priority (see
// streamWriter.take).
func behindWindow(stream func() (llm.Response, error)) (resp llm.Response, err error) {
	onOwnGoroutine(func() {
		runtime.LockOSThread()
		lowerThreadPriority()
		resp, err = stream()
	})
	return resp, err
}

// onOwnGoroutine runs f on a goroutine of its own and waits for it. A
// goroutine started from a locked thread runs on another thread, at that
// thread's priority. A panic in f is raised again in the caller.
func onOwnGoroutine(f func()) {
	done := make(chan any, 1)
	go func() {
		defer func() { done <- recover() }()
		f()
	}()
	if p := <-done; p != nil {
		panic(p)
	}
}

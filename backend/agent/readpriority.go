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
// without privileges, and no other goroutine may inherit it. A panic in
// stream is raised again in the caller.
func behindWindow(stream func() (llm.Response, error)) (llm.Response, error) {
	type result struct {
		resp     llm.Response
		err      error
		panicked any
	}
	done := make(chan result, 1)
	go func() {
		runtime.LockOSThread()
		lowerThreadPriority()
		var r result
		defer func() {
			r.panicked = recover()
			done <- r
		}()
		r.resp, r.err = stream()
	}()
	r := <-done
	if r.panicked != nil {
		panic(r.panicked)
	}
	return r.resp, r.err
}

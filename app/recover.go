package app

import (
	"fmt"
	"log/slog"
	"runtime/debug"

	"github.com/errand-app/errand/backend/chat"
)

// recovered turns a panic in a bound method into an error the window
// sees: Wails recovers a panic itself but answers nothing, and the
// window's promise never settles. Every bound method that returns an
// error defers it first.
func recovered(err *error) {
	r := recover()
	if r == nil {
		return
	}
	slog.Error("a bound method panicked", "panic", fmt.Sprint(r), "stack", string(debug.Stack()))
	*err = chat.Errorf(chat.CodeInternal, "Errand met an internal error and did not finish this (%v); nothing more was changed. Copy details for a bug report.", r)
}

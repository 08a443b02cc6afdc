//go:build !dev

package app

// withDevDialogs: only the development build answers dialogs from a queue.
func withDevDialogs(native fileDialogs) (fileDialogs, []any) { return native, nil }

//go:build windows

package app

// lockDataDir relies on Wails' single-instance lock on Windows.
func lockDataDir(string) (func(), error) { return func() {}, nil }

//go:build !linux

package tools

// SandboxAvailable reports whether commands run in a sandbox here: only on
// Linux, with bubblewrap.
func SandboxAvailable() bool { return false }

func sandboxed(_ string, _ bool, argv []string) []string { return argv }

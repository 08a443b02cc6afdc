//go:build !linux

package agent

// lowerThreadPriority does nothing where threads have no priority of
// their own that Errand may lower.
func lowerThreadPriority() {}

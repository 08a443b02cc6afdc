package mcp

// PID is the process id of a stdio server's command (its process group's
// id), or 0.
func PID(m *Manager, id string) int {
	s := m.find(id)
	if s == nil {
		return 0
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cmd == nil || s.cmd.Process == nil {
		return 0
	}
	return s.cmd.Process.Pid
}

package app

// Status tells the frontend whether Errand can work, before it asks for
// anything else.
type Status struct {
	// Ready is false when Errand could not start (the data cannot be
	// opened, another Errand is running): Message says why.
	Ready bool `json:"ready"`
	// ReadOnly is true when the database can be read but not written.
	ReadOnly bool   `json:"readOnly"`
	Message  string `json:"message,omitempty"`
	DataDir  string `json:"dataDir"`
}

// Health is bound in every case, even when Errand could not start.
type Health struct {
	status Status
	first  *firstScreen    // nil when Errand could not start
	opened <-chan struct{} // closed once status and first are set (nil: they are)
}

// Status reports whether Errand is ready.
func (h *Health) Status() Status {
	h.wait()
	return h.status
}

// Unavailable is what the window binds when the data folder could not be
// taken: the reason, and nothing that needs the database.
func Unavailable(cfg Config, err error) *Health {
	return &Health{status: unavailable(cfg, err)}
}

// wait waits until Start has opened Errand, or could not.
func (h *Health) wait() {
	if h.opened != nil {
		<-h.opened
	}
}

// unavailable is the status of an Errand that could not start.
func unavailable(cfg Config, err error) Status {
	return Status{Message: errorMessage(err), DataDir: cfg.DataDir}
}

func errorMessage(err error) string { return frontendError(err).Message }

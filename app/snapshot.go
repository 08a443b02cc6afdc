package app

// FirstScreenSnapshot is the window's first screen as it was last painted:
// the markup inside #root while the window showed exactly what the first
// screen holds (the newest conversation at its end, nothing over it, no
// task running). Go keeps it in the data folder with a digest of the first
// screen it showed, and the next start's page shows it while its script
// loads, if the first screen is still the same and the window the same
// size.
type FirstScreenSnapshot struct {
	HTML   string `json:"html"`
	Width  int    `json:"width"`
	Height int    `json:"height"`
	// ListLimit and MessageLimit are the first screen's page sizes, as the
	// page asks Health.FirstScreen for it.
	ListLimit    int `json:"listLimit"`
	MessageLimit int `json:"messageLimit"`
}

// SaveFirstScreen keeps the window's first screen for the next start.
func (w *Window) SaveFirstScreen(s FirstScreenSnapshot) error {
	return nil
}

package app

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/errand-app/errand/backend/secrets"
)

// Config is what Errand reads from its environment at start.
type Config struct {
	// DataDir holds the database. ERRAND_DATA_DIR, else the per-user
	// config directory's "Errand" folder.
	DataDir string
	// BaseURL, APIKey and Model name an OpenAI-compatible model server
	// (OPENAI_BASE_URL, OPENAI_API_KEY, ERRAND_MODEL), over the settings:
	// for scripting and tests.
	BaseURL string
	APIKey  string
	Model   string
	// Keyring keeps API keys; nil means the system's.
	Keyring secrets.Keyring
	// FirstStart is the build's copy of a first start's screen (see
	// firstStartCopy); none when empty.
	FirstStart []byte
	// CaptureFirstStart makes the run a capture run: at its first start
	// (a new data folder) the copy is written to this file
	// (ERRAND_CAPTURE_FIRST_START, for scripts/first-start.sh).
	CaptureFirstStart string
}

// ConfigFromEnv reads the Config from the environment.
func ConfigFromEnv() (Config, error) {
	c := Config{
		DataDir: strings.TrimSpace(os.Getenv("ERRAND_DATA_DIR")),
		BaseURL: strings.TrimSpace(os.Getenv("OPENAI_BASE_URL")),
		APIKey:  strings.TrimSpace(os.Getenv("OPENAI_API_KEY")),
		Model:   strings.TrimSpace(os.Getenv("ERRAND_MODEL")),

		CaptureFirstStart: strings.TrimSpace(os.Getenv("ERRAND_CAPTURE_FIRST_START")),
	}
	if c.DataDir == "" {
		dir, err := os.UserConfigDir()
		if err != nil {
			return c, fmt.Errorf("find the data directory (set ERRAND_DATA_DIR): %w", err)
		}
		c.DataDir = filepath.Join(dir, "Errand")
	}
	return c, nil
}

package app

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Config is what Errand reads from its environment at start.
type Config struct {
	// DataDir holds the database. ERRAND_DATA_DIR, else the per-user
	// config directory's "Errand" folder.
	DataDir string
	// BaseURL, APIKey and Model select an OpenAI-compatible model server
	// (OPENAI_BASE_URL, OPENAI_API_KEY, ERRAND_MODEL). With neither a base
	// URL nor a key, Errand runs on its built-in offline demo model.
	BaseURL string
	APIKey  string
	Model   string
}

// DefaultModel is used with a real server when ERRAND_MODEL is not set.
const DefaultModel = "gpt-4o-mini"

// ConfigFromEnv reads the Config from the environment.
func ConfigFromEnv() (Config, error) {
	c := Config{
		DataDir: strings.TrimSpace(os.Getenv("ERRAND_DATA_DIR")),
		BaseURL: strings.TrimSpace(os.Getenv("OPENAI_BASE_URL")),
		APIKey:  strings.TrimSpace(os.Getenv("OPENAI_API_KEY")),
		Model:   strings.TrimSpace(os.Getenv("ERRAND_MODEL")),
	}
	if c.DataDir == "" {
		dir, err := os.UserConfigDir()
		if err != nil {
			return c, fmt.Errorf("find the data directory (set ERRAND_DATA_DIR): %w", err)
		}
		c.DataDir = filepath.Join(dir, "Errand")
	}
	if c.Demo() {
		return c, nil
	}
	if c.BaseURL == "" {
		c.BaseURL = "https://api.openai.com/v1"
	}
	if c.Model == "" {
		c.Model = DefaultModel
	}
	return c, nil
}

// Demo reports whether no model server is configured.
func (c Config) Demo() bool { return c.BaseURL == "" && c.APIKey == "" }

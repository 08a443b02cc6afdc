package app

import (
	"context"
	"fmt"
	"net/url"
	"os/exec"
	goruntime "runtime"
	"strings"

	"github.com/errand-app/errand/backend/buildinfo"
	"github.com/errand-app/errand/backend/chat"
	"github.com/errand-app/errand/backend/logfile"
	"github.com/errand-app/errand/backend/providers"
	"github.com/errand-app/errand/backend/store"
)

// AboutInfo is Settings → About: which Errand this is and where it keeps
// its things.
type AboutInfo struct {
	Version       string `json:"version"`
	DataDir       string `json:"dataDir"`
	LogFile       string `json:"logFile"`
	SchemaVersion int    `json:"schemaVersion"`
	// OS is the operating system and processor, "linux/amd64".
	OS string `json:"os"`
}

// About is the bound service behind Settings → About.
type About struct {
	dataDir  string
	resolver *providers.Resolver
	// openFolder shows a folder in the system's file manager.
	openFolder func(path string) error
}

// Info tells the version, the data folder, the log file and the schema.
func (a *About) Info() AboutInfo {
	return AboutInfo{
		Version:       buildinfo.Version,
		DataDir:       a.dataDir,
		LogFile:       logfile.Path(a.dataDir),
		SchemaVersion: store.SchemaVersion(),
		OS:            goruntime.GOOS + "/" + goruntime.GOARCH,
	}
}

// Diagnostics is the text "Copy diagnostics" puts on the clipboard: the
// version, the system, and the model provider's kind, server and model.
// It never holds a key, nor credentials in the server's address.
func (a *About) Diagnostics() string {
	ctx, cancel := callCtx()
	defer cancel()
	info := a.Info()
	lines := []string{
		"Errand " + info.Version,
		"OS: " + info.OS,
		fmt.Sprintf("Database schema: %d", info.SchemaVersion),
		a.providerLine(ctx),
	}
	return logfile.Secrets.Redact(strings.Join(lines, "\n"))
}

func (a *About) providerLine(ctx context.Context) string {
	c, err := a.resolver.Resolve(ctx, "")
	switch {
	case err != nil:
		return "Provider: not usable (" + chat.ErrorMessage(err) + ")"
	case c.Demo:
		return "Provider: demo (the built-in offline model)"
	}
	return fmt.Sprintf("Provider: %s (from the %s), server %s, model %s", c.Preset, c.Source, bareURL(c.BaseURL), c.Model)
}

// bareURL is u without its user name, password, query and fragment.
func bareURL(u string) string {
	p, err := url.Parse(u)
	if err != nil {
		return "(an address that does not parse)"
	}
	p.User, p.RawQuery, p.Fragment = nil, "", ""
	return p.String()
}

// OpenDataFolder shows the data folder in the system's file manager.
func (a *About) OpenDataFolder() (err error) {
	defer recovered(&err)
	if err := a.openFolder(a.dataDir); err != nil {
		return chat.Wrap(chat.CodeInternal, err, "The data folder (%s) could not be opened: %v.", a.dataDir, err)
	}
	return nil
}

// openInFileManager starts the system's file manager on path.
func openInFileManager(path string) error {
	var cmd *exec.Cmd
	switch goruntime.GOOS {
	case "windows":
		cmd = exec.Command("explorer", path)
	case "darwin":
		cmd = exec.Command("open", path)
	default:
		cmd = exec.Command("xdg-open", path)
	}
	if err := cmd.Start(); err != nil {
		return err
	}
	go cmd.Wait()
	return nil
}

package app

import (
	"io"
	"log/slog"

	"github.com/errand-app/errand/backend/buildinfo"
	"github.com/errand-app/errand/backend/logfile"
)

// StartLog makes log/slog's default logger write to the data folder's
// log file (logs/errand.log, rotated at 1 MB, three old files kept) and
// to also, scrubbed of secrets (logfile.Secrets). When the file cannot be
// opened, the log goes to also alone and the error says why. stop closes
// the file.
func StartLog(dataDir string, also io.Writer) (stop func() error, err error) {
	w, err := logfile.Open(dataDir)
	if err != nil {
		slog.SetDefault(slog.New(logfile.New(also)))
		return func() error { return nil }, err
	}
	// The file first: a closed also (no console) must not keep it out.
	slog.SetDefault(slog.New(logfile.New(io.MultiWriter(w, also))))
	slog.Info("Errand starting", "version", buildinfo.Version, "data_dir", dataDir)
	return w.Close, nil
}

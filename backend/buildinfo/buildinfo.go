// Package buildinfo holds what the build stamps into the binary: the
// version, from `git describe --tags --always --dirty` (the Makefile passes
// it with -ldflags "-X github.com/errand-app/errand/backend/buildinfo.Version=…").
package buildinfo

// Version is this build's version; "dev" when nothing stamped it.
var Version = "dev"

// Command dist makes Errand's release files in build/dist (see `make dist`):
//
//	dist linux   -version V   the .deb (through nfpm) and the .tar.gz, from build/bin/errand
//	dist windows -version V   errand.exe and its NSIS installer (wails build), version in their resources
//	dist checkexe -version V FILE…  each FILE is a GUI Windows program carrying version V
//	dist sums                 SHA256SUMS of every file in build/dist
//
// The product's name, company and description are read from wails.json's
// "info" block, so every artifact says the same. Run it from the
// repository's root.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"regexp"
	"strings"
)

const distDir = "build/dist"

// product is wails.json's "info" block: set once, used everywhere.
type product struct {
	CompanyName string `json:"companyName"`
	ProductName string `json:"productName"`
	Copyright   string `json:"copyright"`
	Comments    string `json:"comments"`
}

func readProduct() (product, error) {
	b, err := os.ReadFile("wails.json")
	if err != nil {
		return product{}, fmt.Errorf("read wails.json (run from the repository's root): %w", err)
	}
	var cfg struct {
		Info product `json:"info"`
	}
	if err := json.Unmarshal(b, &cfg); err != nil {
		return product{}, fmt.Errorf("wails.json: %w", err)
	}
	if cfg.Info.ProductName == "" || cfg.Info.CompanyName == "" {
		return product{}, fmt.Errorf("wails.json: info.productName and info.companyName must be set")
	}
	return cfg.Info, nil
}

func main() {
	if len(os.Args) < 2 {
		fail(fmt.Errorf("usage: dist linux|windows|checkexe|sums [-version V] [files]"))
	}
	cmd := os.Args[1]
	fs := flag.NewFlagSet(cmd, flag.ExitOnError)
	version := fs.String("version", "", "the version (git describe)")
	fs.Parse(os.Args[2:])
	if cmd != "sums" && strings.TrimSpace(*version) == "" {
		fail(fmt.Errorf("%s: -version is required", cmd))
	}
	var err error
	switch cmd {
	case "linux":
		err = linux(*version)
	case "windows":
		err = windows(*version)
	case "checkexe":
		err = checkExes(*version, fs.Args())
	case "sums":
		err = sums()
	default:
		err = fmt.Errorf("unknown command %q", cmd)
	}
	if err != nil {
		fail(err)
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "dist:", err)
	os.Exit(1)
}

// plainVersion is the version without git's leading "v".
func plainVersion(v string) string { return strings.TrimPrefix(v, "v") }

// tagged matches a version that begins with a tag's numbers ("1.2",
// "1.2.3-4-gabc1234"), not a bare commit ("29adf05-dirty").
var tagged = regexp.MustCompile(`^[0-9]+\.[0-9]+`)

// numbered is the plain version when it begins with a tag's numbers, else
// 0.0.0-VERSION (before the first tag), as Debian, Windows and NSIS want
// a version to begin.
func numbered(version string) string {
	v := plainVersion(version)
	if tagged.MatchString(v) {
		return v
	}
	return "0.0.0-" + v
}

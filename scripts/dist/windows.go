package main

import (
	"bytes"
	"debug/pe"
	"encoding/binary"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"regexp"
	"syscall"
	"unicode/utf16"
)

// windows builds errand.exe and its NSIS installer with Wails (the version
// set in wails.json's info.productVersion for the build's length, so it
// reaches the file properties and the installer), copies both to
// build/dist and checks them.
func windows(version string) error {
	wails, ldflags := os.Getenv("WAILS"), os.Getenv("LDFLAGS")
	if wails == "" {
		wails = "wails"
	}
	restore, err := stampWailsJSON(windowsVersion(version))
	if err != nil {
		return err
	}
	defer restore()
	cmd := exec.Command(wails, "build", "-platform", "windows/amd64", "-nsis", "-s", "-m", "-nosyncgomod",
		"-skipbindings", "-ldflags", ldflags, "-o", "errand.exe")
	cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("wails build for Windows: %w", err)
	}
	if err := os.MkdirAll(distDir, 0o755); err != nil {
		return err
	}
	plain := plainVersion(version)
	outputs := map[string]string{
		"build/bin/errand.exe":                 filepath.Join(distDir, fmt.Sprintf("errand_%s_windows_amd64.exe", plain)),
		"build/bin/Errand-amd64-installer.exe": filepath.Join(distDir, fmt.Sprintf("errand_%s_windows_amd64_setup.exe", plain)),
	}
	var made []string
	for from, to := range outputs {
		if err := copyFile(from, to); err != nil {
			return err
		}
		fmt.Println("wrote", to)
		made = append(made, to)
	}
	return checkExes(version, made)
}

// windowsVersion is version as Windows and NSIS take it: it begins with
// the tag's numbers (0.0.0 before the first tag).
func windowsVersion(version string) string { return numbered(version) }

var productVersionRe = regexp.MustCompile(`("productVersion"\s*:\s*)"[^"]*"`)

// stampWailsJSON sets info.productVersion in wails.json; restore puts the
// file back as it was (also on Ctrl+C).
func stampWailsJSON(version string) (restore func(), err error) {
	orig, err := os.ReadFile("wails.json")
	if err != nil {
		return nil, err
	}
	if !productVersionRe.Match(orig) {
		return nil, fmt.Errorf("wails.json has no info.productVersion to set")
	}
	stamped := productVersionRe.ReplaceAll(orig, []byte(fmt.Sprintf(`${1}%q`, version)))
	if err := os.WriteFile("wails.json", stamped, 0o644); err != nil {
		return nil, err
	}
	put := func() { os.WriteFile("wails.json", orig, 0o644) }
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	go func() {
		if _, ok := <-sig; ok {
			put()
			os.Exit(1)
		}
	}()
	return func() { signal.Stop(sig); close(sig); put() }, nil
}

func copyFile(from, to string) error {
	b, err := os.ReadFile(from)
	if err != nil {
		return err
	}
	return os.WriteFile(to, b, 0o644)
}

// checkExes checks that each file is a GUI-subsystem Windows program
// whose resources carry the product name and version.
func checkExes(version string, paths []string) error {
	p, err := readProduct()
	if err != nil {
		return err
	}
	for _, path := range paths {
		if err := checkExe(path, p.ProductName, windowsVersion(version)); err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		fmt.Printf("checked %s: a GUI Windows program, %s %s in its resources\n", path, p.ProductName, windowsVersion(version))
	}
	return nil
}

func checkExe(path, name, version string) error {
	f, err := pe.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	// The app is 64-bit; NSIS's installer stub is 32-bit.
	var subsystem uint16
	switch oh := f.OptionalHeader.(type) {
	case *pe.OptionalHeader64:
		subsystem = oh.Subsystem
	case *pe.OptionalHeader32:
		subsystem = oh.Subsystem
	default:
		return fmt.Errorf("not a Windows program")
	}
	if subsystem != pe.IMAGE_SUBSYSTEM_WINDOWS_GUI {
		return fmt.Errorf("subsystem %d, not the GUI (%d): it would open a console", subsystem, pe.IMAGE_SUBSYSTEM_WINDOWS_GUI)
	}
	rsrc := f.Section(".rsrc")
	if rsrc == nil {
		return fmt.Errorf("no resources (.rsrc), so no version information")
	}
	data, err := rsrc.Data()
	if err != nil {
		return err
	}
	for _, want := range []string{"ProductVersion", version, "ProductName", name} {
		if !bytes.Contains(data, utf16le(want)) {
			return fmt.Errorf("its version information lacks %q", want)
		}
	}
	return nil
}

// utf16le is s as Windows resources store it.
func utf16le(s string) []byte {
	var b bytes.Buffer
	for _, u := range utf16.Encode([]rune(s)) {
		binary.Write(&b, binary.LittleEndian, u)
	}
	return b.Bytes()
}

package main

import (
	"archive/tar"
	"compress/gzip"
	"fmt"
	"image"
	"image/png"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/goreleaser/nfpm/v2"
	_ "github.com/goreleaser/nfpm/v2/deb" // registers the deb packager
	"github.com/goreleaser/nfpm/v2/files"
	"golang.org/x/image/draw"
)

const (
	linuxBinary = "build/bin/errand"
	desktopFile = "build/linux/errand.desktop"
	appIcon     = "build/appicon.png"
)

// iconSizes are the hicolor sizes the menu may ask for.
var iconSizes = []int{48, 64, 128, 256, 512}

// runtimeDepends are Debian 12's runtime packages of what Wails links
// (GTK 3 and WebKitGTK 4.0), not their -dev packages.
var runtimeDepends = []string{"libgtk-3-0", "libwebkit2gtk-4.0-37"}

// linux writes the .deb and the .tar.gz: the same files, at the same paths.
func linux(version string) error {
	p, err := readProduct()
	if err != nil {
		return err
	}
	stage, err := os.MkdirTemp("", "errand-dist-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(stage)
	contents, err := linuxContents(stage)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(distDir, 0o755); err != nil {
		return err
	}
	deb := filepath.Join(distDir, fmt.Sprintf("errand_%s_amd64.deb", debVersion(version)))
	if err := writeDeb(deb, p, version, contents); err != nil {
		return err
	}
	tgz := filepath.Join(distDir, fmt.Sprintf("errand_%s_linux_amd64.tar.gz", plainVersion(version)))
	if err := writeTarGz(tgz, fmt.Sprintf("errand_%s_linux_amd64", plainVersion(version)), contents); err != nil {
		return err
	}
	fmt.Println("wrote", deb)
	fmt.Println("wrote", tgz)
	return nil
}

// linuxContents lists the installed files: the binary, the desktop entry
// and the icons (scaled into stage).
func linuxContents(stage string) (files.Contents, error) {
	if _, err := os.Stat(linuxBinary); err != nil {
		return nil, fmt.Errorf("%s is missing: run make build first", linuxBinary)
	}
	c := files.Contents{
		{Source: linuxBinary, Destination: "/usr/bin/errand", FileInfo: &files.ContentFileInfo{Mode: 0o755}},
		{Source: desktopFile, Destination: "/usr/share/applications/errand.desktop", FileInfo: &files.ContentFileInfo{Mode: 0o644}},
	}
	icons, err := scaleIcon(stage)
	if err != nil {
		return nil, err
	}
	for size, path := range icons {
		c = append(c, &files.Content{Source: path,
			Destination: fmt.Sprintf("/usr/share/icons/hicolor/%dx%d/apps/errand.png", size, size),
			FileInfo:    &files.ContentFileInfo{Mode: 0o644}})
	}
	return c, nil
}

// scaleIcon writes the app icon at each of iconSizes into dir.
func scaleIcon(dir string) (map[int]string, error) {
	f, err := os.Open(appIcon)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	src, err := png.Decode(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", appIcon, err)
	}
	out := map[int]string{}
	for _, size := range iconSizes {
		dst := image.NewNRGBA(image.Rect(0, 0, size, size))
		draw.CatmullRom.Scale(dst, dst.Bounds(), src, src.Bounds(), draw.Src, nil)
		path := filepath.Join(dir, fmt.Sprintf("errand-%d.png", size))
		if err := writePNG(path, dst); err != nil {
			return nil, err
		}
		out[size] = path
	}
	return out, nil
}

func writePNG(path string, img image.Image) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := png.Encode(f, img); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// debVersion is version as Debian orders it: a tag's numbers first, and
// "+" for git's "-" after them (a later commit sorts later).
func debVersion(version string) string {
	return strings.ReplaceAll(numbered(version), "-", "+")
}

func writeDeb(path string, p product, version string, contents files.Contents) error {
	info := nfpm.WithDefaults(&nfpm.Info{
		Name:          "errand",
		Arch:          "amd64",
		Platform:      "linux",
		Version:       debVersion(version),
		VersionSchema: "none",
		Section:       "utils",
		Priority:      "optional",
		Maintainer:    p.CompanyName,
		Vendor:        p.CompanyName,
		Description:   p.Comments + ".\nA desktop app: it talks to OpenAI-compatible servers, Anthropic, Ollama or LM Studio,\nor to a built-in offline demo model, and keeps everything in a local SQLite database.",
		Overridables:  nfpm.Overridables{Depends: runtimeDepends, Contents: contents},
	})
	if err := info.Validate(); err != nil {
		return fmt.Errorf("deb: %w", err)
	}
	pkg, err := nfpm.Get("deb")
	if err != nil {
		return err
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := pkg.Package(info, f); err != nil {
		f.Close()
		return fmt.Errorf("deb: %w", err)
	}
	return f.Close()
}

// writeTarGz puts contents under top/ (usr/bin/errand, usr/share/…), for
// unpacking anywhere or into /.
func writeTarGz(path, top string, contents files.Contents) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	defer f.Close()
	gz := gzip.NewWriter(f)
	tw := tar.NewWriter(gz)
	now := time.Now()
	for _, c := range contents {
		if err := addFile(tw, c.Source, top+c.Destination, int64(c.FileInfo.Mode), now); err != nil {
			return err
		}
	}
	if err := tw.Close(); err != nil {
		return err
	}
	if err := gz.Close(); err != nil {
		return err
	}
	return f.Close()
}

func addFile(tw *tar.Writer, src, name string, mode int64, mtime time.Time) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	st, err := in.Stat()
	if err != nil {
		return err
	}
	if err := tw.WriteHeader(&tar.Header{Name: name, Mode: mode, Size: st.Size(), ModTime: mtime, Typeflag: tar.TypeReg}); err != nil {
		return err
	}
	_, err = io.Copy(tw, in)
	return err
}

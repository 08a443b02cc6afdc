// Package attach keeps the files a person hands over with a message: it
// checks them before anything is stored, keeps each content once by its
// SHA-256 in the data folder, and gives the model its view of them (an
// image downscaled and re-encoded, a text file as text).
package attach

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"image"
	_ "image/gif" // GIF's first frame
	_ "image/jpeg"
	_ "image/png"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/errand-app/errand/backend/chat"
	_ "golang.org/x/image/webp"
)

// MaxPixels is the most pixels an image may decode to. A decompression
// bomb (a small file that decodes to gigapixels) is refused from its
// header, before it is decoded; a 50-megapixel camera's photo passes.
const MaxPixels = 50_000_000

// imageTypes are the images taken, by the format image.DecodeConfig
// names, with their MIME type.
var imageTypes = map[string]string{
	"png":  "image/png",
	"jpeg": "image/jpeg",
	"gif":  "image/gif",
	"webp": "image/webp",
}

// imageExts are names that claim an image: such a file must be one.
var imageExts = map[string]bool{
	".png": true, ".jpg": true, ".jpeg": true, ".gif": true, ".webp": true,
	".bmp": true, ".tif": true, ".tiff": true, ".heic": true, ".heif": true, ".avif": true, ".svg": true,
}

// Check classifies a file before it is stored: an image (PNG, JPEG,
// WebP, GIF, known by its content whatever its name) with its size in
// pixels, or a text file (valid UTF-8 without NUL). Anything else, and
// anything too large, is refused with a message that says why.
func Check(name string, data []byte) (chat.Attachment, error) {
	if err := chat.CheckAttachmentName(name); err != nil {
		return chat.Attachment{}, err
	}
	if err := checkSize(name, int64(len(data))); err != nil {
		return chat.Attachment{}, err
	}
	sum := sha256.Sum256(data)
	a := chat.Attachment{ID: hex.EncodeToString(sum[:]), Name: name, Size: int64(len(data))}
	ext := strings.ToLower(filepath.Ext(name))
	switch {
	case ext == ".pdf" || bytes.HasPrefix(data, []byte("%PDF-")):
		return a, chat.Invalidf("file", "%s: PDFs are not read yet — paste the text or export it as text.", name)
	case sniffImage(data):
		return checkImage(a, data)
	case imageExts[ext]:
		return a, chat.Invalidf("file", "%s is named as an image but is not a PNG, JPEG, WebP or GIF image.", name)
	case isText(data):
		a.Kind, a.Mime = chat.AttachmentText, textMime(ext)
		return a, nil
	}
	return a, chat.Invalidf("file", "%s is neither an image (PNG, JPEG, WebP, GIF) nor a text file.", name)
}

// checkSize refuses an empty file and one over the limit.
func checkSize(name string, size int64) error {
	switch {
	case size == 0:
		return chat.Invalidf("file", "%s is empty.", name)
	case size > chat.MaxAttachmentBytes:
		return chat.Invalidf("file", "%s is %s; a file may be at most %d MB.", name, sizeOf(size), chat.MaxAttachmentBytes>>20)
	}
	return nil
}

// sniffImage reports content that starts as an image the model takes.
func sniffImage(data []byte) bool {
	switch {
	case bytes.HasPrefix(data, []byte("\x89PNG\r\n\x1a\n")),
		bytes.HasPrefix(data, []byte("\xff\xd8\xff")),
		bytes.HasPrefix(data, []byte("GIF87a")), bytes.HasPrefix(data, []byte("GIF89a")):
		return true
	case len(data) >= 12 && string(data[:4]) == "RIFF" && string(data[8:12]) == "WEBP":
		return true
	}
	return false
}

// checkImage reads an image's header for its size, refuses a bomb, then
// decodes it whole: a file whose header is an image's and whose body is
// not is refused here, not when the model is to see it.
func checkImage(a chat.Attachment, data []byte) (chat.Attachment, error) {
	cfg, format, err := image.DecodeConfig(bytes.NewReader(data))
	mimeType, ok := imageTypes[format]
	if err != nil || !ok || cfg.Width <= 0 || cfg.Height <= 0 {
		return a, chat.Invalidf("file", "%s is not a readable PNG, JPEG, WebP or GIF image.", a.Name)
	}
	if int64(cfg.Width)*int64(cfg.Height) > MaxPixels {
		return a, chat.Invalidf("file", "%s is %d×%d pixels; an image may have at most %d megapixels.",
			a.Name, cfg.Width, cfg.Height, MaxPixels/1_000_000)
	}
	if _, _, err := image.Decode(bytes.NewReader(data)); err != nil {
		return a, chat.Invalidf("file", "%s is a damaged image: %v.", a.Name, err)
	}
	a.Kind, a.Mime, a.Width, a.Height = chat.AttachmentImage, mimeType, cfg.Width, cfg.Height
	return a, nil
}

// isText reports content a model can read as text: valid UTF-8 without
// NUL (a binary file almost always holds one).
func isText(data []byte) bool {
	return utf8.Valid(data) && bytes.IndexByte(data, 0) < 0
}

// textMime is a text file's MIME type by its name: the common ones named,
// any other (source code included) text/plain, whatever the machine's
// own MIME table says.
func textMime(ext string) string {
	switch ext {
	case ".md", ".markdown":
		return "text/markdown"
	case ".csv":
		return "text/csv"
	case ".json":
		return "application/json"
	case ".html", ".htm":
		return "text/html"
	}
	return "text/plain"
}

// sizeOf writes a size for a person: "2.0 GB", "21.0 MB", "12 KB".
func sizeOf(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%d KB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

func chatAttachment(name string) chat.Attachment { return chat.Attachment{Name: name} }

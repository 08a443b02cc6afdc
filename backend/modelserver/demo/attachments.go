package demo

import (
	"bytes"
	"fmt"
	"image"
	"regexp"
	"strings"
	"unicode/utf8"

	_ "image/gif" // the images the demo is sent
	_ "image/jpeg"
	_ "image/png"

	"github.com/errand-app/errand/backend/modelserver/compat"
	_ "golang.org/x/image/webp"
)

// The ways Errand names attached files in a message's text.
var (
	imageLine = regexp.MustCompile(`\[Attached image "((?:[^"\\]|\\.)*)"`)
	fileBlock = regexp.MustCompile(`(?s)<file name="((?:[^"\\]|\\.)*)">\n(.*?)\n</file>`)
)

// acknowledge is what the demo says of the files a message carries: each
// image's name and the size it arrived at, each text file's name and
// length; "" when it carries none. It shows that the files reached the
// model, offline.
func acknowledge(m compat.Message) string {
	var said []string
	names := imageLine.FindAllStringSubmatch(m.Text(), -1)
	for i, img := range m.Images() {
		name := "an image"
		if i < len(names) {
			name = names[i][1]
		}
		size := "an image I could not read"
		if cfg, _, err := image.DecodeConfig(bytes.NewReader(img.Data)); err == nil {
			size = fmt.Sprintf("an image of %d×%d pixels", cfg.Width, cfg.Height)
		}
		said = append(said, fmt.Sprintf("%s (%s)", name, size))
	}
	for _, f := range fileBlock.FindAllStringSubmatch(m.Text(), -1) {
		said = append(said, fmt.Sprintf("%s (a text file of %d characters)", f[1], utf8.RuneCountInString(f[2])))
	}
	if len(said) == 0 {
		return ""
	}
	return "I received " + strings.Join(said, ", ") + ", though as the offline demo I can't really look at them."
}

// withAcknowledgement puts the acknowledgement of the last user message's
// files before text.
func withAcknowledgement(req *compat.Request, text string) string {
	u := req.LastUser()
	if u < 0 {
		return text
	}
	if ack := acknowledge(req.Messages[u]); ack != "" {
		return ack + " " + text
	}
	return text
}

package agent

import (
	"context"
	"fmt"
	"log/slog"
	"regexp"
	"strings"

	"github.com/errand-app/errand/backend/chat"
	"github.com/errand-app/errand/backend/contextwin"
	"github.com/errand-app/errand/backend/llm"
	"github.com/errand-app/errand/backend/mcp"
)

// Files is the model's view of attachments (backend/attach keeps them).
type Files interface {
	// ModelImage is an attached image as the model is sent it.
	ModelImage(a chat.Attachment) (llm.Image, error)
	// Text is an attached text file's content.
	Text(a chat.Attachment) (string, error)
	// ToolImage is an image a tool returned, as the model is sent it.
	ToolImage(ctx context.Context, id string) (llm.Image, error)
}

// MaxFileChars is the most of one attached text file the model sees in
// a request: a longer file goes as its head and tail with a note, as a
// large tool result does (the whole file stays with the person).
const MaxFileChars = 60_000

// withFiles is the model's view of a person's message: its text, then
// each text file's content, and each image named (the images go beside
// it as image parts). A file that cannot be read is named with why.
func withFiles(files Files, m *chat.Message) llm.Message {
	out := llm.Message{Role: chat.RoleUser, Content: m.Content}
	if len(m.Attachments) == 0 {
		return out
	}
	var b strings.Builder
	b.WriteString(m.Content)
	for _, a := range m.Attachments {
		if b.Len() > 0 {
			b.WriteString("\n\n")
		}
		switch {
		case files == nil:
			fmt.Fprintf(&b, "[Attached file %q, %d bytes, is not available to the model.]", a.Name, a.Size)
		case a.Kind == chat.AttachmentImage:
			img, err := files.ModelImage(a)
			if err != nil {
				slog.Warn("attached image unreadable", "id", a.ID, "err", err)
				fmt.Fprintf(&b, "[Attached image %q could not be read: %v]", a.Name, err)
				continue
			}
			fmt.Fprintf(&b, "[Attached image %q, %d×%d pixels.]", a.Name, a.Width, a.Height)
			out.Images = append(out.Images, img)
		default:
			text, err := files.Text(a)
			if err != nil {
				fmt.Fprintf(&b, "[Attached file %q could not be read: %v]", a.Name, err)
				continue
			}
			fmt.Fprintf(&b, "<file name=%q>\n%s\n</file>", a.Name, excerptFile(text))
		}
	}
	out.Content = b.String()
	return out
}

// excerptFile cuts a long file to MaxFileChars, with a note.
func excerptFile(text string) string {
	cut := contextwin.Excerpt(text, MaxFileChars)
	if len(cut) == len(text) {
		return text
	}
	return strings.Replace(cut, "the full result is stored and shown to the person", "the whole file is kept and shown to the person", 1)
}

// toolImageRef finds the images a tool result names (see mcp.ImageRef).
var toolImageRef = regexp.MustCompile(regexp.QuoteMeta(mcp.ImageRef) + `([A-Za-z0-9_-]+)`)

// withToolImages gives a tool result the images it names, for a model
// that takes images (the adapter decides where they go).
func withToolImages(files Files, m llm.Message) llm.Message {
	if files == nil || !strings.Contains(m.Content, mcp.ImageRef) {
		return m
	}
	for _, ref := range toolImageRef.FindAllStringSubmatch(m.Content, 8) {
		img, err := files.ToolImage(context.Background(), ref[1])
		if err != nil {
			slog.Warn("tool image unreadable", "id", ref[1], "err", err)
			continue
		}
		m.Images = append(m.Images, img)
	}
	return m
}

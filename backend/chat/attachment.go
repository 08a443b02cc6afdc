package chat

import "strings"

// AttachmentKind says how an attachment reaches the model: an image as an
// image part, a text file as text within the context budget.
type AttachmentKind string

const (
	AttachmentImage AttachmentKind = "image"
	AttachmentText  AttachmentKind = "text"
)

// Attachment is a file the person handed over with a message. Its content
// is stored once, by its hash, in the data folder; each message that
// carries it keeps its own name for it.
type Attachment struct {
	// ID is the SHA-256 of the content, in hex.
	ID   string         `json:"id"`
	Name string         `json:"name"`
	Kind AttachmentKind `json:"kind"`
	Mime string         `json:"mime"`
	Size int64          `json:"size"`
	// Width and Height are an image's, in pixels (0 for text).
	Width  int `json:"width,omitempty"`
	Height int `json:"height,omitempty"`
}

// The limits on what a person may attach.
const (
	// MaxAttachmentBytes is the largest file one attachment may be.
	MaxAttachmentBytes = 20 << 20
	// MaxAttachments is how many files one message may carry.
	MaxAttachments = 10
	// MaxAttachmentNameLen is the longest name a file may have, in bytes.
	MaxAttachmentNameLen = 255
)

// CheckAttachmentName refuses a file name that could mislead or break
// where it is shown or written: empty, too long, a path rather than a
// name, or holding control, NUL or direction-override characters (which
// can make "invoice‮gpj.exe" look like "invoiceexe.jpg").
func CheckAttachmentName(name string) error {
	switch {
	case strings.TrimSpace(name) == "" || name == "." || name == "..":
		return Invalidf("name", "The file has no name.")
	case len(name) > MaxAttachmentNameLen:
		return Invalidf("name", "The file name %s is longer than %d bytes.", Quote(name), MaxAttachmentNameLen)
	case !plainText(name):
		return Invalidf("name", "The file name %s holds control or direction-changing characters; rename the file first.", Quote(name))
	case strings.ContainsAny(name, `/\`):
		return Invalidf("name", "%s is a path, not a file name.", Quote(name))
	}
	return nil
}

// CheckAttachmentID refuses what cannot be an attachment's ID (a SHA-256
// in lower-case hex).
func CheckAttachmentID(id string) error {
	if len(id) != 64 || strings.Trim(id, "0123456789abcdef") != "" {
		return Errorf(CodeInvalid, "%s is not an attachment id", Quote(id))
	}
	return nil
}

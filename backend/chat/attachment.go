package chat

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

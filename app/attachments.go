package app

import "github.com/errand-app/errand/backend/chat"

// Attachments is the bound service for the files a person hands over
// with a message: each is checked and stored by its content hash before
// the message is sent, then named by its ID in Send or QueueMessage.
type Attachments struct{}

// errNoAttachments is what every call says until attachments are built.
var errNoAttachments = chat.Errorf(chat.CodeInvalid, "Attachments are not built yet.")

// Add checks and stores a file the window read (a pasted image, a
// dropped or picked file): name and its content in base64.
func (s *Attachments) Add(name, dataBase64 string) (_ chat.Attachment, err error) {
	defer recovered(&err)
	return chat.Attachment{}, errNoAttachments
}

// AddPath checks and stores a file named by its path (a file dropped on
// the desktop window).
func (s *Attachments) AddPath(path string) (_ chat.Attachment, err error) {
	defer recovered(&err)
	return chat.Attachment{}, errNoAttachments
}

// Image returns a stored image, the original the person sent, as a
// data: URL for an <img>.
func (s *Attachments) Image(id string) (_ string, err error) {
	defer recovered(&err)
	return "", errNoAttachments
}

// Open opens a stored attachment with the system's viewer, under the
// name it was sent with.
func (s *Attachments) Open(id, name string) (err error) {
	defer recovered(&err)
	return errNoAttachments
}

// notYetAttached refuses attachments until they are built.
func notYetAttached(ids []string) error {
	if len(ids) > 0 {
		return errNoAttachments
	}
	return nil
}

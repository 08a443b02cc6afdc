package app

import (
	"context"
	"encoding/base64"
	"fmt"
	"github.com/errand-app/errand/backend/store"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"strings"

	"github.com/errand-app/errand/backend/attach"
	"github.com/errand-app/errand/backend/chat"
)

// Attachments is the bound service for the files a person hands over
// with a message: each is checked and stored by its content hash before
// the message is sent, then named by its ID in Send or QueueMessage.
type Attachments struct {
	files *attach.Service
	// openDir is where Open writes the copies it hands the system viewer.
	openDir string
	open    func(path string) error
}

// Add checks and stores a file the window read (a pasted image, a
// dropped or picked file): name and its content in base64.
func (s *Attachments) Add(name, dataBase64 string) (_ chat.Attachment, err error) {
	defer recovered(&err)
	// Refused before it is decoded: the base64 of a file over the limit.
	if len(dataBase64) > base64.StdEncoding.EncodedLen(chat.MaxAttachmentBytes)+4 {
		return chat.Attachment{}, chat.Invalidf("file", "%s is larger than %d MB, the most a file may be.",
			chat.Quote(name), chat.MaxAttachmentBytes>>20)
	}
	data, err := base64.StdEncoding.DecodeString(dataBase64)
	if err != nil {
		return chat.Attachment{}, chat.Invalidf("file", "The content of %s did not arrive whole (not valid base64).", chat.Quote(name))
	}
	ctx, cancel := callCtx()
	defer cancel()
	return s.files.Add(ctx, name, data)
}

// AddPath checks and stores a file named by its path (a file dropped on
// the desktop window).
func (s *Attachments) AddPath(path string) (_ chat.Attachment, err error) {
	defer recovered(&err)
	if err := chat.CheckPath(path); err != nil {
		return chat.Attachment{}, err
	}
	ctx, cancel := callCtx()
	defer cancel()
	return s.files.AddPath(ctx, path)
}

// Image returns a stored image, the original the person sent, as a
// data: URL for an <img>.
func (s *Attachments) Image(id string) (_ string, err error) {
	defer recovered(&err)
	data, err := s.files.Original(id)
	if err != nil {
		return "", chat.Wrap(chat.CodeNotFound, err, "This file is no longer kept: %v", err)
	}
	mime := http.DetectContentType(data)
	if !strings.HasPrefix(mime, "image/") {
		return "", chat.Errorf(chat.CodeInvalid, "This attachment is not an image.")
	}
	return "data:" + mime + ";base64," + base64.StdEncoding.EncodeToString(data), nil
}

// Open opens a stored attachment with the system's viewer, under the
// name it was sent with. The viewer gets a copy (the kept file is never
// handed out to be changed), named so that it opens to be read, never
// run: a text file whose name says otherwise (a script, a program) gets
// ".txt" added.
func (s *Attachments) Open(id, name string) (err error) {
	defer recovered(&err)
	if err := chat.CheckAttachmentName(name); err != nil {
		return err
	}
	data, err := s.files.Original(id)
	if err != nil {
		return chat.Wrap(chat.CodeNotFound, err, "This file is no longer kept: %v", err)
	}
	dir := filepath.Join(s.openDir, id[:16])
	path := filepath.Join(dir, viewerName(name, http.DetectContentType(data)))
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return chat.Wrap(chat.CodeStorage, err, "The file could not be prepared for the viewer: %v", err)
	}
	if err := os.WriteFile(path, data, 0o400); err != nil && !os.IsPermission(err) {
		return chat.Wrap(chat.CodeStorage, err, "The file could not be prepared for the viewer: %v", err)
	}
	if err := s.open(path); err != nil {
		return chat.Wrap(chat.CodeInternal, err, "The system's viewer could not be started: %v", err)
	}
	return nil
}

// readable are the names a system viewer opens to read.
var readable = map[string]bool{".txt": true, ".md": true, ".csv": true, ".json": true, ".log": true,
	".png": true, ".jpg": true, ".jpeg": true, ".gif": true, ".webp": true}

// viewerName is name as the viewer's copy is called: an image keeps its
// own extension if it is an image's, any other name gets ".txt" (or the
// image's) added.
func viewerName(name, mime string) string {
	ext := strings.ToLower(filepath.Ext(name))
	if readable[ext] {
		return name
	}
	if after, ok := strings.CutPrefix(mime, "image/"); ok {
		return fmt.Sprintf("%s.%s", name, after)
	}
	return name + ".txt"
}

// attached resolves the files a message is to carry.
func attached(files *attach.Service, ids []string) ([]chat.Attachment, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	ctx, cancel := callCtx()
	defer cancel()
	return files.Resolve(ctx, ids)
}

// attachmentsDir is the data folder's folder of attachments.
const attachmentsDir = "attachments"

// openAttachments keeps attachments in the data folder. What a previous
// run left (files staged and never sent, those of deleted conversations)
// is swept on the late start: the first screen does not wait for it.
func openAttachments(dataDir string, st *store.Store, late *lateStart) *attach.Service {
	files := attach.Open(filepath.Join(dataDir, attachmentsDir), st, st)
	if !st.ReadOnly() {
		late.add(func() {
			if err := files.Sweep(context.Background()); err != nil {
				slog.Error("sweep attachments", "err", err)
			}
		})
	}
	return files
}

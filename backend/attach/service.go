package attach

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"image"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/errand-app/errand/backend/chat"
	"github.com/errand-app/errand/backend/llm"
)

// StagedFor is how long a file added but never sent is kept: the sweep
// at start removes older ones.
const StagedFor = 24 * time.Hour

var errNoToolImages = errors.New("no images of tools are kept")

// Rows is where the attachments' records live (the store).
type Rows interface {
	// StageAttachment records a content added (or added again) at at,
	// under the name it was last added with.
	StageAttachment(ctx context.Context, a chat.Attachment, at time.Time) error
	// StagedAttachments returns the records of ids that exist, each under
	// the name it was last added with.
	StagedAttachments(ctx context.Context, ids []string) ([]chat.Attachment, error)
	// AttachmentIDs are every recorded content's id.
	AttachmentIDs(ctx context.Context) (map[string]bool, error)
	// SweepStagedAttachments forgets the contents no message carries that
	// were last added before before.
	SweepStagedAttachments(ctx context.Context, before time.Time) error
}

// Service checks, keeps and hands out attachments.
type Service struct {
	rows      Rows
	originals blobs // what the person sent
	models    blobs // the model's copies of images (see modelCopy)
	now       func() time.Time
	// toolImages are the images MCP tools returned, and tools the model
	// copies made of them.
	toolImages ToolImages
	tools      toolCache

	// mu makes storing a content and sweeping the unrecorded ones take
	// turns: a sweep never removes a file whose record is being written.
	mu sync.Mutex
}

// Open keeps attachments under dir, recorded in rows; toolImages (may be
// nil) are the images tools returned.
func Open(dir string, rows Rows, toolImages ToolImages) *Service {
	return &Service{rows: rows, originals: blobs{filepath.Join(dir, "files")},
		models: blobs{filepath.Join(dir, "model")}, now: time.Now, toolImages: toolImages}
}

// Check is Add's checks alone (see the package's Check): nothing is kept.
func (s *Service) Check(name string, data []byte) (chat.Attachment, error) { return Check(name, data) }

// Add checks a file and keeps it, staged until a message carries it.
// Nothing is kept of a file that is refused.
func (s *Service) Add(ctx context.Context, name string, data []byte) (chat.Attachment, error) {
	a, err := Check(name, data)
	if err != nil {
		return chat.Attachment{}, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.keep(a, data); err != nil {
		return chat.Attachment{}, chat.Wrap(chat.CodeStorage, err, "%s could not be saved in the data folder: %v", name, err)
	}
	if err := s.rows.StageAttachment(ctx, a, s.now()); err != nil {
		return chat.Attachment{}, err
	}
	return a, nil
}

// keep writes the original and, for an image, the model's copy.
func (s *Service) keep(a chat.Attachment, data []byte) error {
	if a.Kind == chat.AttachmentImage && !s.models.has(a.ID) {
		img, _, err := image.Decode(bytes.NewReader(data))
		if err != nil {
			return err
		}
		small, err := modelCopy(img, a.Mime, data)
		if err != nil {
			return err
		}
		if err := s.models.put(a.ID, small); err != nil {
			return err
		}
	}
	return s.originals.put(a.ID, data)
}

// AddPath checks the file at path and keeps it (see Add). Only a regular
// file is read, and only once its size is known to be within the limit:
// a symbolic link, a FIFO, a device or a folder is refused unread.
func (s *Service) AddPath(ctx context.Context, path string) (chat.Attachment, error) {
	name := filepath.Base(path)
	info, err := os.Lstat(path)
	if err != nil {
		return chat.Attachment{}, chat.Invalidf("file", "%s cannot be read: %v", chat.Quote(name), unwrapPath(err))
	}
	if !info.Mode().IsRegular() {
		return chat.Attachment{}, chat.Invalidf("file", "%s is %s, not a file; only files can be attached.", chat.Quote(name), kindOf(info.Mode()))
	}
	if err := checkSize(name, info.Size()); err != nil {
		return chat.Attachment{}, err
	}
	data, err := readRegular(path)
	if err != nil {
		return chat.Attachment{}, err
	}
	return s.Add(ctx, name, data)
}

// readRegular reads a file that must still be a regular file within the
// limit once opened (it may have changed since it was looked at).
func readRegular(path string) ([]byte, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|noFollow, 0)
	if err != nil {
		return nil, chat.Invalidf("file", "%s cannot be read: %v", chat.Quote(filepath.Base(path)), unwrapPath(err))
	}
	defer f.Close()
	if info, err := f.Stat(); err != nil || !info.Mode().IsRegular() {
		return nil, chat.Invalidf("file", "%s is not a file; only files can be attached.", chat.Quote(filepath.Base(path)))
	}
	data, err := io.ReadAll(io.LimitReader(f, chat.MaxAttachmentBytes+1))
	if err != nil {
		return nil, chat.Invalidf("file", "%s cannot be read: %v", chat.Quote(filepath.Base(path)), err)
	}
	return data, nil
}

func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// kindOf names what a path is that is not a file.
func kindOf(m fs.FileMode) string {
	switch {
	case m&fs.ModeSymlink != 0:
		return "a symbolic link"
	case m.IsDir():
		return "a folder"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe (FIFO)"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeDevice != 0:
		return "a device"
	}
	return "a special file"
}

// Resolve returns the attachments a message is to carry, in the order
// named: each must have been added, and at most chat.MaxAttachments.
func (s *Service) Resolve(ctx context.Context, ids []string) ([]chat.Attachment, error) {
	if len(ids) > chat.MaxAttachments {
		return nil, chat.Errorf(chat.CodeInvalid, "A message may carry at most %d files; this one has %d.", chat.MaxAttachments, len(ids))
	}
	seen := map[string]bool{}
	for _, id := range ids {
		if err := chat.CheckAttachmentID(id); err != nil {
			return nil, err
		}
		if seen[id] {
			return nil, chat.Errorf(chat.CodeInvalid, "The same file is attached twice.")
		}
		seen[id] = true
	}
	found, err := s.rows.StagedAttachments(ctx, ids)
	if err != nil {
		return nil, err
	}
	byID := map[string]chat.Attachment{}
	for _, a := range found {
		byID[a.ID] = a
	}
	out := make([]chat.Attachment, 0, len(ids))
	for _, id := range ids {
		a, ok := byID[id]
		if !ok || !s.originals.has(id) {
			return nil, chat.Errorf(chat.CodeNotFound, "An attached file is no longer kept (id %s…); attach it again.", id[:12])
		}
		out = append(out, a)
	}
	return out, nil
}

// Original is the content the person sent.
func (s *Service) Original(id string) ([]byte, error) {
	if err := chat.CheckAttachmentID(id); err != nil {
		return nil, err
	}
	return s.originals.read(id)
}

// ModelImage is an image attachment as the model is sent it.
func (s *Service) ModelImage(a chat.Attachment) (llm.Image, error) {
	if err := chat.CheckAttachmentID(a.ID); err != nil {
		return llm.Image{}, err
	}
	data, err := s.models.read(a.ID)
	if err != nil {
		return llm.Image{}, err
	}
	return asImage(a.Name, data), nil
}

// Text is a text attachment's content.
func (s *Service) Text(a chat.Attachment) (string, error) {
	data, err := s.Original(a.ID)
	return string(data), err
}

// Sweep forgets staged files not sent within StagedFor and removes the
// files no record names any more (those of deleted conversations, and
// any a crash left half-written).
func (s *Service) Sweep(ctx context.Context) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.rows.SweepStagedAttachments(ctx, s.now().Add(-StagedFor)); err != nil {
		return err
	}
	kept, err := s.rows.AttachmentIDs(ctx)
	if err != nil {
		return err
	}
	for _, b := range []blobs{s.originals, s.models} {
		ids, err := b.list()
		if err != nil {
			return fmt.Errorf("list attachments: %w", err)
		}
		for _, id := range ids {
			if !kept[id] {
				if err := b.remove(id); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

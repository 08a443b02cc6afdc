package archive

import (
	"context"
	"fmt"
	"strings"

	"github.com/errand-app/errand/backend/chat"
)

// Originals reads the content of a kept attachment.
type Originals interface {
	Original(id string) ([]byte, error)
}

// Keeper checks and keeps a file (backend/attach): what an import brings
// back goes through the same checks as a file a person adds.
type Keeper interface {
	// Check is Add's checks alone: nothing is kept.
	Check(name string, data []byte) (chat.Attachment, error)
	Add(ctx context.Context, name string, data []byte) (chat.Attachment, error)
}

// WithFiles puts the content of every file the archive's messages carry
// into f.Files, by id: an export or backup is complete on its own.
func WithFiles(f File, files Originals) (File, error) {
	for _, r := range f.Conversations {
		for _, m := range r.Messages {
			for _, a := range m.Attachments {
				if _, ok := f.Files[a.ID]; ok {
					continue
				}
				data, err := files.Original(a.ID)
				if err != nil {
					return f, chat.Wrap(chat.CodeStorage, err, "the file %s of a message cannot be read: %v", chat.Quote(a.Name), err)
				}
				if f.Files == nil {
					f.Files = map[string][]byte{}
				}
				f.Files[a.ID] = data
			}
		}
	}
	return f, nil
}

// PutFiles checks and keeps every file the archive carries, before its
// conversations are imported: each must be one a person could have added,
// whose content is the one its id names, and every file a message carries
// must be in the archive. What is kept and not imported after all stays
// staged, and is swept like any file never sent.
func PutFiles(ctx context.Context, keeper Keeper, f File) error {
	names := map[string]string{}
	for _, r := range f.Conversations {
		for i, m := range r.Messages {
			if err := checkAttachments(i, m); err != nil {
				return err
			}
			for _, a := range m.Attachments {
				if _, ok := f.Files[a.ID]; !ok {
					return chat.Errorf(chat.CodeInvalid, "the file is damaged: message %d carries %s, which is not in the file", i+1, chat.Quote(a.Name))
				}
				names[a.ID] = a.Name
			}
		}
	}
	// Every file is checked before any is kept.
	for id, name := range names {
		a, err := keeper.Check(name, f.Files[id])
		if err != nil {
			return chat.Wrap(chat.CodeInvalid, err, "the file is damaged: an attached file is refused: %s", chat.ErrorMessage(err))
		}
		if a.ID != id {
			return chat.Errorf(chat.CodeInvalid, "the file is damaged: the content of %s is not the one its id names", chat.Quote(name))
		}
	}
	for id, name := range names {
		if _, err := keeper.Add(ctx, name, f.Files[id]); err != nil {
			return err
		}
	}
	return nil
}

// checkAttachments refuses what no person's message could carry.
func checkAttachments(i int, m chat.Message) error {
	if len(m.Attachments) == 0 {
		return nil
	}
	if m.Role != chat.RoleUser {
		return chat.Errorf(chat.CodeInvalid, "the file is damaged: message %d is not the person's but carries files", i+1)
	}
	if len(m.Attachments) > chat.MaxAttachments {
		return chat.Errorf(chat.CodeInvalid, "the file is damaged: message %d carries more than %d files", i+1, chat.MaxAttachments)
	}
	for _, a := range m.Attachments {
		if err := chat.CheckAttachmentID(a.ID); err != nil {
			return chat.Wrap(chat.CodeInvalid, err, "the file is damaged: message %d: %s", i+1, chat.ErrorMessage(err))
		}
		if err := chat.CheckAttachmentName(a.Name); err != nil {
			return chat.Wrap(chat.CodeInvalid, err, "the file is damaged: message %d: %s", i+1, chat.ErrorMessage(err))
		}
	}
	return nil
}

// writeAttachments lists a message's files in Markdown, by name: the
// export is text, the files themselves are in the JSON export.
func writeAttachments(b *strings.Builder, m chat.Message) {
	if len(m.Attachments) == 0 {
		return
	}
	names := make([]string, len(m.Attachments))
	for i, a := range m.Attachments {
		what := fmt.Sprintf("%s, %s", a.Mime, size(a.Size))
		if a.Kind == chat.AttachmentImage {
			what = fmt.Sprintf("image, %d×%d", a.Width, a.Height)
		}
		names[i] = fmt.Sprintf("`%s` (%s)", strings.ReplaceAll(a.Name, "`", "'"), what)
	}
	fmt.Fprintf(b, "_Attached: %s_\n\n", strings.Join(names, ", "))
}

func size(n int64) string {
	if n >= 1<<20 {
		return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	}
	if n >= 1<<10 {
		return fmt.Sprintf("%d KB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

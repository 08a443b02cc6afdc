package app

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/errand-app/errand/backend/archive"
	"github.com/errand-app/errand/backend/attach"
	"github.com/errand-app/errand/backend/chat"
	"github.com/errand-app/errand/backend/store"
	"github.com/wailsapp/wails/v2/pkg/runtime"
)

// Archive is the bound service for export, import, backup and restore.
// Each method asks for the file with a native dialog (cancelling it
// changes nothing and answers ""), then does the work in one place.
type Archive struct {
	store   *store.Store
	files   *attach.Service
	dialogs fileDialogs
}

// The export formats.
const (
	FormatMarkdown = "markdown"
	FormatJSON     = "json"
)

var (
	jsonFiles     = runtime.FileFilter{DisplayName: "Errand archives (*.json)", Pattern: "*.json"}
	markdownFiles = runtime.FileFilter{DisplayName: "Markdown (*.md)", Pattern: "*.md"}
)

// archiveTimeout bounds an export or import: a backup can be large.
const archiveTimeout = 5 * time.Minute

// ExportConversation saves a conversation as Markdown ("markdown") or
// JSON ("json") where the person chooses, and returns the file's path.
func (s *Archive) ExportConversation(id, format string) (_ string, err error) {
	defer recovered(&err)
	if err := requireID("conversation", id); err != nil {
		return "", err
	}
	ctx, cancel := context.WithTimeout(context.Background(), archiveTimeout)
	defer cancel()
	c, err := s.store.GetConversation(ctx, id)
	if err != nil {
		return "", err
	}
	filter, ext := jsonFiles, ".json"
	switch format {
	case FormatJSON:
	case FormatMarkdown:
		filter, ext = markdownFiles, ".md"
	default:
		return "", chat.Errorf(chat.CodeInvalid, "unknown export format %s; the formats are %q and %q", chat.Quote(format), FormatMarkdown, FormatJSON)
	}
	path, err := s.dialogs.save("Export the conversation", fileName(c.Title, "conversation")+ext, filter)
	if err != nil || path == "" {
		return "", err
	}
	return path, s.exportConversation(ctx, id, format, path)
}

func (s *Archive) exportConversation(ctx context.Context, id, format, path string) error {
	f, err := archive.Conversation(ctx, s.store, id)
	if err != nil {
		return err
	}
	var b bytes.Buffer
	if format == FormatMarkdown {
		err = archive.Markdown(&b, f.Conversations[0])
	} else if f, err = archive.WithFiles(f, s.files); err == nil {
		err = archive.WriteJSON(&b, f)
	}
	if err != nil {
		return err
	}
	return writeFile(path, b.Bytes())
}

// ImportConversations reads an exported conversation (or a backup's
// conversations) from a file the person chooses and stores them as new
// conversations, returned. Nothing is stored unless all of it is.
func (s *Archive) ImportConversations() (_ []chat.Conversation, err error) {
	defer recovered(&err)
	path, err := s.dialogs.open("Import a conversation", jsonFiles)
	if err != nil || path == "" {
		return []chat.Conversation{}, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), archiveTimeout)
	defer cancel()
	f, err := readArchive(path)
	if err != nil {
		return nil, err
	}
	if err := archive.PutFiles(ctx, s.files, f); err != nil {
		return nil, err
	}
	return archive.Import(ctx, s.store, f)
}

// ExportBackup saves every conversation, the settings and the global
// facts in one file the person chooses, and returns its path. No API key
// is in it.
func (s *Archive) ExportBackup() (_ string, err error) {
	defer recovered(&err)
	name := "errand-backup-" + time.Now().Format("2006-01-02") + ".json"
	path, err := s.dialogs.save("Back up everything", name, jsonFiles)
	if err != nil || path == "" {
		return "", err
	}
	ctx, cancel := context.WithTimeout(context.Background(), archiveTimeout)
	defer cancel()
	f, err := archive.Backup(ctx, s.store)
	if err != nil {
		return "", err
	}
	if f, err = archive.WithFiles(f, s.files); err != nil {
		return "", err
	}
	var b bytes.Buffer
	if err := archive.WriteJSON(&b, f); err != nil {
		return "", err
	}
	return path, writeFile(path, b.Bytes())
}

// RestoreBackup restores a backup the person chooses into an empty data
// folder they choose, and returns the folder: Errand uses it when started
// with ERRAND_DATA_DIR set to it. A folder that is not empty is refused.
func (s *Archive) RestoreBackup() (_ string, err error) {
	defer recovered(&err)
	path, err := s.dialogs.open("Choose the backup to restore", jsonFiles)
	if err != nil || path == "" {
		return "", err
	}
	dir, err := s.dialogs.folder("Choose an empty folder to restore into")
	if err != nil || dir == "" {
		return "", err
	}
	ctx, cancel := context.WithTimeout(context.Background(), archiveTimeout)
	defer cancel()
	if err := emptyFolder(dir); err != nil {
		return "", err
	}
	f, err := readArchive(path)
	if err != nil {
		return "", err
	}
	if f.Format != archive.FormatBackup {
		return "", chat.Errorf(chat.CodeInvalid, "this file is one conversation, not a backup: use Import instead")
	}
	if f, err = s.askToWiden(f); err != nil {
		return "", err
	}
	return dir, restoreInto(ctx, f, dir)
}

// askToWiden shows what the backup would let run without asking, or
// instruct, and asks whether to restore that too; unless the person says
// yes, the restored folder starts with a new installation's approvals and
// instructions.
func (s *Archive) askToWiden(f archive.File) (archive.File, error) {
	widening := archive.Widening(f)
	if len(widening) == 0 {
		return f, nil
	}
	question := "This backup's settings would let Errand:\n\n• " + strings.Join(widening, "\n• ") +
		"\n\nRestore these too? Only if you trust the backup. If not, the restored folder asks before tools that write or are destructive, and uses the built-in instructions."
	yes, err := s.dialogs.ask("Restore approvals and instructions?", question)
	if err != nil {
		return f, err
	}
	if !yes {
		return archive.Narrowed(f), nil
	}
	return f, nil
}

// restoreInto restores the backup f into a new database in dir, which
// must be an empty folder, with the files its messages carry. On failure
// the folder is left empty.
func restoreInto(ctx context.Context, f archive.File, dir string) (err error) {
	db := filepath.Join(dir, store.FileName)
	st, err := store.Open(ctx, db)
	if err != nil {
		return err
	}
	defer func() {
		if cerr := st.Close(); err == nil && cerr != nil {
			err = fmt.Errorf("close the restored database: %w", cerr)
		}
		if err != nil {
			for _, suffix := range []string{"", "-wal", "-shm"} {
				os.Remove(db + suffix)
			}
			os.RemoveAll(filepath.Join(dir, attachmentsDir))
		}
	}()
	if err := archive.PutFiles(ctx, attach.Open(filepath.Join(dir, attachmentsDir), st, st), f); err != nil {
		return err
	}
	return archive.Restore(ctx, st, f)
}

func emptyFolder(dir string) error {
	if !filepath.IsAbs(dir) {
		return chat.Errorf(chat.CodeInvalid, "the folder must be an absolute path")
	}
	entries, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return os.MkdirAll(dir, 0o700)
	}
	if err != nil {
		return chat.Wrap(chat.CodeInvalid, err, "%s cannot be read: %v", chat.Quote(dir), err)
	}
	if len(entries) > 0 {
		return chat.Errorf(chat.CodeInvalid,
			"%s is not empty: a backup is restored only into an empty folder, so that nothing there is overwritten", chat.Quote(dir))
	}
	return nil
}

func readArchive(path string) (archive.File, error) {
	fh, err := os.Open(path)
	if err != nil {
		return archive.File{}, chat.Wrap(chat.CodeInvalid, err, "%s cannot be opened", chat.Quote(path))
	}
	defer fh.Close()
	return archive.Read(fh)
}

// writeFile writes data whole or not at all: to a temporary file beside
// path, renamed over it. Exports hold private conversations: only the
// person can read them.
func writeFile(path string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), ".errand-export-*")
	if err != nil {
		return chat.Wrap(chat.CodeInvalid, err, "cannot write to %s", chat.Quote(filepath.Dir(path)))
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return chat.Wrap(chat.CodeStorage, err, "cannot write %s: %v", chat.Quote(path), err)
	}
	if err := tmp.Close(); err != nil {
		return chat.Wrap(chat.CodeStorage, err, "cannot write %s: %v", chat.Quote(path), err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return chat.Wrap(chat.CodeStorage, err, "cannot write %s: %v", chat.Quote(path), err)
	}
	return nil
}

var unsafeName = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`[^\p{L}\p{N} _.-]+`) })

// fileName makes a file name from a title.
func fileName(title, fallback string) string {
	name := strings.TrimSpace(unsafeName().ReplaceAllString(title, ""))
	if r := []rune(name); len(r) > 60 {
		name = strings.TrimSpace(string(r[:60]))
	}
	if name == "" || strings.HasPrefix(name, ".") {
		return fallback
	}
	return name
}

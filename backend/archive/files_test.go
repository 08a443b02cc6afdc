package archive

import (
	"bytes"
	"context"
	"image"
	"image/png"
	"path/filepath"
	"strings"
	"testing"

	"github.com/errand-app/errand/backend/attach"
	"github.com/errand-app/errand/backend/chat"
	"github.com/errand-app/errand/backend/store"
	"github.com/google/uuid"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// withAttached stores a conversation whose first message carries an image
// and a text file, kept in files; it returns the conversation's id.
func withAttached(t *testing.T, s *store.Store, files *attach.Service) string {
	t.Helper()
	ctx := context.Background()
	var b bytes.Buffer
	require.NoError(t, png.Encode(&b, image.NewGray(image.Rect(0, 0, 30, 20))))
	img, err := files.Add(ctx, "sketch.png", b.Bytes())
	require.NoError(t, err)
	txt, err := files.Add(ctx, "notes.md", []byte("# Notes"))
	require.NoError(t, err)
	c := chat.Conversation{ID: uuid.NewString(), Mode: chat.ModeChat, CreatedAt: at(0), UpdatedAt: at(0)}
	require.NoError(t, s.CreateConversation(ctx, c))
	_, err = s.AddMessage(ctx, chat.Message{ID: uuid.NewString(), ConversationID: c.ID, Role: chat.RoleUser,
		Content: "Look at these", Attachments: []chat.Attachment{img, txt}, CreatedAt: at(1)})
	require.NoError(t, err)
	return c.ID
}

func keptIn(t *testing.T) (*store.Store, *attach.Service) {
	s := openStore(t)
	return s, attach.Open(filepath.Join(t.TempDir(), "attachments"), s, s)
}

func TestExportedFilesComeBackWithTheImport(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	src, srcFiles := keptIn(t)
	id := withAttached(t, src, srcFiles)
	f, err := Conversation(ctx, src, id)
	require.NoError(t, err)
	f, err = WithFiles(f, srcFiles)
	require.NoError(t, err)
	var buf bytes.Buffer
	require.NoError(t, WriteJSON(&buf, f))
	read, err := Read(&buf)
	require.NoError(t, err)

	dst, dstFiles := keptIn(t)
	require.NoError(t, PutFiles(ctx, dstFiles, read))
	convs, err := Import(ctx, dst, read)
	require.NoError(t, err)
	msgs, err := dst.Messages(ctx, convs[0].ID)
	require.NoError(t, err)
	atts := msgs[0].Attachments
	require.Len(t, atts, 2)
	assert.Equal(t, []string{"sketch.png", "notes.md"}, []string{atts[0].Name, atts[1].Name})
	assert.Equal(t, [2]int{30, 20}, [2]int{atts[0].Width, atts[0].Height})
	text, err := dstFiles.Text(atts[1])
	require.NoError(t, err)
	assert.Equal(t, "# Notes", text)
	_, err = dstFiles.ModelImage(atts[0])
	require.NoError(t, err, "the model's copy is made again on import")
}

func TestABackupRestoresTheFiles(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	src, srcFiles := keptIn(t)
	withAttached(t, src, srcFiles)
	f, err := Backup(ctx, src)
	require.NoError(t, err)
	f, err = WithFiles(f, srcFiles)
	require.NoError(t, err)

	dst, dstFiles := keptIn(t)
	require.NoError(t, PutFiles(ctx, dstFiles, f))
	require.NoError(t, Restore(ctx, dst, f))
	list, err := dst.ListConversations(ctx)
	require.NoError(t, err)
	msgs, err := dst.Messages(ctx, list[0].ID)
	require.NoError(t, err)
	require.Len(t, msgs[0].Attachments, 2)
	data, err := dstFiles.Original(msgs[0].Attachments[0].ID)
	require.NoError(t, err)
	orig, err := srcFiles.Original(msgs[0].Attachments[0].ID)
	require.NoError(t, err)
	assert.Equal(t, orig, data)
}

func TestMarkdownNamesTheFiles(t *testing.T) {
	t.Parallel()
	src, srcFiles := keptIn(t)
	id := withAttached(t, src, srcFiles)
	r, err := src.ConversationRecord(context.Background(), id)
	require.NoError(t, err)
	var b bytes.Buffer
	require.NoError(t, Markdown(&b, r))
	assert.Contains(t, b.String(), "_Attached: `sketch.png` (image, 30×20), `notes.md` (text/markdown, 7 bytes)_")
}

func TestAnArchiveWithBadFilesIsRefusedWhole(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	src, srcFiles := keptIn(t)
	id := withAttached(t, src, srcFiles)
	f, err := Conversation(ctx, src, id)
	require.NoError(t, err)
	f, err = WithFiles(f, srcFiles)
	require.NoError(t, err)

	for name, spoil := range map[string]func(File) File{
		"content that is not its id's": func(f File) File {
			f.Files[f.Conversations[0].Messages[0].Attachments[1].ID] = []byte("# Other")
			return f
		},
		"a file missing": func(f File) File { f.Files = nil; return f },
		"a name with a direction override": func(f File) File {
			f.Conversations[0].Messages[0].Attachments[0].Name = "x\u202Egnp.exe"
			return f
		},
	} {
		dst, dstFiles := keptIn(t)
		copied := f
		copied.Files = map[string][]byte{}
		for k, v := range f.Files {
			copied.Files[k] = v
		}
		msgs := append([]chat.Message(nil), f.Conversations[0].Messages...)
		msgs[0].Attachments = append([]chat.Attachment(nil), msgs[0].Attachments...)
		copied.Conversations = []chat.ConversationRecord{f.Conversations[0]}
		copied.Conversations[0].Messages = msgs
		err := PutFiles(ctx, dstFiles, spoil(copied))
		require.Error(t, err, name)
		assert.Equal(t, chat.CodeInvalid, chat.ErrorCode(err), name)
		assert.True(t, strings.HasPrefix(chat.ErrorMessage(err), "the file is damaged"), name)
		assert.Zero(t, len(mustIDs(t, dst)), name+": no file recorded")
		list, _ := dst.ListConversations(ctx)
		assert.Empty(t, list, name)
	}
}

func mustIDs(t *testing.T, s *store.Store) map[string]bool {
	ids, err := s.AttachmentIDs(context.Background())
	require.NoError(t, err)
	return ids
}

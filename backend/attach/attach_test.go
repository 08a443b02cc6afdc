package attach_test

import (
	"bytes"
	"context"
	"encoding/binary"
	"hash/crc32"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/errand-app/errand/backend/attach"
	"github.com/errand-app/errand/backend/chat"
	"github.com/errand-app/errand/backend/store"
	"github.com/google/uuid"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

type fixture struct {
	t     *testing.T
	dir   string // the attachments folder
	store *store.Store
	files *attach.Service
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	st, err := store.Open(context.Background(), filepath.Join(t.TempDir(), store.FileName))
	require.NoError(t, err)
	t.Cleanup(func() { st.Close() })
	dir := filepath.Join(t.TempDir(), "attachments")
	return &fixture{t: t, dir: dir, store: st, files: attach.Open(dir, st, st)}
}

// kept lists the files in the attachments folder.
func (f *fixture) kept() []string {
	var out []string
	_ = filepath.WalkDir(f.dir, func(path string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			out = append(out, path)
		}
		return nil
	})
	return out
}

// rows counts the attachments recorded.
func (f *fixture) rows() int {
	ids, err := f.store.AttachmentIDs(context.Background())
	require.NoError(f.t, err)
	return len(ids)
}

// send stores a user message carrying atts in a new conversation.
func (f *fixture) send(conv string, atts ...chat.Attachment) chat.Message {
	ctx := context.Background()
	if _, err := f.store.GetConversation(ctx, conv); err != nil {
		now := time.Now()
		require.NoError(f.t, f.store.CreateConversation(ctx, chat.Conversation{ID: conv, Mode: chat.ModeChat, CreatedAt: now, UpdatedAt: now}))
	}
	m, err := f.store.AddMessage(ctx, chat.Message{ID: uuid.NewString(), ConversationID: conv, Role: chat.RoleUser,
		Content: "see the files", Attachments: atts, CreatedAt: time.Now()})
	require.NoError(f.t, err)
	return m
}

func pngOf(t *testing.T, w, h int) []byte {
	t.Helper()
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	img.Set(0, 0, color.NRGBA{G: 255, A: 128})
	var b bytes.Buffer
	require.NoError(t, png.Encode(&b, img))
	return b.Bytes()
}

// bombPNG is a valid PNG header claiming w×h pixels, with no image data:
// a few dozen bytes that would decode to gigapixels.
func bombPNG(w, h uint32) []byte {
	var b bytes.Buffer
	b.WriteString("\x89PNG\r\n\x1a\n")
	ihdr := make([]byte, 13)
	binary.BigEndian.PutUint32(ihdr[0:], w)
	binary.BigEndian.PutUint32(ihdr[4:], h)
	ihdr[8], ihdr[9] = 8, 2 // 8-bit RGB
	chunk := append([]byte("IHDR"), ihdr...)
	binary.Write(&b, binary.BigEndian, uint32(13))
	b.Write(chunk)
	binary.Write(&b, binary.BigEndian, crc32.ChecksumIEEE(chunk))
	return b.Bytes()
}

func TestTheSameContentIsKeptOnceAndSharedByItsMessages(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ctx := context.Background()
	a, err := f.files.Add(ctx, "one.png", pngOf(t, 20, 10))
	require.NoError(t, err)
	b, err := f.files.Add(ctx, "two.png", pngOf(t, 20, 10))
	require.NoError(t, err)
	assert.Equal(t, a.ID, b.ID, "stored by content hash")
	assert.Len(t, a.ID, 64)
	assert.Equal(t, chat.AttachmentImage, a.Kind)
	assert.Equal(t, [3]any{"image/png", 20, 10}, [3]any{a.Mime, a.Width, a.Height})

	first := f.send("c1", a)
	f.send("c2", b)
	files := f.kept()
	assert.Len(t, files, 2, "one original and its model copy, whatever the number of messages")

	msgs, err := f.store.Messages(ctx, "c1")
	require.NoError(t, err)
	require.Len(t, msgs[0].Attachments, 1)
	assert.Equal(t, "one.png", msgs[0].Attachments[0].Name, "each message keeps its own name")
	assert.Equal(t, first.ID, msgs[0].ID)

	// Deleting one conversation keeps what the other still carries.
	require.NoError(t, f.store.DeleteConversation(ctx, "c1"))
	require.NoError(t, f.files.Sweep(ctx))
	assert.Len(t, f.kept(), 2)
	msgs, err = f.store.Messages(ctx, "c2")
	require.NoError(t, err)
	assert.Equal(t, "two.png", msgs[0].Attachments[0].Name)

	// The last one takes it with it.
	require.NoError(t, f.store.DeleteConversation(ctx, "c2"))
	require.NoError(t, f.files.Sweep(ctx))
	assert.Empty(t, f.kept())
	assert.Zero(t, f.rows())
}

func TestStagedFilesNotSentWithinADayAreSwept(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ctx := context.Background()
	old, err := f.files.Add(ctx, "old.txt", []byte("never sent"))
	require.NoError(t, err)
	require.NoError(t, f.store.StageAttachment(ctx, old, time.Now().Add(-attach.StagedFor-time.Minute)))
	fresh, err := f.files.Add(ctx, "fresh.txt", []byte("just added"))
	require.NoError(t, err)
	require.NoError(t, f.files.Sweep(ctx))

	_, err = f.files.Resolve(ctx, []string{old.ID})
	assert.Equal(t, chat.CodeNotFound, chat.ErrorCode(err), "a day-old staged file is gone")
	got, err := f.files.Resolve(ctx, []string{fresh.ID})
	require.NoError(t, err)
	assert.Equal(t, "fresh.txt", got[0].Name)
	assert.Len(t, f.kept(), 1)
}

func TestTextFilesAreTakenAsText(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	for name, mime := range map[string]string{"notes.md": "text/markdown", "data.csv": "text/csv", "x.json": "application/json", "main.go": "text/plain"} {
		a, err := f.files.Add(context.Background(), name, []byte("héllo, wörld\n"))
		require.NoError(t, err, name)
		assert.Equal(t, chat.AttachmentText, a.Kind)
		assert.Equal(t, mime, a.Mime, name)
	}
}

func TestImagesAreKnownByTheirContent(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	var photo bytes.Buffer
	require.NoError(t, jpeg.Encode(&photo, image.NewGray(image.Rect(0, 0, 16, 8)), nil))
	a, err := f.files.Add(context.Background(), "named-wrong.png", photo.Bytes())
	require.NoError(t, err)
	assert.Equal(t, "image/jpeg", a.Mime, "a JPEG named .png is taken for what it is")
	img, err := f.files.ModelImage(a)
	require.NoError(t, err)
	assert.Equal(t, photo.Bytes(), img.Data, "a small JPEG goes to the model as it is")
}

func TestALargeImageIsDownscaledForTheModelAndKeptWholeForThePerson(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	// Narrow, so that it is cheap to encode and scale, yet over twice
	// ModelSide tall: halved to 100×2050, then fitted.
	data := pngOf(t, 200, 4100)
	a, err := f.files.Add(context.Background(), "tall.png", data)
	require.NoError(t, err)
	img, err := f.files.ModelImage(a)
	require.NoError(t, err)
	assert.Equal(t, [2]int{99, 2048}, [2]int{img.Width, img.Height})
	assert.Equal(t, "image/png", img.Mime, "transparency keeps it a PNG")
	orig, err := f.files.Original(a.ID)
	require.NoError(t, err)
	assert.Equal(t, data, orig)
}

// TestBadInputIsRefusedWithNothingStored covers every refusal: each says
// why, and neither a file nor a row remains.
func TestBadInputIsRefusedWithNothingStored(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, file string
		data       []byte
		says       string
	}{
		{"not an image", "photo.png", []byte("this is text, not a picture"), "named as an image but is not"},
		{"a damaged image", "cut.png", pngOf(t, 64, 64)[:60], "damaged image"},
		{"a decompression bomb", "bomb.png", bombPNG(100_000, 100_000), "at most 50 megapixels"},
		{"binary", "tool.bin", []byte{0x7f, 'E', 'L', 'F', 0, 1, 2}, "neither an image"},
		{"invalid UTF-8", "latin1.txt", []byte("caf\xe9"), "neither an image"},
		{"a PDF", "paper.pdf", []byte("%PDF-1.7\n..."), "PDFs are not read yet"},
		{"empty", "empty.txt", nil, "is empty"},
		{"too large", "big.txt", bytes.Repeat([]byte("a"), chat.MaxAttachmentBytes+1), "at most 20 MB"},
		{"a direction override", "invoice\u202Egpj.exe", []byte("x"), "direction-changing"},
		{"a control character", "a\x00b.txt", []byte("x"), "control"},
		{"a path", "../../etc/passwd", []byte("x"), "is a path"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			f := newFixture(t)
			_, err := f.files.Add(context.Background(), c.file, c.data)
			require.Error(t, err)
			assert.Equal(t, chat.CodeInvalid, chat.ErrorCode(err))
			assert.Contains(t, err.Error(), c.says)
			assert.Empty(t, f.kept(), "no file stored")
			assert.Zero(t, f.rows(), "no row stored")
		})
	}
}

func TestATwelveMegapixelHeaderIsNotTakenForABomb(t *testing.T) {
	t.Parallel()
	// Only its header is read to check its size: build one without pixels.
	_, err := attach.Check("photo.png", bombPNG(4000, 3000))
	require.Error(t, err, "no pixel data: it is refused as damaged, not as too large")
	assert.NotContains(t, err.Error(), "megapixels")
}

func TestAMessageCarriesAtMostTenFiles(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	var ids []string
	for i := 0; i < chat.MaxAttachments+1; i++ {
		a, err := f.files.Add(context.Background(), "n.txt", []byte(strings.Repeat("x", i+1)))
		require.NoError(t, err)
		ids = append(ids, a.ID)
	}
	_, err := f.files.Resolve(context.Background(), ids)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "at most 10 files")
	got, err := f.files.Resolve(context.Background(), ids[:10])
	require.NoError(t, err)
	assert.Len(t, got, 10)
}

func TestSearchFindsAMessageByItsFilesName(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	a, err := f.files.Add(context.Background(), "quarterly-figures.csv", []byte("q,amount\n1,3\n"))
	require.NoError(t, err)
	m := f.send("c1", a)
	hits, err := f.store.Search(context.Background(), "quarterly figures", 10)
	require.NoError(t, err)
	require.Len(t, hits, 1)
	assert.Equal(t, m.ID, hits[0].MessageID)
}

func TestImagesMoreThanTwiceTooLargeAreHalvedFirst(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	var photo bytes.Buffer
	// Just over twice ModelSide wide (halved to 2100×100, then fitted) and
	// low, so that it is cheap to encode and scale.
	img := image.NewYCbCr(image.Rect(0, 0, 4200, 200), image.YCbCrSubsampleRatio420)
	for i := range img.Y {
		img.Y[i] = uint8(i % 251)
	}
	require.NoError(t, jpeg.Encode(&photo, img, nil))
	for name, data := range map[string][]byte{"wide.jpg": photo.Bytes(), "wide.png": pngOf(t, 4200, 200)} {
		a, err := f.files.Add(context.Background(), name, data)
		require.NoError(t, err)
		got, err := f.files.ModelImage(a)
		require.NoError(t, err)
		assert.Equal(t, [2]int{2048, 97}, [2]int{got.Width, got.Height}, name)
	}
}

func TestAQueuedMessageKeepsItsFilesWhenDelivered(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ctx := context.Background()
	now := time.Now()
	require.NoError(t, f.store.CreateConversation(ctx, chat.Conversation{ID: "c1", Mode: chat.ModeAgent, CreatedAt: now, UpdatedAt: now}))
	task := chat.Task{ID: uuid.NewString(), ConversationID: "c1", Mode: chat.ModeAgent, Status: chat.StatusRunning, StartedAt: now, Rev: 1}
	_, err := f.store.StartTask(ctx, task, chat.Message{ID: uuid.NewString(), ConversationID: "c1", TaskID: task.ID,
		Role: chat.RoleUser, Content: "start", CreatedAt: now})
	require.NoError(t, err)
	a, err := f.files.Add(ctx, "later.txt", []byte("added while it worked"))
	require.NoError(t, err)
	_, err = f.store.AddMessage(ctx, chat.Message{ID: uuid.NewString(), ConversationID: "c1", TaskID: task.ID, Role: chat.RoleUser,
		Attachments: []chat.Attachment{a}, Delivery: chat.DeliveryQueued, CreatedAt: now})
	require.NoError(t, err)

	delivered, err := f.store.TakeQueued(ctx, task.ID)
	require.NoError(t, err)
	require.Len(t, delivered, 1)
	require.Len(t, delivered[0].Attachments, 1, "moved to the end of the transcript with its file")
	require.NoError(t, f.files.Sweep(ctx))
	text, err := f.files.Text(delivered[0].Attachments[0])
	require.NoError(t, err)
	assert.Equal(t, "added while it worked", text)
}

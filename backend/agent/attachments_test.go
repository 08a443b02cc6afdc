package agent

import (
	"bytes"
	"context"
	"image"
	"image/color"
	"image/png"
	"path/filepath"
	"strings"
	"testing"

	"github.com/errand-app/errand/backend/attach"
	"github.com/errand-app/errand/backend/chat"
	"github.com/errand-app/errand/backend/llm"
	"github.com/errand-app/errand/backend/modelserver/compat"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// pngOf is a w×h PNG, compressed at the fastest level (the default level
// cost seconds of CPU under -race for the large ones).
func pngOf(t *testing.T, w, h int) []byte {
	t.Helper()
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for x := 0; x < w; x++ {
		img.Set(x, x%h, color.NRGBA{R: 200, A: 255})
	}
	var b bytes.Buffer
	require.NoError(t, (&png.Encoder{CompressionLevel: png.BestSpeed}).Encode(&b, img))
	return b.Bytes()
}

// attachedHarness is a harness whose runner sends attachments, kept in
// t.TempDir(), on the model named model.
func attachedHarness(t *testing.T, model string, script func(*compat.Request) compat.Reply, rejections bool) (*harness, *attach.Service) {
	t.Helper()
	var files *attach.Service
	h := newHarness(t, script, harnessOpts{model: model, allowRejections: rejections, files: lazyFiles{&files}})
	files = attach.Open(filepath.Join(t.TempDir(), "attachments"), h.store, h.store)
	return h, files
}

// lazyFiles is the service once it is made (it needs the harness's store).
type lazyFiles struct{ s **attach.Service }

func (l lazyFiles) ModelImage(a chat.Attachment) (llm.Image, error) { return (*l.s).ModelImage(a) }
func (l lazyFiles) Text(a chat.Attachment) (string, error)          { return (*l.s).Text(a) }
func (l lazyFiles) ToolImage(ctx context.Context, id string) (llm.Image, error) {
	return (*l.s).ToolImage(ctx, id)
}

// sendWithFiles adds an image (board, a PNG; small where its size does not
// matter: a large one costs seconds of CPU under -race) and a text file, and
// sends them.
func sendWithFiles(t *testing.T, h *harness, files *attach.Service, conv string, board []byte) chat.Task {
	t.Helper()
	ctx := context.Background()
	img, err := files.Add(ctx, "board.png", board)
	require.NoError(t, err)
	txt, err := files.Add(ctx, "notes.md", []byte("# Notes\nThe budget is 42."))
	require.NoError(t, err)
	atts, err := files.Resolve(ctx, []string{img.ID, txt.ID})
	require.NoError(t, err)
	task, err := h.runner.SendWith(ctx, conv, "What does the board say?", atts)
	require.NoError(t, err)
	return task
}

func lastUserOf(req compat.Request) compat.Message {
	for i := len(req.Messages) - 1; i >= 0; i-- {
		if req.Messages[i].Role == "user" {
			return req.Messages[i]
		}
	}
	return compat.Message{}
}

func TestAVisionModelIsSentTheImageAndTheFileWithTheMessage(t *testing.T) {
	t.Parallel()
	h, files := attachedHarness(t, "test-model", always(
		compat.Reply{Text: "A budget.", ToolCalls: []chat.ToolCall{call(ToolTaskComplete, `{"summary":"read it"}`)}},
	), false)
	conv := h.conversation()
	task := sendWithFiles(t, h, files, conv, pngOf(t, 2400, 600))
	require.Equal(t, chat.StatusCompleted, h.events.waitEnded(task.ID).Status)

	reqs := h.server.Requests()
	require.NotEmpty(t, reqs)
	user := lastUserOf(reqs[0])
	imgs := user.Images()
	require.Len(t, imgs, 1, "the image goes as an image_url part")
	cfg, _, err := image.DecodeConfig(bytes.NewReader(imgs[0].Data))
	require.NoError(t, err)
	assert.Equal(t, [2]int{2048, 512}, [2]int{cfg.Width, cfg.Height}, "downscaled to a longest side of 2,048 px")
	assert.Contains(t, user.Text(), "What does the board say?")
	assert.Contains(t, user.Text(), "<file name=\"notes.md\">\n# Notes\nThe budget is 42.\n</file>", "the text file goes as text")

	msgs := h.messages(conv)
	require.Equal(t, chat.RoleUser, msgs[0].Role)
	require.Len(t, msgs[0].Attachments, 2, "the message keeps its files")
	assert.Equal(t, "board.png", msgs[0].Attachments[0].Name)
	assert.Equal(t, 2400, msgs[0].Attachments[0].Width, "the original is kept for the person")
}

func TestATextOnlyModelsRefusalIsANoticeAndTheStepIsRetriedWithoutTheImage(t *testing.T) {
	t.Parallel()
	h, files := attachedHarness(t, "mock-"+compat.TextOnlyMarker, always(
		compat.Reply{Text: "No image here.", ToolCalls: []chat.ToolCall{call(ToolTaskComplete, `{"summary":"read the notes"}`)}},
	), true)
	conv := h.conversation()
	task := sendWithFiles(t, h, files, conv, pngOf(t, 80, 20))
	require.Equal(t, chat.StatusCompleted, h.events.waitEnded(task.ID).Status, "the task does not fail")

	require.Len(t, h.server.Rejections(), 1, "the server refused the image once")
	assert.Contains(t, h.server.Rejections()[0], "image_url is only supported by certain models")
	reqs := h.server.Requests()
	retry := lastUserOf(reqs[len(reqs)-1])
	assert.Empty(t, retry.Images(), "the retry carries no image")
	assert.Contains(t, retry.Text(), `[Image "board.png" not shown: this model does not take images.]`)
	assert.Contains(t, retry.Text(), "The budget is 42.", "the text file still goes")
	assert.True(t, hasNotice(h.messages(conv), "does not take images"), "the person is told in the transcript")

	// Remembered for the model: the next message goes without the image at once.
	before := len(h.server.Requests())
	task = sendWithFiles(t, h, files, conv, pngOf(t, 80, 20))
	require.Equal(t, chat.StatusCompleted, h.events.waitEnded(task.ID).Status)
	assert.Len(t, h.server.Rejections(), 1, "no second refusal")
	assert.Empty(t, lastUserOf(h.server.Requests()[before]).Images())
}

func TestAModelKnownToBeTextOnlyIsNeverSentTheImage(t *testing.T) {
	t.Parallel()
	h, files := attachedHarness(t, "gpt-3.5-turbo", always(
		compat.Reply{Text: "Noted.", ToolCalls: []chat.ToolCall{call(ToolTaskComplete, `{"summary":"ok"}`)}},
	), false)
	conv := h.conversation()
	task := sendWithFiles(t, h, files, conv, pngOf(t, 80, 20))
	require.Equal(t, chat.StatusCompleted, h.events.waitEnded(task.ID).Status)
	for _, req := range h.server.Requests() {
		for _, m := range req.Messages {
			assert.Empty(t, m.Images())
		}
	}
	assert.True(t, hasNotice(h.messages(conv), "does not take images"))
}

func TestAMessageMayBeFilesAlone(t *testing.T) {
	t.Parallel()
	h, files := attachedHarness(t, "test-model", always(
		compat.Reply{Text: "A picture.", ToolCalls: []chat.ToolCall{call(ToolTaskComplete, `{"summary":"ok"}`)}},
	), false)
	conv := h.conversation()
	ctx := context.Background()
	img, err := files.Add(ctx, "only.png", pngOf(t, 40, 30))
	require.NoError(t, err)
	task, err := h.runner.SendWith(ctx, conv, "  ", []chat.Attachment{img})
	require.NoError(t, err)
	require.Equal(t, chat.StatusCompleted, h.events.waitEnded(task.ID).Status)
	user := lastUserOf(h.server.Requests()[0])
	require.Len(t, user.Images(), 1)
	assert.Equal(t, pngOf(t, 40, 30), user.Images()[0].Data, "a small PNG goes as it is")

	_, err = h.runner.SendWith(ctx, conv, "  ", nil)
	assert.Equal(t, chat.CodeInvalid, chat.ErrorCode(err), "no text and no file is still empty")
}

func hasNotice(msgs []chat.Message, text string) bool {
	for _, m := range msgs {
		if m.Role == chat.RoleSystem && strings.Contains(m.Content, text) {
			return true
		}
	}
	return false
}

// always answers every request with reply.
func always(reply compat.Reply) func(*compat.Request) compat.Reply {
	return func(*compat.Request) compat.Reply { return reply }
}

func TestAnEditedMessageKeepsItsFiles(t *testing.T) {
	t.Parallel()
	h, files := attachedHarness(t, "test-model", always(
		compat.Reply{Text: "Seen.", ToolCalls: []chat.ToolCall{call(ToolTaskComplete, `{"summary":"ok"}`)}},
	), false)
	conv := h.conversation()
	task := sendWithFiles(t, h, files, conv, pngOf(t, 80, 20))
	require.Equal(t, chat.StatusCompleted, h.events.waitEnded(task.ID).Status)
	first := h.messages(conv)[0]

	task, err := h.runner.EditAndResend(context.Background(), conv, first.ID, "")
	require.NoError(t, err, "with files, the edited text may be empty")
	require.Equal(t, chat.StatusCompleted, h.events.waitEnded(task.ID).Status)
	edited := h.messages(conv)[0]
	assert.NotEqual(t, first.ID, edited.ID)
	assert.Equal(t, first.Attachments, edited.Attachments, "the new version carries the same files")
	reqs := h.server.Requests()
	assert.Len(t, lastUserOf(reqs[len(reqs)-1]).Images(), 1)
}

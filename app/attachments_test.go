package app

import (
	"bytes"
	"encoding/base64"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/errand-app/errand/backend/chat"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func pngBase64(t *testing.T, w, h int) string {
	t.Helper()
	var b bytes.Buffer
	require.NoError(t, png.Encode(&b, image.NewGray(image.Rect(0, 0, w, h))))
	return base64.StdEncoding.EncodeToString(b.Bytes())
}

// TestAttachedFilesReachTheDemoModelAndComeBack goes through the
// bindings: Add, Send with the ids, the demo's reply naming the files,
// the message showing them after a restart, Image giving the original,
// and deleting the conversation taking the files with it.
func TestAttachedFilesReachTheDemoModelAndComeBack(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	a := newAppWith(t, Config{DataDir: dir, Keyring: &fakeKeyring{}})
	c, err := a.Conversations.CreateConversation()
	require.NoError(t, err)
	_, err = a.Conversations.SetMode(c.ID, string(chat.ModeChat))
	require.NoError(t, err)

	img, err := a.Attachments.Add("shot.png", pngBase64(t, 64, 32))
	require.NoError(t, err)
	txt, err := a.Attachments.Add("todo.md", base64.StdEncoding.EncodeToString([]byte("- buy milk")))
	require.NoError(t, err)
	task, err := a.Runner.Send(c.ID, "", []string{img.ID, txt.ID})
	require.NoError(t, err)
	waitFor(t, func() bool {
		got, err := a.Runner.GetTask(task.ID)
		return err == nil && got.Status == chat.StatusCompleted
	})
	a.Shutdown(t.Context())

	a = newAppWith(t, Config{DataDir: dir, Keyring: &fakeKeyring{}})
	view, err := a.Conversations.LoadConversation(c.ID)
	require.NoError(t, err)
	require.Len(t, view.Messages[0].Attachments, 2, "the files are on the message after a restart")
	assert.Equal(t, []string{"shot.png", "todo.md"}, []string{view.Messages[0].Attachments[0].Name, view.Messages[0].Attachments[1].Name})
	reply := view.Messages[len(view.Messages)-1]
	assert.Contains(t, reply.Content, "shot.png (an image of 64×32 pixels)")
	assert.Contains(t, reply.Content, "todo.md (a text file of 10 characters)")

	url, err := a.Attachments.Image(img.ID)
	require.NoError(t, err)
	assert.Equal(t, "data:image/png;base64,"+pngBase64(t, 64, 32), url)
	_, err = a.Attachments.Image(txt.ID)
	assert.Equal(t, chat.CodeInvalid, code(err), "a text file is not an image")

	require.NoError(t, a.Conversations.DeleteConversation(c.ID))
	_, err = a.Attachments.Image(img.ID)
	assert.Equal(t, chat.CodeNotFound, code(err), "the files went with the conversation")
}

func TestAttachmentBindingsRefuseBadInput(t *testing.T) {
	t.Parallel()
	a := newApp(t)
	c, err := a.Conversations.CreateConversation()
	require.NoError(t, err)
	_, err = a.Attachments.Add("big.txt", strings.Repeat("QUFB", chat.MaxAttachmentBytes/3+8))
	assert.Equal(t, chat.CodeInvalid, code(err), "over 20 MB is refused before it is decoded")
	_, err = a.Attachments.Add("a.txt", "not base64!")
	assert.Equal(t, chat.CodeInvalid, code(err))
	_, err = a.Runner.Send(c.ID, "hi", []string{"nope"})
	assert.Equal(t, chat.CodeInvalid, code(err))
	_, err = a.Runner.Send(c.ID, "hi", []string{strings.Repeat("a", 64)})
	assert.Equal(t, chat.CodeNotFound, code(err), "an id that was never added")
	_, err = a.Attachments.Image("../../etc/passwd")
	assert.Equal(t, chat.CodeNotFound, code(err))
}

func TestOpenHandsTheViewerACopyThatOpensToBeRead(t *testing.T) {
	t.Parallel()
	a := newApp(t)
	var opened []string
	a.Attachments.open = func(path string) error { opened = append(opened, path); return nil }
	script, err := a.Attachments.Add("run.sh", base64.StdEncoding.EncodeToString([]byte("rm -rf ~\n")))
	require.NoError(t, err)
	require.NoError(t, a.Attachments.Open(script.ID, "run.sh"))
	require.Len(t, opened, 1)
	assert.Equal(t, "run.sh.txt", filepath.Base(opened[0]), "a script opens as text, never runs")
	data, err := os.ReadFile(opened[0])
	require.NoError(t, err)
	assert.Equal(t, "rm -rf ~\n", string(data))
	assert.Error(t, a.Attachments.Open(script.ID, "x\u202Etxt.sh"))
}

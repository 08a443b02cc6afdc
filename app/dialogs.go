package app

import (
	"fmt"
	"strings"

	"github.com/errand-app/errand/backend/chat"
	"github.com/wailsapp/wails/v2/pkg/runtime"
)

// fileDialogs asks the person where to save a file, which file to open
// and which folder to use. Each answers "" when the person cancels.
type fileDialogs interface {
	save(title, name string, filter runtime.FileFilter) (string, error)
	open(title string, filter runtime.FileFilter) (string, error)
	folder(title string) (string, error)
	// ask puts a yes-or-no question; only an explicit yes is true.
	ask(title, question string) (bool, error)
}

// nativeDialogs are the desktop's own dialogs, once the window exists.
type nativeDialogs struct{ win *windowContext }

func (d nativeDialogs) save(title, name string, filter runtime.FileFilter) (string, error) {
	win := d.win.get()
	if win == nil {
		return "", errNoWindow()
	}
	path, err := runtime.SaveFileDialog(win, runtime.SaveDialogOptions{
		Title: title, DefaultFilename: name, Filters: []runtime.FileFilter{filter}, CanCreateDirectories: true,
	})
	return path, dialogErr(err)
}

func (d nativeDialogs) open(title string, filter runtime.FileFilter) (string, error) {
	win := d.win.get()
	if win == nil {
		return "", errNoWindow()
	}
	path, err := runtime.OpenFileDialog(win, runtime.OpenDialogOptions{Title: title, Filters: []runtime.FileFilter{filter}})
	return path, dialogErr(err)
}

func (d nativeDialogs) folder(title string) (string, error) {
	win := d.win.get()
	if win == nil {
		return "", errNoWindow()
	}
	path, err := runtime.OpenDirectoryDialog(win, runtime.OpenDialogOptions{Title: title, CanCreateDirectories: true})
	return path, dialogErr(err)
}

// Answers of a question: the buttons elsewhere, GTK's own on Linux.
const (
	answerYes = "Restore them too"
	answerNo  = "Leave them off"
)

func (d nativeDialogs) ask(title, question string) (bool, error) {
	win := d.win.get()
	if win == nil {
		return false, errNoWindow()
	}
	// GTK takes the message as a printf format.
	got, err := runtime.MessageDialog(win, runtime.MessageDialogOptions{Type: runtime.QuestionDialog, Title: title,
		Message: strings.ReplaceAll(question, "%", "%%"), Buttons: []string{answerYes, answerNo},
		DefaultButton: answerNo, CancelButton: answerNo})
	return got == answerYes || got == "Yes", dialogErr(err)
}

func errNoWindow() error { return chat.Errorf(chat.CodeConflict, "the window is not ready") }

func dialogErr(err error) error {
	if err != nil {
		return fmt.Errorf("file dialog: %w", err)
	}
	return nil
}

//go:build dev

package app

import (
	"sync"

	"github.com/wailsapp/wails/v2/pkg/runtime"
)

// The development build (the end-to-end tests drive it from a browser,
// which cannot reach a native dialog) lets a test answer the next file
// dialogs: DevDialogs.AnswerNext queues paths, and each dialog takes the
// first one queued, else opens as usual. Everything after the dialog is
// the same code the person's clicks run.

// DevDialogs is bound in the development build only.
type DevDialogs struct {
	mu      sync.Mutex
	answers []string
}

// AnswerNext queues the answer of the next file dialog ("" cancels it),
// or of the next question ("yes", else no).
func (d *DevDialogs) AnswerNext(path string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.answers = append(d.answers, path)
}

func (d *DevDialogs) next() (string, bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if len(d.answers) == 0 {
		return "", false
	}
	p := d.answers[0]
	d.answers = d.answers[1:]
	return p, true
}

type scriptedDialogs struct {
	queue  *DevDialogs
	native fileDialogs
}

func (s scriptedDialogs) save(title, name string, filter runtime.FileFilter) (string, error) {
	if p, ok := s.queue.next(); ok {
		return p, nil
	}
	return s.native.save(title, name, filter)
}

func (s scriptedDialogs) open(title string, filter runtime.FileFilter) (string, error) {
	if p, ok := s.queue.next(); ok {
		return p, nil
	}
	return s.native.open(title, filter)
}

func (s scriptedDialogs) folder(title string) (string, error) {
	if p, ok := s.queue.next(); ok {
		return p, nil
	}
	return s.native.folder(title)
}

// ask takes a queued answer too: "yes" is yes, anything else no.
func (s scriptedDialogs) ask(title, question string) (bool, error) {
	if p, ok := s.queue.next(); ok {
		return p == "yes", nil
	}
	return s.native.ask(title, question)
}

// withDevDialogs answers file dialogs from a queue the tests fill.
func withDevDialogs(native fileDialogs) (fileDialogs, []any) {
	q := &DevDialogs{}
	return scriptedDialogs{queue: q, native: native}, []any{q}
}

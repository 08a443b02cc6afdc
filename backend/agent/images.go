package agent

import (
	"fmt"
	"log/slog"
	"strings"

	"github.com/errand-app/errand/backend/chat"
	"github.com/errand-app/errand/backend/llm"
)

// noImagesNotice tells the person why the model did not look at images.
const noImagesNotice = "The model %s does not take images, so it was sent their names instead: %s. " +
	"Choose a model that takes images (a vision model) to have them looked at."

func (r *Runner) refusesImages(model string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.noImages[model]
}

// imagesRefused remembers, until the settings change, that the model
// does not take images: its server refused them.
func (r *Runner) imagesRefused(model string) {
	r.mu.Lock()
	r.noImages[model] = true
	r.mu.Unlock()
}

// withoutRefusedImages takes the images out of a request for a model known
// not to take them (llm.TextOnly) or that refused them: each is named in
// the text instead, and the person is told once in the task's transcript.
func (rn *run) withoutRefusedImages(v *view) error {
	model := rn.provider.Model()
	if !llm.HasImages(v.req.Messages) || (!rn.r.refusesImages(model) && !llm.TextOnly(model)) {
		return nil
	}
	var names []string
	for _, m := range v.req.Messages {
		for _, img := range m.Images {
			names = append(names, chat.Quote(img.Name))
		}
	}
	v.req.Messages = llm.WithoutImages(v.req.Messages)
	rn.mu.Lock()
	told := rn.imagesNoticed
	rn.imagesNoticed = true
	rn.mu.Unlock()
	if told {
		return nil
	}
	slog.Warn("the model does not take images; sending their names", "task", rn.snapshot().ID, "model", model)
	notice := rn.newMessage(chat.RoleSystem, fmt.Sprintf(noImagesNotice, chat.Quote(model), strings.Join(names, ", ")))
	return rn.record(func(*chat.Task) {}, notice)
}

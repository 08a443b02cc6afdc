package chat

import (
	"strings"
	"time"
	"unicode/utf8"
)

// StepStatus is where one step of a plan stands.
type StepStatus string

// The statuses a plan step can have.
const (
	StepPending    StepStatus = "pending"
	StepInProgress StepStatus = "in_progress"
	StepDone       StepStatus = "done"
	StepSkipped    StepStatus = "skipped"
)

// Limits on a plan: how many steps, and how long a title and the note.
const (
	MaxPlanSteps     = 50
	MaxStepTitleLen  = 300  // characters
	MaxPlanNoteBytes = 4096 // bytes
)

// PlanStep is one line of a plan's checklist.
type PlanStep struct {
	Title  string     `json:"title"`
	Status StepStatus `json:"status"`
}

// Plan is a task's plan as the model last wrote it with update_plan. Each
// update is a new revision; the older ones are kept.
type Plan struct {
	TaskID         string     `json:"taskId"`
	ConversationID string     `json:"conversationId"`
	Revision       int        `json:"revision"`
	Steps          []PlanStep `json:"steps"`
	Note           string     `json:"note,omitempty"`
	UpdatedAt      time.Time  `json:"updatedAt" ts_type:"string"`
}

// Done counts the steps that are done, for "Plan · 2 of 5".
func (p Plan) Done() int {
	n := 0
	for _, s := range p.Steps {
		if s.Status == StepDone {
			n++
		}
	}
	return n
}

// Current is the step being worked on: the first in progress, else the
// first pending one; ok is false when every step is settled.
func (p Plan) Current() (PlanStep, bool) {
	for _, want := range []StepStatus{StepInProgress, StepPending} {
		for _, s := range p.Steps {
			if s.Status == want {
				return s, true
			}
		}
	}
	return PlanStep{}, false
}

// CleanPlan returns the steps and note as Errand stores them (trimmed) or
// a CodeInvalid error saying what is wrong: no steps, too many, an empty or
// over-long title, an unknown status, an over-long note.
func CleanPlan(steps []PlanStep, note string) ([]PlanStep, string, error) {
	if len(steps) == 0 {
		return nil, "", Errorf(CodeInvalid, "a plan needs at least one step")
	}
	if len(steps) > MaxPlanSteps {
		return nil, "", Errorf(CodeInvalid, "a plan has at most %d steps (this one has %d); group the work into fewer steps", MaxPlanSteps, len(steps))
	}
	out := make([]PlanStep, len(steps))
	for i, s := range steps {
		s.Title = strings.TrimSpace(s.Title)
		if err := checkStep(i+1, s); err != nil {
			return nil, "", err
		}
		out[i] = s
	}
	note = strings.TrimSpace(note)
	if len(note) > MaxPlanNoteBytes {
		return nil, "", Errorf(CodeInvalid, "the plan's note is over %d bytes", MaxPlanNoteBytes)
	}
	return out, note, nil
}

func checkStep(n int, s PlanStep) error {
	switch {
	case s.Title == "":
		return Errorf(CodeInvalid, "step %d has an empty title", n)
	case utf8.RuneCountInString(s.Title) > MaxStepTitleLen:
		return Errorf(CodeInvalid, "step %d's title is over %d characters", n, MaxStepTitleLen)
	case strings.IndexFunc(s.Title, unsafeRune) >= 0:
		return Errorf(CodeInvalid, "step %d's title holds a line break or a control character", n)
	}
	switch s.Status {
	case StepPending, StepInProgress, StepDone, StepSkipped:
		return nil
	}
	return Errorf(CodeInvalid, "step %d has the unknown status %s; use pending, in_progress, done or skipped", n, Quote(string(s.Status)))
}

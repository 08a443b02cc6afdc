package chat

// PauseReason says which limit paused a task.
type PauseReason string

const (
	PauseSteps PauseReason = "steps"
	PauseTime  PauseReason = "time"
	PauseCost  PauseReason = "cost"
	// PauseRepeat: the model asked for the same call again and again.
	PauseRepeat PauseReason = "repeat"
)

// ReasoningEffort is how hard a thinking model is asked to think.
type ReasoningEffort string

const (
	EffortLow    ReasoningEffort = "low"
	EffortMedium ReasoningEffort = "medium"
	EffortHigh   ReasoningEffort = "high"
)

// Valid reports whether e is one the servers take ("" sends none).
func (e ReasoningEffort) Valid() bool {
	switch e {
	case "", EffortLow, EffortMedium, EffortHigh:
		return true
	}
	return false
}

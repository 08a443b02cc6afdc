package app

import (
	"strings"

	"github.com/errand-app/errand/backend/agent"
	"github.com/errand-app/errand/backend/chat"
	"github.com/errand-app/errand/backend/tools"
)

// Settings is the bound service for the agent's settings.
type Settings struct {
	store  chat.Store
	runner *agent.Runner
}

// GetSettings returns the current settings.
func (s *Settings) GetSettings() (chat.Settings, error) {
	ctx, cancel := callCtx()
	defer cancel()
	return s.store.Settings(ctx)
}

// DefaultSystemPrompt is the built-in agent instructions, shown in the
// settings view beside the editable copy.
func (s *Settings) DefaultSystemPrompt() string { return agent.AgentSystemPrompt }

// SaveSettings validates and stores the settings; running tasks follow the
// new auto-approval choices at once.
func (s *Settings) SaveSettings(st chat.Settings) (chat.Settings, error) {
	if err := validateSettings(st); err != nil {
		return chat.Settings{}, err
	}
	ctx, cancel := callCtx()
	defer cancel()
	if err := s.store.SaveSettings(ctx, st); err != nil {
		return chat.Settings{}, err
	}
	s.runner.SettingsChanged(ctx)
	return s.store.Settings(ctx)
}

func validateSettings(st chat.Settings) error {
	l := st.Limits
	switch {
	case l.MaxSteps < 1 || l.MaxSteps > 10000:
		return chat.Errorf(chat.CodeInvalid, "the step limit must be between 1 and 10000")
	case l.MaxMinutes <= 0 || l.MaxMinutes > 24*60:
		return chat.Errorf(chat.CodeInvalid, "the time limit must be more than 0 and at most 1440 minutes")
	case l.MaxCostUSD <= 0 || l.MaxCostUSD > 10000:
		return chat.Errorf(chat.CodeInvalid, "the spend limit must be more than $0 and at most $10000")
	case st.StepDelayMS < 0 || st.StepDelayMS > 60000:
		return chat.Errorf(chat.CodeInvalid, "the delay between steps must be between 0 and 60000 ms")
	}
	for risk := range st.AutoApprove {
		if !tools.Risk(risk).Valid() {
			return chat.Errorf(chat.CodeInvalid, "unknown risk level %q", risk)
		}
	}
	if len(st.SystemPrompt) > 20000 {
		return chat.Errorf(chat.CodeInvalid, "the system prompt is longer than 20000 characters")
	}
	for model, n := range st.ContextLengths {
		if n < 0 {
			return chat.Errorf(chat.CodeInvalid, "the context length of %s cannot be negative", model)
		}
	}
	for model, p := range st.Prices {
		if strings.TrimSpace(model) == "" {
			return chat.Errorf(chat.CodeInvalid, "a price needs a model name")
		}
		if p.InputPerMTok < 0 || p.OutputPerMTok < 0 {
			return chat.Errorf(chat.CodeInvalid, "the price of %s cannot be negative", model)
		}
	}
	return nil
}

package app

import (
	"log/slog"

	"github.com/errand-app/errand/backend/agent"
	"github.com/errand-app/errand/backend/chat"
	"github.com/errand-app/errand/backend/checkpoint"
	"github.com/errand-app/errand/backend/tools"
)

// Settings is the bound service for the agent's settings.
type Settings struct {
	store  chat.Store
	runner *agent.Runner
	keeper *checkpoint.Keeper
}

// GetSettings returns the current settings.
func (s *Settings) GetSettings() (_ chat.Settings, err error) {
	defer recovered(&err)
	ctx, cancel := callCtx()
	defer cancel()
	return s.store.Settings(ctx)
}

// DefaultSystemPrompt is the built-in agent instructions, shown in the
// settings view beside the editable copy.
func (s *Settings) DefaultSystemPrompt() string { return agent.AgentSystemPrompt }

// SaveSettings validates and stores the settings; running tasks follow the
// new auto-approval choices at once.
func (s *Settings) SaveSettings(st chat.Settings) (_ chat.Settings, err error) {
	defer recovered(&err)
	if err := validateSettings(st); err != nil {
		return chat.Settings{}, err
	}
	ctx, cancel := callCtx()
	defer cancel()
	if err := s.store.SaveSettings(ctx, st); err != nil {
		return chat.Settings{}, err
	}
	s.runner.SettingsChanged(ctx)
	s.keeper.SetOptions(keeperOptions(st))
	if err := s.keeper.Prune(ctx); err != nil {
		slog.Warn("prune checkpoints to the new limit", "err", err)
	}
	return s.store.Settings(ctx)
}

// validateSettings refuses settings with a number out of its range, NaN
// and infinities included (a price of 1e308 made every cost infinite), a
// model name that cannot be one, or an unknown tool risk.
func validateSettings(st chat.Settings) error {
	if err := chat.CheckSettings(st); err != nil {
		return err
	}
	for risk := range st.AutoApprove {
		if !tools.Risk(risk).Valid() {
			return chat.Invalidf("autoApprove", "%s is an unknown risk level.", chat.Quote(risk))
		}
	}
	return nil
}

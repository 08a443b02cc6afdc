package store

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/errand-app/errand/backend/chat"
)

const settingsKey = "agent"

// Settings returns the stored settings over the defaults: a field never
// saved keeps its default, so a new setting needs no migration.
func (s *Store) Settings(ctx context.Context) (chat.Settings, error) {
	out := chat.DefaultSettings()
	var raw string
	err := s.db.QueryRowContext(ctx, `SELECT value FROM settings WHERE key = ?`, settingsKey).Scan(&raw)
	if isNoRows(err) {
		return out, nil
	}
	if err != nil {
		return out, fmt.Errorf("read settings: %w", err)
	}
	if err := json.Unmarshal([]byte(raw), &out); err != nil {
		return chat.DefaultSettings(), fmt.Errorf("read settings: %w", err)
	}
	return out, nil
}

// SaveSettings stores the settings.
func (s *Store) SaveSettings(ctx context.Context, st chat.Settings) error {
	b, err := json.Marshal(st)
	if err != nil {
		return fmt.Errorf("save settings: %w", err)
	}
	_, err = s.exec(ctx,
		`INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
		settingsKey, string(b))
	if err != nil {
		return fmt.Errorf("save settings: %w", err)
	}
	return nil
}

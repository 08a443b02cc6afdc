package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"time"

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
// Numbers that are not finite are refused (they would not read back).
func (s *Store) SaveSettings(ctx context.Context, st chat.Settings) error {
	if err := settingsFinite(st); err != nil {
		return err
	}
	return s.inTx(ctx, func(tx *sql.Tx) error { return saveSettings(ctx, tx, st) })
}

func saveSettings(ctx context.Context, q queryer, st chat.Settings) error {
	b, err := json.Marshal(st)
	if err != nil {
		return fmt.Errorf("save settings: %w", err)
	}
	_, err = q.ExecContext(ctx,
		`INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
		settingsKey, string(b))
	if err != nil {
		return fmt.Errorf("save settings: %w", err)
	}
	return nil
}

func settingsFinite(st chat.Settings) error {
	if err := chat.CheckFinite("the time limit", st.Limits.MaxMinutes); err != nil {
		return err
	}
	if err := chat.CheckFinite("the spend limit", st.Limits.MaxCostUSD); err != nil {
		return err
	}
	for model, p := range st.Prices {
		if !chat.Finite(p.InputPerMTok) || !chat.Finite(p.OutputPerMTok) {
			return chat.Errorf(chat.CodeInvalid, "the price of %s must be a finite number", chat.Quote(model))
		}
	}
	return nil
}

// ToolsRefused reports whether the model of key refused tools (see
// migration 0034).
func (s *Store) ToolsRefused(ctx context.Context, key string) (bool, error) {
	var n int
	err := s.db.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM tools_refused WHERE key = ?)`, key).Scan(&n)
	if err != nil {
		return false, fmt.Errorf("read the models that refused tools: %w", err)
	}
	return n == 1, nil
}

// RememberToolsRefused records that the model of key refused tools.
func (s *Store) RememberToolsRefused(ctx context.Context, key string, at time.Time) error {
	_, err := s.exec(ctx, `INSERT INTO tools_refused (key, refused_at) VALUES (?, ?)
		ON CONFLICT (key) DO UPDATE SET refused_at = excluded.refused_at`, key, ms(at))
	if err != nil {
		return fmt.Errorf("remember that the model refused tools: %w", err)
	}
	return nil
}

// ForgetToolsRefused forgets every model that refused tools.
func (s *Store) ForgetToolsRefused(ctx context.Context) error {
	if _, err := s.exec(ctx, `DELETE FROM tools_refused`); err != nil {
		return fmt.Errorf("forget the models that refused tools: %w", err)
	}
	return nil
}

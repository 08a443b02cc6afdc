package store

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"github.com/errand-app/errand/backend/chat"
	"github.com/google/uuid"
)

const promptCols = `id, name, text, created_at, updated_at`

func scanPrompt(row rowScanner) (chat.SavedPrompt, error) {
	var p chat.SavedPrompt
	var created, updated int64
	err := row.Scan(&p.ID, &p.Name, &p.Text, &created, &updated)
	p.CreatedAt, p.UpdatedAt = fromMS(created), fromMS(updated)
	return p, err
}

// Prompts returns the saved prompts by name.
func (s *Store) Prompts(ctx context.Context) ([]chat.SavedPrompt, error) {
	return collect(ctx, s.db, "list prompts", scanPrompt,
		`SELECT `+promptCols+` FROM saved_prompts ORDER BY name COLLATE NOCASE, id`)
}

func getPrompt(ctx context.Context, q queryer, id string) (chat.SavedPrompt, error) {
	p, err := scanPrompt(q.QueryRowContext(ctx, `SELECT `+promptCols+` FROM saved_prompts WHERE id = ?`, id))
	if isNoRows(err) {
		return p, notFound("prompt", id)
	}
	if err != nil {
		return p, fmt.Errorf("get prompt: %w", err)
	}
	return p, nil
}

// CreatePrompt saves a new prompt (see chat.CleanPrompt for what is
// refused); a name another prompt has, whatever its case, is a
// CodeConflict error on the field "name".
func (s *Store) CreatePrompt(ctx context.Context, p chat.SavedPrompt) (chat.SavedPrompt, error) {
	p, err := chat.CleanPrompt(p)
	if err != nil {
		return chat.SavedPrompt{}, err
	}
	now := time.Now().UTC().Truncate(time.Millisecond)
	p.ID, p.CreatedAt, p.UpdatedAt = uuid.NewString(), now, now
	err = s.inTx(ctx, func(tx *sql.Tx) error {
		if err := checkPromptRoom(ctx, tx); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `INSERT INTO saved_prompts (`+promptCols+`) VALUES (?, ?, ?, ?, ?)`,
			p.ID, p.Name, p.Text, ms(now), ms(now))
		return promptConflict(err, p.Name)
	})
	if err != nil {
		return chat.SavedPrompt{}, wrapOp("save the prompt", err)
	}
	return p, nil
}

func checkPromptRoom(ctx context.Context, q queryer) error {
	var n int
	if err := q.QueryRowContext(ctx, `SELECT count(*) FROM saved_prompts`).Scan(&n); err != nil {
		return fmt.Errorf("count prompts: %w", err)
	}
	if n >= chat.MaxSavedPrompts {
		return chat.Errorf(chat.CodeInvalid, "Errand keeps at most %d prompts; delete one first", chat.MaxSavedPrompts)
	}
	return nil
}

// promptConflict tells a name taken from any other failure.
func promptConflict(err error, name string) error {
	if isUniqueViolation(err) {
		return chat.DuplicatePromptName(name)
	}
	return err
}

// UpdatePrompt renames the prompt with p.ID or changes its text, under
// CreatePrompt's rules.
func (s *Store) UpdatePrompt(ctx context.Context, p chat.SavedPrompt) (chat.SavedPrompt, error) {
	if err := chat.CheckID("prompt", p.ID); err != nil {
		return chat.SavedPrompt{}, err
	}
	p, err := chat.CleanPrompt(p)
	if err != nil {
		return chat.SavedPrompt{}, err
	}
	err = s.inTx(ctx, func(tx *sql.Tx) error {
		old, err := getPrompt(ctx, tx, p.ID)
		if err != nil {
			return err
		}
		p.CreatedAt, p.UpdatedAt = old.CreatedAt, time.Now().UTC().Truncate(time.Millisecond)
		_, err = tx.ExecContext(ctx, `UPDATE saved_prompts SET name = ?, text = ?, updated_at = ? WHERE id = ?`,
			p.Name, p.Text, ms(p.UpdatedAt), p.ID)
		return promptConflict(err, p.Name)
	})
	if err != nil {
		return chat.SavedPrompt{}, wrapOp("edit the prompt", err)
	}
	return p, nil
}

// DeletePrompt deletes the prompt with id.
func (s *Store) DeletePrompt(ctx context.Context, id string) error {
	return wrapOp("delete the prompt", s.inTx(ctx, func(tx *sql.Tx) error {
		if _, err := getPrompt(ctx, tx, id); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `DELETE FROM saved_prompts WHERE id = ?`, id)
		return err
	}))
}

// insertPrompt adds an imported prompt; one whose name is taken is left
// out, the prompt already here kept.
func insertPrompt(ctx context.Context, q queryer, p chat.SavedPrompt) error {
	if _, err := q.ExecContext(ctx, `INSERT INTO saved_prompts (`+promptCols+`) VALUES (?, ?, ?, ?, ?)
		ON CONFLICT DO NOTHING`, p.ID, p.Name, p.Text, ms(p.CreatedAt), ms(p.UpdatedAt)); err != nil {
		return fmt.Errorf("insert prompt: %w", err)
	}
	return nil
}

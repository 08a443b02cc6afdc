package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"time"

	"github.com/errand-app/errand/backend/chat"
)

const planCols = `task_id, revision, conversation_id, steps, note, created_at`

func scanPlan(row rowScanner) (chat.Plan, error) {
	var p chat.Plan
	var steps string
	var created int64
	if err := row.Scan(&p.TaskID, &p.Revision, &p.ConversationID, &steps, &p.Note, &created); err != nil {
		return p, err
	}
	p.UpdatedAt = fromMS(created)
	if err := json.Unmarshal([]byte(steps), &p.Steps); err != nil {
		return p, fmt.Errorf("plan of task %s: %w", p.TaskID, err)
	}
	return p, nil
}

// SavePlan stores steps and note (see chat.CleanPlan for what is refused)
// as the task's next plan revision and returns it.
func (s *Store) SavePlan(ctx context.Context, taskID string, steps []chat.PlanStep, note string) (chat.Plan, error) {
	steps, note, err := chat.CleanPlan(steps, note)
	if err != nil {
		return chat.Plan{}, err
	}
	text, err := json.Marshal(steps)
	if err != nil {
		return chat.Plan{}, fmt.Errorf("save plan: %w", err)
	}
	p := chat.Plan{TaskID: taskID, Steps: steps, Note: note, UpdatedAt: time.Now().UTC().Truncate(time.Millisecond)}
	err = s.inTx(ctx, func(tx *sql.Tx) error {
		if err := tx.QueryRowContext(ctx, `SELECT conversation_id FROM tasks WHERE id = ?`, taskID).Scan(&p.ConversationID); err != nil {
			if isNoRows(err) {
				return notFound("task", taskID)
			}
			return err
		}
		if err := tx.QueryRowContext(ctx, `SELECT ifnull(max(revision), 0) + 1 FROM plans WHERE task_id = ?`, taskID).Scan(&p.Revision); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `INSERT INTO plans (`+planCols+`) VALUES (?, ?, ?, ?, ?, ?)`,
			p.TaskID, p.Revision, p.ConversationID, string(text), p.Note, ms(p.UpdatedAt))
		return err
	})
	if err != nil {
		return chat.Plan{}, wrapOp("save the plan", err)
	}
	return p, nil
}

// Plan returns the task's newest plan; ok is false when it has none.
func (s *Store) Plan(ctx context.Context, taskID string) (p chat.Plan, ok bool, err error) {
	p, err = scanPlan(s.db.QueryRowContext(ctx, `SELECT `+planCols+` FROM plans
		WHERE task_id = ? ORDER BY revision DESC LIMIT 1`, taskID))
	if isNoRows(err) {
		return chat.Plan{}, false, nil
	}
	if err != nil {
		return chat.Plan{}, false, fmt.Errorf("read plan: %w", err)
	}
	return p, true, nil
}

// PlanRevisions returns every revision of the task's plan, oldest first.
func (s *Store) PlanRevisions(ctx context.Context, taskID string) ([]chat.Plan, error) {
	return s.plansWhere(ctx, `task_id = ? ORDER BY revision`, taskID)
}

// ConversationPlans returns the newest plan of each task in the
// conversation that has one, oldest task first.
func (s *Store) ConversationPlans(ctx context.Context, conversationID string) ([]chat.Plan, error) {
	return s.plansWhere(ctx, `conversation_id = ? AND revision = (SELECT max(revision) FROM plans AS q
		WHERE q.task_id = plans.task_id) ORDER BY created_at, task_id`, conversationID)
}

func (s *Store) plansWhere(ctx context.Context, where string, args ...any) ([]chat.Plan, error) {
	return collect(ctx, s.db, "list plans", scanPlan, `SELECT `+planCols+` FROM plans WHERE `+where, args...)
}

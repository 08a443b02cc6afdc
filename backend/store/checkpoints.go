package store

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"github.com/errand-app/errand/backend/chat"
)

// nullHash stores "" (no file) as NULL.
func nullHash(h string) any {
	if h == "" {
		return nil
	}
	return h
}

// openCheckpoint makes sure the task has a checkpoint.
func openCheckpoint(ctx context.Context, tx *sql.Tx, taskID string) error {
	_, err := tx.ExecContext(ctx, `INSERT OR IGNORE INTO checkpoints (task_id, created_at) VALUES (?, ?)`, taskID, ms(time.Now()))
	return err
}

// KeepBefore records a file's state before the task first changes it. A
// later call for the same file of the same task changes nothing: the
// checkpoint keeps the state before the task's first change.
func (s *Store) KeepBefore(ctx context.Context, c chat.FileChange) error {
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		if err := openCheckpoint(ctx, tx, c.TaskID); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `INSERT OR IGNORE INTO checkpoint_files (task_id, workspace, path, before_hash)
			VALUES (?, ?, ?, ?)`, c.TaskID, c.Workspace, c.Path, nullHash(c.Before))
		return err
	})
	return wrapOp("keep the file's before-state", err)
}

// KeepAfter records a file's state after the task changed it.
func (s *Store) KeepAfter(ctx context.Context, c chat.FileChange) error {
	_, err := s.exec(ctx, `UPDATE checkpoint_files SET after_hash = ?, pending = 0
		WHERE task_id = ? AND workspace = ? AND path = ?`, nullHash(c.After), c.TaskID, c.Workspace, c.Path)
	return wrapOp("keep the file's after-state", err)
}

// KeepTool records that the task called a tool whose changes are not
// kept (an MCP server's tool that may write).
func (s *Store) KeepTool(ctx context.Context, taskID, tool string) error {
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		if err := openCheckpoint(ctx, tx, taskID); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `INSERT OR IGNORE INTO checkpoint_tools (task_id, tool) VALUES (?, ?)`, taskID, tool)
		return err
	})
	return wrapOp("record the tool's call for Undo changes", err)
}

// Checkpoint returns the task's checkpoint with its files and the tools
// whose changes it does not keep, or CodeNotFound when the task changed
// no file.
func (s *Store) Checkpoint(ctx context.Context, taskID string) (chat.Checkpoint, error) {
	cp := chat.Checkpoint{TaskID: taskID, Files: []chat.FileChange{}, Tools: []string{}}
	var created int64
	err := s.db.QueryRowContext(ctx, `SELECT undone, pruned, dismissed, created_at FROM checkpoints WHERE task_id = ?`, taskID).
		Scan(&cp.Undone, &cp.Pruned, &cp.Dismissed, &created)
	if isNoRows(err) {
		return cp, chat.Errorf(chat.CodeNotFound, "this task changed no files")
	}
	if err != nil {
		return cp, fmt.Errorf("read checkpoint: %w", err)
	}
	cp.CreatedAt = fromMS(created)
	if cp.Tools, err = checkpointTools(ctx, s.db, taskID); err != nil {
		return cp, err
	}
	rows, err := s.db.QueryContext(ctx, `SELECT workspace, path, ifnull(before_hash, ''), ifnull(after_hash, ''), pending
		FROM checkpoint_files WHERE task_id = ? ORDER BY path, workspace`, taskID)
	if err != nil {
		return cp, fmt.Errorf("read checkpoint: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		f := chat.FileChange{TaskID: taskID}
		if err := rows.Scan(&f.Workspace, &f.Path, &f.Before, &f.After, &f.Pending); err != nil {
			return cp, fmt.Errorf("read checkpoint: %w", err)
		}
		cp.Files = append(cp.Files, f)
	}
	return cp, rows.Err()
}

// checkpointTools are the tools whose changes the task's checkpoint does
// not keep, by name.
func checkpointTools(ctx context.Context, db *sql.DB, taskID string) ([]string, error) {
	rows, err := db.QueryContext(ctx, `SELECT tool FROM checkpoint_tools WHERE task_id = ? ORDER BY tool`, taskID)
	if err != nil {
		return nil, fmt.Errorf("read checkpoint: %w", err)
	}
	defer rows.Close()
	tools := []string{}
	for rows.Next() {
		var t string
		if err := rows.Scan(&t); err != nil {
			return nil, fmt.Errorf("read checkpoint: %w", err)
		}
		tools = append(tools, t)
	}
	return tools, rows.Err()
}

// SetDismissed records that the person dismissed the task's card.
func (s *Store) SetDismissed(ctx context.Context, taskID string) error {
	_, err := s.exec(ctx, `UPDATE checkpoints SET dismissed = 1 WHERE task_id = ?`, taskID)
	return wrapOp("record the dismissal", err)
}

// SetUndone records whether the task's changes are undone now.
func (s *Store) SetUndone(ctx context.Context, taskID string, undone bool) error {
	_, err := s.exec(ctx, `UPDATE checkpoints SET undone = ? WHERE task_id = ?`, undone, taskID)
	return wrapOp("record the undo", err)
}

// KeptHashes is every content hash a checkpoint that is not pruned still
// needs.
func (s *Store) KeptHashes(ctx context.Context) (map[string]bool, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT before_hash FROM checkpoint_files JOIN checkpoints USING (task_id)
			WHERE NOT pruned AND before_hash IS NOT NULL
		UNION SELECT after_hash FROM checkpoint_files JOIN checkpoints USING (task_id)
			WHERE NOT pruned AND after_hash IS NOT NULL`)
	if err != nil {
		return nil, fmt.Errorf("list kept contents: %w", err)
	}
	defer rows.Close()
	kept := map[string]bool{}
	for rows.Next() {
		var h string
		if err := rows.Scan(&h); err != nil {
			return nil, fmt.Errorf("list kept contents: %w", err)
		}
		kept[h] = true
	}
	return kept, rows.Err()
}

// PruneOldestCheckpoint marks the oldest checkpoint that is not pruned as
// pruned (its file list stays, its contents may go); ok is false when
// none is left.
func (s *Store) PruneOldestCheckpoint(ctx context.Context) (taskID string, ok bool, err error) {
	err = s.inTx(ctx, func(tx *sql.Tx) error {
		err := tx.QueryRowContext(ctx, `SELECT task_id FROM checkpoints WHERE NOT pruned
			ORDER BY created_at, rowid LIMIT 1`).Scan(&taskID)
		if isNoRows(err) {
			return nil
		}
		if err != nil {
			return err
		}
		ok = true
		_, err = tx.ExecContext(ctx, `UPDATE checkpoints SET pruned = 1 WHERE task_id = ?`, taskID)
		return err
	})
	return taskID, ok, wrapOp("prune a checkpoint", err)
}

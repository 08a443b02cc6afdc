package app

import (
	"context"
	"path/filepath"

	"github.com/errand-app/errand/backend/chat"
	"github.com/errand-app/errand/backend/checkpoint"
)

// CheckpointStorage is what checkpoints take on disk, for Settings.
type CheckpointStorage struct {
	UsedBytes  int64 `json:"usedBytes"`
	LimitBytes int64 `json:"limitBytes"`
}

// Checkpoints is the bound service behind a finished task's "Files
// changed" card: the files it changed, each one's diff, "Undo changes"
// and its redo.
type Checkpoints struct {
	keeper *checkpoint.Keeper
	tasks  interface {
		GetTask(ctx context.Context, id string) (chat.Task, error)
	}
	events interface{ FilesChanged(chat.FilesChanged) }
}

// openKeeper opens the checkpoints kept in the data folder, bounded as the
// settings say.
func openKeeper(ctx context.Context, dataDir string, repo interface {
	checkpoint.Repo
	Settings(context.Context) (chat.Settings, error)
}) (*checkpoint.Keeper, error) {
	st, err := repo.Settings(ctx)
	if err != nil {
		st = chat.DefaultSettings()
	}
	return checkpoint.New(filepath.Join(dataDir, "checkpoints"), repo, keeperOptions(st))
}

// keeperOptions are the checkpoint bounds the settings ask for.
func keeperOptions(st chat.Settings) checkpoint.Options {
	o := checkpoint.Defaults
	o.MaxBytes = int64(st.CheckpointLimitMB) << 20
	o.Exclude = append([]string{}, st.CheckpointExclude...)
	return o
}

// FilesChanged lists the files the task changed (none when it changed
// none) and whether its changes are undone now.
func (c *Checkpoints) FilesChanged(taskID string) (_ chat.FilesChanged, err error) {
	defer recovered(&err)
	return byID("task", taskID, c.keeper.Changes)
}

// FileDiff is the diff of what the task did to one file.
func (c *Checkpoints) FileDiff(taskID, path string) (_ string, err error) {
	defer recovered(&err)
	if err := requireID("task", taskID); err != nil {
		return "", err
	}
	ctx, cancel := callCtx()
	defer cancel()
	return c.keeper.Diff(ctx, taskID, path)
}

// UndoChanges puts back every file the task changed as it was before the
// task. A file changed since is a conflict: choices (by path, "keep" or
// "restore") resolve them; with a conflict left unresolved nothing is
// changed and the outcome lists it.
func (c *Checkpoints) UndoChanges(taskID string, choices map[string]chat.FileChoice) (_ chat.UndoOutcome, err error) {
	defer recovered(&err)
	return c.revert(taskID, choices, c.keeper.Undo)
}

// RedoChanges undoes UndoChanges: the files go back to as the task left
// them, with the same conflicts and choices.
func (c *Checkpoints) RedoChanges(taskID string, choices map[string]chat.FileChoice) (_ chat.UndoOutcome, err error) {
	defer recovered(&err)
	return c.revert(taskID, choices, c.keeper.Redo)
}

type revertFunc func(context.Context, string, map[string]chat.FileChoice) (chat.UndoOutcome, error)

func (c *Checkpoints) revert(taskID string, choices map[string]chat.FileChoice, do revertFunc) (chat.UndoOutcome, error) {
	if err := requireID("task", taskID); err != nil {
		return chat.UndoOutcome{}, err
	}
	for path, choice := range choices {
		if choice != chat.KeepCurrent && choice != chat.RestoreFile {
			return chat.UndoOutcome{}, chat.Errorf(chat.CodeInvalid, "the choice for %s must be keep or restore", chat.Quote(path))
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*callTimeout)
	defer cancel()
	task, err := c.tasks.GetTask(ctx, taskID)
	if err != nil {
		return chat.UndoOutcome{}, err
	}
	if task.Active() {
		return chat.UndoOutcome{}, chat.Errorf(chat.CodeConflict, "the task is still working; its changes can be undone once it ends")
	}
	out, err := do(ctx, taskID, choices)
	if err != nil || len(out.Conflicts) > 0 {
		return out, err
	}
	// Stored by the undo itself; now the card is told.
	c.published(ctx, taskID)
	return out, nil
}

// DismissChanges hides the task's "Files changed" card for good (the
// files stay as they are). A task that changed no files, or whose
// checkpoint was pruned, has no card to dismiss: an error, and nothing
// changes.
func (c *Checkpoints) DismissChanges(taskID string) (err error) {
	defer recovered(&err)
	if err := requireID("task", taskID); err != nil {
		return err
	}
	ctx, cancel := callCtx()
	defer cancel()
	if _, err := c.tasks.GetTask(ctx, taskID); err != nil {
		return err
	}
	if err := c.keeper.Dismiss(ctx, taskID); err != nil {
		return err
	}
	c.published(ctx, taskID)
	return nil
}

// published tells the card what is stored now.
func (c *Checkpoints) published(ctx context.Context, taskID string) {
	if changed, err := c.keeper.Changes(ctx, taskID); err == nil {
		c.events.FilesChanged(changed)
	}
}

// Storage is the bytes checkpoints keep now and the limit.
func (c *Checkpoints) Storage() CheckpointStorage {
	return CheckpointStorage{UsedBytes: c.keeper.Size(), LimitBytes: c.keeper.Limit()}
}

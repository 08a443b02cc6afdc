package checkpoint

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"strings"
	"unicode/utf8"

	"github.com/errand-app/errand/backend/chat"
	"github.com/errand-app/errand/backend/tools"
)

// ForTask is what the tools of one task call to keep the files they change
// in workspace.
func (k *Keeper) ForTask(taskID, workspace string) tools.Checkpoints {
	return taskKeeper{k: k, taskID: taskID, workspace: workspace}
}

type taskKeeper struct {
	k         *Keeper
	taskID    string
	workspace string
}

func (t taskKeeper) BeforeWrite(ctx context.Context, rel string) error {
	return t.k.BeforeWrite(ctx, t.taskID, t.workspace, rel)
}

func (t taskKeeper) AfterWrite(ctx context.Context, rel string) error {
	return t.k.AfterWrite(ctx, t.taskID, t.workspace, rel)
}

// BeforeCommand snapshots the workspace; the func it returns records what
// changed and says which changed files were too big to keep.
func (t taskKeeper) BeforeCommand(ctx context.Context) (func(context.Context) (string, error), error) {
	snap, err := t.k.Snapshot(ctx, t.workspace)
	if err != nil {
		return nil, err
	}
	return func(ctx context.Context) (string, error) {
		rec, err := t.k.Record(ctx, t.taskID, snap)
		if err != nil || len(rec.Unkept) == 0 {
			return "", err
		}
		return fmt.Sprintf("these files could not be kept before the command (over %d MB, unreadable, or past the storage limit), so Undo changes cannot restore them: %s",
			t.k.options().MaxFileBytes>>20, listed(rec.Unkept, 10)), nil
	}, nil
}

func (t taskKeeper) NotUndoable(ctx context.Context, tool string) error {
	return t.k.repo.KeepTool(ctx, t.taskID, tool)
}

// Dismiss hides the task's Files changed card for good. A task that
// changed nothing, or whose checkpoint was pruned, has no card to dismiss:
// that is an error, and nothing changes.
func (k *Keeper) Dismiss(ctx context.Context, taskID string) error {
	cp, err := k.repo.Checkpoint(ctx, taskID)
	if err != nil {
		return err
	}
	if cp.Pruned {
		return chat.Errorf(chat.CodeConflict, "the files this task changed are no longer kept (the oldest checkpoints are removed past the storage limit in Settings), so there is nothing to dismiss")
	}
	return k.repo.SetDismissed(ctx, taskID)
}

// listed names the first max paths, and how many more there are.
func listed(paths []string, max int) string {
	if len(paths) <= max {
		return strings.Join(paths, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(paths[:max], ", "), len(paths)-max)
}

// Changes lists the files the task left different, and the tools whose
// changes are not kept; a task that changed none has empty lists.
func (k *Keeper) Changes(ctx context.Context, taskID string) (chat.FilesChanged, error) {
	out := chat.FilesChanged{TaskID: taskID, Files: []chat.ChangedFile{}, NotUndoable: []string{}}
	cp, err := k.repo.Checkpoint(ctx, taskID)
	if chat.ErrorCode(err) == chat.CodeNotFound {
		return out, nil
	}
	if err != nil {
		return out, err
	}
	out.Undone, out.Pruned, out.Dismissed, out.NotUndoable = cp.Undone, cp.Pruned, cp.Dismissed, cp.Tools
	for _, c := range cp.Files {
		if !c.Changed() {
			continue
		}
		change := chat.ChangeChanged
		switch {
		case c.Before == "":
			change = chat.ChangeCreated
		case c.After == "":
			change = chat.ChangeDeleted
		}
		out.Files = append(out.Files, chat.ChangedFile{Path: c.Path, Change: change})
	}
	return out, nil
}

// maxDiffBytes is the most of each side of a file a diff reads.
const maxDiffBytes = 256 << 10

// Diff is the unified diff of what the task did to one file: from its
// state before the task to the state the task left it in.
func (k *Keeper) Diff(ctx context.Context, taskID, path string) (string, error) {
	cp, err := k.repo.Checkpoint(ctx, taskID)
	if err != nil {
		return "", err
	}
	for _, c := range cp.Files {
		if c.Path != path || !c.Changed() {
			continue
		}
		before, err := k.text(c.Before)
		if err != nil {
			return "", err
		}
		after, err := k.text(c.After)
		if err != nil {
			return "", err
		}
		return tools.Diff(path, before, after), nil
	}
	return "", chat.Errorf(chat.CodeNotFound, "this task did not change %s", chat.Quote(path))
}

// text is a kept content as text for a diff, or a line saying why it
// cannot be shown.
func (k *Keeper) text(hash string) (string, error) {
	b, more, err := k.blobs.read(hash, maxDiffBytes)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "", chat.Errorf(chat.CodeConflict, "this file's contents are no longer kept (the oldest checkpoints are removed past the storage limit in Settings)")
	case err != nil:
		return "", err
	case hash == notAFile:
		return "(a folder or a link)\n", nil
	case !utf8.Valid(b) || bytes.IndexByte(b, 0) >= 0:
		return fmt.Sprintf("(binary content, %s)\n", hash[:12]), nil
	case more:
		return string(b) + "\n… (the rest of the file is not shown)\n", nil
	}
	return string(b), nil
}

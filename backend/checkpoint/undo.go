package checkpoint

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/errand-app/errand/backend/chat"
)

// Undo puts back each file the task changed as it was before the task. A
// file that changed since the task is a conflict: choices (by path) says
// whether to keep it or restore it; a conflict without a choice changes
// nothing and is returned in the outcome. Either every file is put back
// or none is.
func (k *Keeper) Undo(ctx context.Context, taskID string, choices map[string]chat.FileChoice) (chat.UndoOutcome, error) {
	return k.revert(ctx, taskID, true, choices)
}

// Redo undoes an Undo: each file goes back to as the task left it.
func (k *Keeper) Redo(ctx context.Context, taskID string, choices map[string]chat.FileChoice) (chat.UndoOutcome, error) {
	return k.revert(ctx, taskID, false, choices)
}

// step is one file an undo or redo puts back: from the state it expects
// to find to the state it restores.
type step struct {
	change   chat.FileChange
	abs      string
	from, to string
	now      string // what is there now
}

func (k *Keeper) revert(ctx context.Context, taskID string, undo bool, choices map[string]chat.FileChoice) (chat.UndoOutcome, error) {
	out := chat.UndoOutcome{Restored: []string{}, Kept: []string{}, Conflicts: []string{}}
	k.mu.RLock()
	defer k.mu.RUnlock()
	cp, err := k.repo.Checkpoint(ctx, taskID)
	if err != nil {
		return out, err
	}
	if err := checkRevertible(cp, undo); err != nil {
		return out, err
	}
	steps, err := k.plan(cp, undo)
	if err != nil {
		return out, err
	}
	var todo []step
	for _, s := range steps {
		switch {
		case s.now == s.to:
		case s.now == s.from || choices[s.change.Path] == chat.RestoreFile:
			todo = append(todo, s)
		case choices[s.change.Path] == chat.KeepCurrent:
			out.Kept = append(out.Kept, s.change.Path)
		default:
			out.Conflicts = append(out.Conflicts, s.change.Path)
		}
	}
	if len(out.Conflicts) > 0 {
		out.Kept = []string{}
		return out, nil
	}
	if err := k.apply(todo); err != nil {
		return out, err
	}
	for _, s := range todo {
		out.Restored = append(out.Restored, s.change.Path)
	}
	return out, k.repo.SetUndone(ctx, taskID, undo)
}

func checkRevertible(cp chat.Checkpoint, undo bool) error {
	switch {
	case cp.Pruned:
		return chat.Errorf(chat.CodeConflict, "the files this task changed are no longer kept (the oldest checkpoints are removed past the storage limit in Settings); nothing was changed")
	case undo && cp.Undone:
		return chat.Errorf(chat.CodeConflict, "this task's changes are already undone")
	case !undo && !cp.Undone:
		return chat.Errorf(chat.CodeConflict, "this task's changes are not undone, so there is nothing to redo")
	}
	return nil
}

// plan reads what is at each changed file now, and refuses when a
// workspace is gone or a content to restore is no longer kept.
func (k *Keeper) plan(cp chat.Checkpoint, undo bool) ([]step, error) {
	var steps []step
	for _, c := range cp.Files {
		if !c.Changed() {
			continue
		}
		s := step{change: c, from: c.After, to: c.Before}
		if !undo {
			s.from, s.to = s.to, s.from
		}
		if info, err := os.Stat(c.Workspace); err != nil || !info.IsDir() {
			return nil, chat.Errorf(chat.CodeNotFound, "the folder %s is gone; nothing was changed", chat.Quote(c.Workspace))
		}
		if s.to != "" && s.to != notAFile && !k.blobs.has(s.to) {
			return nil, chat.Errorf(chat.CodeConflict, "the earlier content of %s is no longer kept; nothing was changed", chat.Quote(c.Path))
		}
		var err error
		if s.abs, err = locate(c.Workspace, c.Path); err != nil {
			return nil, err
		}
		if s.now, err = k.current(s.abs); err != nil {
			return nil, fmt.Errorf("read %s: %w", c.Path, err)
		}
		if s.to == notAFile {
			s.to = s.now // never restore over a folder or link: leave it
		}
		steps = append(steps, s)
	}
	if len(steps) == 0 {
		return nil, chat.Errorf(chat.CodeNotFound, "this task changed no files")
	}
	return steps, nil
}

// apply puts each file in its to-state. What was there is kept first, so
// that when one file cannot be written the ones already put back are
// returned to what they were: either all files change or none.
func (k *Keeper) apply(todo []step) error {
	for i := range todo {
		kept, err := k.keep(todo[i].abs)
		if err != nil {
			return fmt.Errorf("keep %s before restoring it: %w", todo[i].change.Path, err)
		}
		todo[i].now = kept
	}
	for i, s := range todo {
		if err := k.put(s.abs, s.to); err != nil {
			for _, done := range todo[:i] {
				_ = k.put(done.abs, done.now)
			}
			return chat.Wrap(chat.CodeConflict, err, "could not restore %s (is it open elsewhere, or is its folder read-only?); nothing was changed", chat.Quote(s.change.Path))
		}
	}
	return nil
}

// put makes the file at abs hold the content with hash ("" removes it).
func (k *Keeper) put(abs, hash string) error {
	if hash == notAFile {
		return nil
	}
	if hash == "" {
		err := os.Remove(abs)
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		return err
	}
	src, err := k.blobs.open(hash)
	if err != nil {
		return err
	}
	defer src.Close()
	mode := fs.FileMode(0o644)
	if info, err := os.Lstat(abs); err == nil && info.Mode().IsRegular() {
		mode = info.Mode().Perm()
	}
	if err := os.MkdirAll(filepath.Dir(abs), 0o755); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(abs), ".errand-restore-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	_, err = io.Copy(tmp, src)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(tmp.Name(), mode)
	}
	if err != nil {
		return err
	}
	return os.Rename(tmp.Name(), abs)
}

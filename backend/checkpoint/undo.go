package checkpoint

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path"

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
	w        *ws
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
	roots := map[string]*ws{}
	defer closeAll(roots)
	steps, err := k.plan(cp, undo, roots)
	if err != nil {
		return out, err
	}
	var todo []step
	for _, s := range steps {
		switch {
		case s.now == s.to:
		case s.now == notAFile && choices[s.change.Path] == chat.KeepCurrent:
			out.Kept = append(out.Kept, s.change.Path)
		case s.now == notAFile && choices[s.change.Path] == chat.RestoreFile:
			return out, chat.Errorf(chat.CodeConflict, "%s is now a folder or a link, or lies under a link: Errand does not write over or through it (choose Keep current); nothing was changed", chat.Quote(s.change.Path))
		case s.now == notAFile: // a folder or a link, or one on the way: never written through
			out.Conflicts = append(out.Conflicts, s.change.Path)
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
func (k *Keeper) plan(cp chat.Checkpoint, undo bool, roots map[string]*ws) ([]step, error) {
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
		if s.w, err = rootOf(roots, c.Workspace); err != nil {
			return nil, err
		}
		if c.Path, err = clean(c.Path); err != nil {
			return nil, err
		}
		s.change = c
		if s.now, err = k.exact(s.w, c.Path); err != nil {
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

// rootOf is the workspace dir opened once for an undo.
func rootOf(roots map[string]*ws, dir string) (*ws, error) {
	if w, ok := roots[dir]; ok {
		return w, nil
	}
	w, err := openWS(dir)
	if err != nil {
		return nil, chat.Wrap(chat.CodeNotFound, err, "the folder %s cannot be opened; nothing was changed", chat.Quote(dir))
	}
	roots[dir] = w
	return w, nil
}

func closeAll(roots map[string]*ws) {
	for _, w := range roots {
		w.close()
	}
}

// apply puts each file in its to-state. What was there is kept first, so
// that when one file cannot be written the ones already put back are
// returned to what they were: either all files change or none. Each file
// is looked at again as it is written: one changed since the plan is a
// conflict, not overwritten.
func (k *Keeper) apply(todo []step) error {
	for i := range todo {
		kept, err := k.keepExact(todo[i].w, todo[i].change.Path)
		if err != nil {
			return fmt.Errorf("keep %s before restoring it: %w", todo[i].change.Path, err)
		}
		if kept != todo[i].now {
			return errChangedMeanwhile(todo[i].change.Path)
		}
	}
	for i, s := range todo {
		if err := k.put(s.w, s.change.Path, s.now, s.to); err != nil {
			for j := i - 1; j >= 0; j-- {
				done := todo[j]
				_ = k.put(done.w, done.change.Path, done.to, done.now)
			}
			if chat.ErrorCode(err) == chat.CodeConflict {
				return err
			}
			return chat.Wrap(chat.CodeConflict, err, "could not restore %s (is it open elsewhere, or is its folder read-only?); nothing was changed", chat.Quote(s.change.Path))
		}
	}
	return nil
}

func errChangedMeanwhile(rel string) error {
	return chat.Errorf(chat.CodeConflict, "%s changed while it was being restored; nothing was changed: try again", chat.Quote(rel))
}

// put makes the file at rel, expected to hold expect, hold the content
// with hash ("" removes it). What is there is read again just before the
// file is replaced: anything else than expect is a conflict.
func (k *Keeper) put(w *ws, rel, expect, hash string) error {
	if hash == notAFile {
		return nil
	}
	if hash == "" {
		if err := k.still(w, rel, expect); err != nil {
			return err
		}
		err := w.root.Remove(rel)
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		return err
	}
	tmp, err := k.staged(w, rel, hash)
	if err != nil {
		return err
	}
	defer w.root.Remove(tmp)
	if err := k.still(w, rel, expect); err != nil {
		return err
	}
	return w.root.Rename(tmp, rel)
}

// beforeWrite, when a test sets it, runs just before an undo looks at a
// file for the last time and writes it.
var beforeWrite func(rel string)

// still refuses when what is at rel is no longer expect, read afresh.
func (k *Keeper) still(w *ws, rel, expect string) error {
	if beforeWrite != nil {
		beforeWrite(rel)
	}
	now, err := k.exact(w, rel)
	if err != nil {
		return err
	}
	if now != expect {
		return errChangedMeanwhile(rel)
	}
	return nil
}

// staged writes the content with hash beside rel, in a new file with the
// mode of the file at rel (0644 if none), and returns its name.
func (k *Keeper) staged(w *ws, rel, hash string) (string, error) {
	src, err := k.blobs.open(hash)
	if err != nil {
		return "", err
	}
	defer src.Close()
	mode := fs.FileMode(0o644)
	if info, err := w.root.Lstat(rel); err == nil && info.Mode().IsRegular() {
		mode = info.Mode().Perm()
	}
	if dir := path.Dir(rel); dir != "." {
		if err := w.root.MkdirAll(dir, 0o755); err != nil {
			return "", err
		}
	}
	tmp := path.Join(path.Dir(rel), fmt.Sprintf(".errand-restore-%d", rand.Uint64()))
	f, err := w.root.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, mode)
	if err != nil {
		return "", err
	}
	_, err = io.Copy(f, src)
	if err == nil {
		err = f.Chmod(mode)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		_ = w.root.Remove(tmp)
		return "", err
	}
	return tmp, nil
}

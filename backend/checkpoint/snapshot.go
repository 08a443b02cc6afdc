package checkpoint

import (
	"context"
	"errors"
	"io/fs"

	"github.com/errand-app/errand/backend/tools"
	"slices"
)

// Snapshot is a workspace's files before a command ran: each kept file's
// hash by its workspace-relative path. Files over the size bound are
// listed in Skipped and not kept.
type Snapshot struct {
	Workspace string
	Files     map[string]string
	Skipped   map[string]bool
	exclude   []string // as they were, for Record to walk the same files
}

// Snapshot keeps every file of the workspace (but the excluded folders,
// files over the bound, and what does not fit the storage limit) before a
// command that may change any of them.
// Record must follow, also when the command fails.
func (k *Keeper) Snapshot(ctx context.Context, workspace string) (*Snapshot, error) {
	w, err := openWS(workspace)
	if err != nil {
		return nil, err
	}
	defer w.close()
	k.mu.RLock()
	defer k.mu.RUnlock()
	opts := k.options()
	s := &Snapshot{Workspace: workspace, Files: map[string]string{}, Skipped: map[string]bool{}, exclude: opts.Exclude}
	start := k.Size()
	err = walk(ctx, w, opts.Exclude, func(rel string, size int64) error {
		// A file over the bound is not kept, nor one that would make this
		// snapshot alone outgrow the storage limit (a huge workspace):
		// what it keeps must fit once older checkpoints are pruned.
		if size > opts.MaxFileBytes || k.Size()-start+size > opts.MaxBytes {
			s.Skipped[rel] = true
			return nil
		}
		hash, err := k.keep(w, rel)
		switch {
		case unreadable(err): // kept out, as a file over the bound is
			s.Skipped[rel] = true
			return nil
		case err == nil:
			s.Files[rel] = hash
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	k.pin(s.Files) // before mu is released, so no prune comes between
	return s, nil
}

// Recorded is what Record found the command changed.
type Recorded struct {
	Changed int `json:"changed"`
	// Unkept are changed files whose before-image was over the size bound:
	// they cannot be undone.
	Unkept []string `json:"unkept"`
}

// Record compares the workspace with the snapshot taken before the
// command and records each file the command created, changed or deleted
// as the task's change.
func (k *Keeper) Record(ctx context.Context, taskID string, s *Snapshot) (Recorded, error) {
	defer k.unpin(s.Files)
	var r Recorded
	w, err := openWS(s.Workspace)
	if err != nil {
		return r, err
	}
	defer w.close()
	now := map[string]bool{}
	err = walk(ctx, w, s.exclude, func(rel string, size int64) error {
		now[rel] = true
		if s.Skipped[rel] {
			r.Unkept = append(r.Unkept, rel)
			return nil
		}
		before, had := s.Files[rel]
		after, err := k.current(w, rel)
		if unreadable(err) {
			r.Unkept = append(r.Unkept, rel)
			return nil
		}
		if err != nil || (had && before == after) {
			return err
		}
		r.Changed++
		return k.record(ctx, w, taskID, rel, before)
	})
	if err != nil {
		return r, err
	}
	for rel, before := range s.Files {
		if !now[rel] {
			r.Changed++
			if err := k.record(ctx, w, taskID, rel, before); err != nil {
				return r, err
			}
		}
	}
	slices.Sort(r.Unkept)
	return r, k.Prune(ctx)
}

// record keeps one file's change: before as the snapshot saw it, after as
// it is now.
func (k *Keeper) record(ctx context.Context, w *ws, taskID, rel, before string) error {
	c := fileChange(taskID, w.dir, rel)
	c.Before = before
	if err := k.repo.KeepBefore(ctx, c); err != nil {
		return err
	}
	return k.keepAfter(ctx, w, c)
}

// walk calls fn for each regular file of the workspace, skipping the
// excluded folders; links are not followed, and every folder is read
// through the workspace's root (one swapped for a link meanwhile leads
// nowhere outside).
func walk(ctx context.Context, w *ws, exclude []string, fn func(rel string, size int64) error) error {
	return fs.WalkDir(w.root.FS(), ".", func(rel string, d fs.DirEntry, err error) error {
		switch {
		case err != nil && rel != "." && (unreadable(err) || escaped(err)):
			return skip(d) // a folder that cannot be read, or a file gone meanwhile
		case err != nil:
			return err
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		if d.IsDir() {
			if rel != "." && slices.Contains(exclude, d.Name()) {
				return fs.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() {
			return nil
		}
		info, err := d.Info()
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		if err != nil {
			return err
		}
		return fn(rel, info.Size())
	})
}

// unreadable is a file or folder of the workspace that cannot be read
// (permissions) or is gone since it was listed: left out, not an error.
func unreadable(err error) bool {
	return errors.Is(err, fs.ErrPermission) || errors.Is(err, fs.ErrNotExist)
}

// escaped is a folder swapped for a link that leads outside the workspace
// while it was walked: left out.
func escaped(err error) bool { return tools.EscapesRoot(err) }

func skip(d fs.DirEntry) error {
	if d != nil && d.IsDir() {
		return fs.SkipDir
	}
	return nil
}

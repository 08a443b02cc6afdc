package checkpoint

import (
	"context"
	"errors"
	"io/fs"
	"path/filepath"
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
	k.mu.RLock()
	defer k.mu.RUnlock()
	opts := k.options()
	s := &Snapshot{Workspace: workspace, Files: map[string]string{}, Skipped: map[string]bool{}, exclude: opts.Exclude}
	start := k.Size()
	err := walk(ctx, workspace, opts.Exclude, func(rel, abs string, size int64) error {
		// A file over the bound is not kept, nor one that would make this
		// snapshot alone outgrow the storage limit (a huge workspace):
		// what it keeps must fit once older checkpoints are pruned.
		if size > opts.MaxFileBytes || k.Size()-start+size > opts.MaxBytes {
			s.Skipped[rel] = true
			return nil
		}
		hash, err := k.keep(abs)
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
	now := map[string]bool{}
	err := walk(ctx, s.Workspace, s.exclude, func(rel, abs string, size int64) error {
		now[rel] = true
		if s.Skipped[rel] {
			r.Unkept = append(r.Unkept, rel)
			return nil
		}
		before, had := s.Files[rel]
		after, err := k.current(abs)
		if unreadable(err) {
			r.Unkept = append(r.Unkept, rel)
			return nil
		}
		if err != nil || (had && before == after) {
			return err
		}
		r.Changed++
		return k.record(ctx, taskID, s.Workspace, rel, before)
	})
	if err != nil {
		return r, err
	}
	for rel, before := range s.Files {
		if !now[rel] {
			r.Changed++
			if err := k.record(ctx, taskID, s.Workspace, rel, before); err != nil {
				return r, err
			}
		}
	}
	slices.Sort(r.Unkept)
	return r, k.Prune(ctx)
}

// record keeps one file's change: before as the snapshot saw it, after as
// it is now.
func (k *Keeper) record(ctx context.Context, taskID, workspace, rel, before string) error {
	c := fileChange(taskID, workspace, rel)
	c.Before = before
	if err := k.repo.KeepBefore(ctx, c); err != nil {
		return err
	}
	return k.keepAfter(ctx, c, filepath.Join(workspace, filepath.FromSlash(rel)))
}

// walk calls fn for each regular file under workspace, skipping the
// excluded folders; links are not followed.
func walk(ctx context.Context, workspace string, exclude []string, fn func(rel, abs string, size int64) error) error {
	return filepath.WalkDir(workspace, func(abs string, d fs.DirEntry, err error) error {
		switch {
		case err != nil && abs != workspace && unreadable(err):
			return skip(d) // a folder that cannot be read, or a file gone meanwhile
		case err != nil:
			return err
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		if d.IsDir() {
			if abs != workspace && slices.Contains(exclude, d.Name()) {
				return filepath.SkipDir
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
		rel, err := filepath.Rel(workspace, abs)
		if err != nil {
			return err
		}
		return fn(filepath.ToSlash(rel), abs, info.Size())
	})
}

// unreadable is a file or folder of the workspace that cannot be read
// (permissions) or is gone since it was listed: left out, not an error.
func unreadable(err error) bool {
	return errors.Is(err, fs.ErrPermission) || errors.Is(err, fs.ErrNotExist)
}

func skip(d fs.DirEntry) error {
	if d != nil && d.IsDir() {
		return filepath.SkipDir
	}
	return nil
}

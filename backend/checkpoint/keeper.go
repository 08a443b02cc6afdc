// Package checkpoint keeps what a task's tools change in a workspace, so
// the person can undo a task's changes and undo the undo. Before a file
// tool changes a file, its before-image is kept; around run_command, which
// can change anything, the workspace is snapshotted and compared. Contents
// are kept once by their hash (see blobs); which task changed which file
// is kept by a Repo (SQLite). Storage is bounded and pruned oldest first.
package checkpoint

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sync"

	"github.com/errand-app/errand/backend/chat"
)

// Repo records which task changed which file (the store implements it).
type Repo interface {
	KeepBefore(ctx context.Context, c chat.FileChange) error
	KeepAfter(ctx context.Context, c chat.FileChange) error
	Checkpoint(ctx context.Context, taskID string) (chat.Checkpoint, error)
	SetUndone(ctx context.Context, taskID string, undone bool) error
	KeptHashes(ctx context.Context) (map[string]bool, error)
	PruneOldestCheckpoint(ctx context.Context) (taskID string, ok bool, err error)
}

// Options bound what is kept.
type Options struct {
	// MaxBytes bounds the contents kept for all tasks; the oldest
	// checkpoints are pruned past it.
	MaxBytes int64
	// MaxFileBytes is the largest file a snapshot keeps.
	MaxFileBytes int64
	// Exclude names folders a snapshot skips wherever they are.
	Exclude []string
}

// Defaults: 1 GB in all, 20 MB a file, no .git or node_modules.
var Defaults = Options{MaxBytes: 1 << 30, MaxFileBytes: 20 << 20, Exclude: []string{".git", "node_modules"}}

// Keeper keeps before- and after-images of workspace files.
type Keeper struct {
	repo  Repo
	blobs *blobs
	// opts may change while Errand runs (Settings); optsMu guards it.
	optsMu sync.Mutex
	opts   Options
	// mu is held for reading while a content is kept and recorded, and
	// for writing while pruning, so a prune never removes a content whose
	// record is on its way. pinned counts the contents of snapshots whose
	// command still runs; pinMu guards it.
	mu     sync.RWMutex
	pinMu  sync.Mutex
	pinned map[string]int
	stamps stamps
}

// New opens the contents kept in dir.
func New(dir string, repo Repo, opts Options) (*Keeper, error) {
	b, err := openBlobs(dir)
	if err != nil {
		return nil, err
	}
	return &Keeper{repo: repo, blobs: b, opts: opts, pinned: map[string]int{}, stamps: stamps{m: map[string]stamp{}}}, nil
}

// SetOptions changes the bounds and the excluded folders; a lower bound
// is applied at the next prune.
func (k *Keeper) SetOptions(o Options) {
	k.optsMu.Lock()
	defer k.optsMu.Unlock()
	k.opts = o
}

func (k *Keeper) options() Options {
	k.optsMu.Lock()
	defer k.optsMu.Unlock()
	return k.opts
}

// Limit is the bytes the contents kept may take.
func (k *Keeper) Limit() int64 { return k.options().MaxBytes }

// Size is the bytes of contents kept now.
func (k *Keeper) Size() int64 { return k.blobs.size.Load() }

// notAFile stands for something at a path that is neither a regular file
// nor nothing (a folder, a link): never restored over, always a conflict.
const notAFile = "-"

// keep stores the current state of the file at abs and returns its hash:
// "" when there is no file, notAFile when something else is there. A file
// whose stamp says its content is kept already is not read again.
func (k *Keeper) keep(abs string) (string, error) {
	info, hash, err := look(abs)
	if info == nil {
		return hash, err
	}
	if hash, ok := k.stamps.lookup(abs, info); ok && k.blobs.has(hash) {
		return hash, nil
	}
	hash, err = k.blobs.put(abs)
	if err == nil {
		k.stamps.remember(abs, info, hash)
	}
	return hash, err
}

// current is the hash of what is at abs now, like keep without keeping.
// A file whose size and modification time are those it had when last
// hashed is not read again.
func (k *Keeper) current(abs string) (string, error) {
	info, hash, err := look(abs)
	if info == nil {
		return hash, err
	}
	if hash, ok := k.stamps.lookup(abs, info); ok {
		return hash, nil
	}
	hash, err = hashFile(abs)
	if err == nil {
		k.stamps.remember(abs, info, hash)
	}
	return hash, err
}

// look returns the regular file at abs; otherwise no info, and the hash
// that stands for what is there ("" nothing, notAFile something else).
func look(abs string) (fs.FileInfo, string, error) {
	info, err := os.Lstat(abs)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, "", nil
	case err != nil:
		return nil, "", err
	case !info.Mode().IsRegular():
		return nil, notAFile, nil
	}
	return info, "", nil
}

// locate joins a workspace-relative path, refusing one that leaves it.
func locate(workspace, rel string) (string, error) {
	rel = filepath.FromSlash(rel)
	if !filepath.IsLocal(rel) {
		return "", chat.Errorf(chat.CodeInvalid, "the path %s is not inside the workspace", chat.Quote(rel))
	}
	return filepath.Join(workspace, rel), nil
}

func fileChange(taskID, workspace, rel string) chat.FileChange {
	return chat.FileChange{TaskID: taskID, Workspace: workspace, Path: filepath.ToSlash(filepath.Clean(filepath.FromSlash(rel)))}
}

// BeforeWrite keeps the file's state before a tool of the task changes it.
func (k *Keeper) BeforeWrite(ctx context.Context, taskID, workspace, rel string) error {
	abs, err := locate(workspace, rel)
	if err != nil {
		return err
	}
	k.mu.RLock()
	defer k.mu.RUnlock()
	c := fileChange(taskID, workspace, rel)
	if c.Before, err = k.keep(abs); err != nil {
		return err
	}
	return k.repo.KeepBefore(ctx, c)
}

// AfterWrite keeps the file's state after the tool ran, then prunes the
// oldest checkpoints if the contents kept are over the bound.
func (k *Keeper) AfterWrite(ctx context.Context, taskID, workspace, rel string) error {
	abs, err := locate(workspace, rel)
	if err != nil {
		return err
	}
	if err := k.keepAfter(ctx, fileChange(taskID, workspace, rel), abs); err != nil {
		return err
	}
	return k.Prune(ctx)
}

func (k *Keeper) keepAfter(ctx context.Context, c chat.FileChange, abs string) (err error) {
	k.mu.RLock()
	defer k.mu.RUnlock()
	if c.After, err = k.keep(abs); err != nil {
		return err
	}
	return k.repo.KeepAfter(ctx, c)
}

// Prune drops the oldest checkpoints until the contents kept fit the
// bound (or none is left to drop).
func (k *Keeper) Prune(ctx context.Context) error {
	k.mu.Lock()
	defer k.mu.Unlock()
	for k.Size() > k.options().MaxBytes {
		_, ok, err := k.repo.PruneOldestCheckpoint(ctx)
		if err != nil || !ok {
			return err
		}
		kept, err := k.repo.KeptHashes(ctx)
		if err != nil {
			return err
		}
		k.keepPinned(kept)
		if err := k.blobs.removeExcept(kept); err != nil {
			return err
		}
	}
	return nil
}

// pin keeps a snapshot's contents from being pruned until unpin.
func (k *Keeper) pin(files map[string]string) {
	k.pinMu.Lock()
	defer k.pinMu.Unlock()
	for _, h := range files {
		k.pinned[h]++
	}
}

func (k *Keeper) keepPinned(kept map[string]bool) {
	k.pinMu.Lock()
	defer k.pinMu.Unlock()
	for h := range k.pinned {
		kept[h] = true
	}
}

func (k *Keeper) unpin(files map[string]string) {
	k.pinMu.Lock()
	defer k.pinMu.Unlock()
	for _, h := range files {
		if k.pinned[h]--; k.pinned[h] <= 0 {
			delete(k.pinned, h)
		}
	}
}

// Package checkpoint keeps what a task's tools change in a workspace, so
// the person can undo a task's changes and undo the undo. Before a file
// tool changes a file, its before-image is kept; around run_command, which
// can change anything, the workspace is snapshotted and compared. Contents
// are kept once by their hash (see blobs); which task changed which file
// is kept by a Repo (SQLite). Storage is bounded and pruned oldest first.
package checkpoint

import (
	"context"
	"io/fs"
	"sync"

	"github.com/errand-app/errand/backend/chat"
)

// Repo records which task changed which file (the store implements it).
type Repo interface {
	KeepBefore(ctx context.Context, c chat.FileChange) error
	KeepAfter(ctx context.Context, c chat.FileChange) error
	Checkpoint(ctx context.Context, taskID string) (chat.Checkpoint, error)
	SetUndone(ctx context.Context, taskID string, undone bool) error
	SetDismissed(ctx context.Context, taskID string) error
	KeepTool(ctx context.Context, taskID, tool string) error
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
func (k *Keeper) Size() int64 { return k.blobs.total().Load() }

// notAFile stands for something at a path that is neither a regular file
// nor nothing (a folder, a link): never restored over, always a conflict.
const notAFile = "-"

// keep stores the current state of the file at rel and returns its hash:
// "" when there is no file, notAFile when something else is there. A file
// whose stamp says its content is kept already is not read again.
func (k *Keeper) keep(w *ws, rel string) (string, error) {
	info, hash, err := w.look(rel)
	if info == nil {
		return hash, err
	}
	if hash, ok := k.stamps.lookup(w.key(rel), info); ok && k.blobs.has(hash) {
		return hash, nil
	}
	return k.store(w, rel, info)
}

// keepExact is keep reading the file whatever its stamp says.
func (k *Keeper) keepExact(w *ws, rel string) (string, error) {
	info, hash, err := w.look(rel)
	if info == nil {
		return hash, err
	}
	return k.store(w, rel, info)
}

// store copies the regular file look found at rel into the contents kept.
// One larger than the storage limit is refused before a byte is copied.
func (k *Keeper) store(w *ws, rel string, info fs.FileInfo) (string, error) {
	limit := k.options().MaxBytes
	if info.Size() > limit {
		return "", errTooBig(rel, info.Size(), limit)
	}
	f, err := w.open(rel, info)
	if err != nil {
		return "", err
	}
	defer f.Close()
	hash, err := k.blobs.put(f, limit, func() error { return errTooBig(rel, limit+1, limit) })
	if err == nil {
		k.stamps.remember(w.key(rel), info, hash)
	}
	return hash, err
}

// current is the hash of what is at rel now, like keep without keeping.
// A file whose size and modification time are those it had when last
// hashed is not read again.
func (k *Keeper) current(w *ws, rel string) (string, error) {
	info, h, err := w.look(rel)
	if info == nil {
		return h, err
	}
	if h, ok := k.stamps.lookup(w.key(rel), info); ok {
		return h, nil
	}
	if h, err = k.fresh(w, rel, info); err == nil {
		k.stamps.remember(w.key(rel), info, h)
	}
	return h, err
}

// exact is the hash of what is at rel now, read afresh whatever its stamp
// says (a file rewritten with its size and time put back is seen).
func (k *Keeper) exact(w *ws, rel string) (string, error) {
	info, h, err := w.look(rel)
	if info == nil {
		return h, err
	}
	return k.fresh(w, rel, info)
}

// fresh hashes the regular file look found at rel, reading it again.
func (k *Keeper) fresh(w *ws, rel string, info fs.FileInfo) (string, error) {
	f, err := w.open(rel, info)
	if err != nil {
		return "", err
	}
	defer f.Close()
	return hash(f)
}

func fileChange(taskID, workspace, rel string) chat.FileChange {
	return chat.FileChange{TaskID: taskID, Workspace: workspace, Path: rel}
}

// BeforeWrite keeps the file's state before a tool of the task changes it.
func (k *Keeper) BeforeWrite(ctx context.Context, taskID, workspace, rel string) error {
	rel, err := clean(rel)
	if err != nil {
		return err
	}
	w, err := openWS(workspace)
	if err != nil {
		return err
	}
	defer w.close()
	k.mu.RLock()
	defer k.mu.RUnlock()
	c := fileChange(taskID, workspace, rel)
	if c.Before, err = k.keep(w, rel); err != nil {
		return err
	}
	return k.repo.KeepBefore(ctx, c)
}

// AfterWrite keeps the file's state after the tool ran, then prunes the
// oldest checkpoints if the contents kept are over the bound.
func (k *Keeper) AfterWrite(ctx context.Context, taskID, workspace, rel string) error {
	rel, err := clean(rel)
	if err != nil {
		return err
	}
	w, err := openWS(workspace)
	if err != nil {
		return err
	}
	defer w.close()
	if err := k.keepAfter(ctx, w, fileChange(taskID, workspace, rel)); err != nil {
		return err
	}
	return k.Prune(ctx)
}

func (k *Keeper) keepAfter(ctx context.Context, w *ws, c chat.FileChange) (err error) {
	k.mu.RLock()
	defer k.mu.RUnlock()
	if c.After, err = k.keep(w, c.Path); err != nil {
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

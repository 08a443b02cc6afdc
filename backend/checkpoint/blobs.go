package checkpoint

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
)

// blobs keeps file contents by their SHA-256, one file each, so the same
// content is kept once however many checkpoints need it.
type blobs struct {
	dir     string
	counted sync.Once
	size    atomic.Int64 // bytes kept: counted at first use (total), then on each put/remove
}

func openBlobs(dir string) (*blobs, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("checkpoint folder: %w", err)
	}
	return &blobs{dir: dir}, nil
}

// total is the bytes kept. The first call counts them, a walk of the
// folder (not at open: Errand's start does not wait for it); every put and
// remove calls it before it changes the folder, so none is counted twice.
func (b *blobs) total() *atomic.Int64 {
	b.counted.Do(func() {
		err := filepath.WalkDir(b.dir, func(_ string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			if info, err := d.Info(); err == nil {
				b.size.Add(info.Size())
			}
			return nil
		})
		if err != nil {
			slog.Error("count the checkpoints' contents", "err", err)
		}
	})
	return &b.size
}

func (b *blobs) path(hash string) string {
	return filepath.Join(b.dir, hash[:2], hash[2:])
}

func (b *blobs) has(hash string) bool {
	_, err := os.Stat(b.path(hash))
	return err == nil
}

// put copies what r holds, at most limit bytes, into the store and
// returns its hash; more than limit is refused (tooBig tells it) and
// nothing is kept.
func (b *blobs) put(r io.Reader, limit int64, tooBig func() error) (string, error) {
	size := b.total()
	tmp, err := os.CreateTemp(b.dir, "incoming-*")
	if err != nil {
		return "", err
	}
	defer os.Remove(tmp.Name())
	h := sha256.New()
	n, err := io.Copy(io.MultiWriter(tmp, h), io.LimitReader(r, limit+1))
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil && n > limit {
		err = tooBig()
	}
	if err != nil {
		return "", err
	}
	hash := hex.EncodeToString(h.Sum(nil))
	if b.has(hash) {
		return hash, nil
	}
	if err := os.MkdirAll(filepath.Dir(b.path(hash)), 0o700); err != nil {
		return "", err
	}
	if err := os.Rename(tmp.Name(), b.path(hash)); err != nil {
		return "", err
	}
	size.Add(n)
	return hash, nil
}

// open returns the content with hash; a pruned one is fs.ErrNotExist.
func (b *blobs) open(hash string) (*os.File, error) {
	return os.Open(b.path(hash))
}

// removeExcept deletes every content not in keep.
func (b *blobs) removeExcept(keep map[string]bool) error {
	entries, err := os.ReadDir(b.dir)
	if err != nil {
		return err
	}
	var errs []error
	for _, prefix := range entries {
		if !prefix.IsDir() {
			continue
		}
		files, err := os.ReadDir(filepath.Join(b.dir, prefix.Name()))
		errs = append(errs, err)
		for _, f := range files {
			if keep[prefix.Name()+f.Name()] {
				continue
			}
			errs = append(errs, b.remove(filepath.Join(b.dir, prefix.Name(), f.Name())))
		}
	}
	return errors.Join(errs...)
}

func (b *blobs) remove(path string) error {
	size := b.total()
	info, err := os.Stat(path)
	if err != nil {
		return err
	}
	if err := os.Remove(path); err != nil {
		return err
	}
	size.Add(-info.Size())
	return nil
}

// hash returns the SHA-256 of what r holds without keeping it.
func hash(r io.Reader) (string, error) {
	h := sha256.New()
	if _, err := io.Copy(h, r); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// read returns up to max bytes of the content with hash ("" is no file,
// so no bytes); more reports that there was more.
func (b *blobs) read(hash string, max int64) (data []byte, more bool, err error) {
	if hash == "" || hash == notAFile {
		return nil, false, nil
	}
	f, err := b.open(hash)
	if err != nil {
		return nil, false, err
	}
	defer f.Close()
	data, err = io.ReadAll(io.LimitReader(f, max+1))
	if int64(len(data)) > max {
		return data[:max], true, err
	}
	return data, false, err
}

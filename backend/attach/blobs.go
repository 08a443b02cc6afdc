package attach

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// blobs keeps contents by their SHA-256, one file each under dir/ab/cdef…,
// so the same content is kept once however many messages carry it. A
// content is written to a temporary file and renamed into place: a crash
// leaves a whole file or none (and a stray temporary file, removed at the
// next sweep).
type blobs struct {
	dir string
}

const tempPrefix = "incoming-"

func (b blobs) path(id string) string { return filepath.Join(b.dir, id[:2], id[2:]) }

func (b blobs) has(id string) bool {
	info, err := os.Lstat(b.path(id))
	return err == nil && info.Mode().IsRegular()
}

// put stores data as id unless it is already there.
func (b blobs) put(id string, data []byte) error {
	if b.has(id) {
		return nil
	}
	return writeAtomic(b.path(id), data)
}

func (b blobs) read(id string) ([]byte, error) {
	data, err := os.ReadFile(b.path(id))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("attachment %s is missing from the data folder", id[:12])
	}
	return data, err
}

func (b blobs) remove(id string) error {
	err := os.Remove(b.path(id))
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	return err
}

// list returns the ids of the stored contents, and removes temporary
// files a crash left behind.
func (b blobs) list() ([]string, error) {
	var ids []string
	err := filepath.WalkDir(b.dir, func(path string, d fs.DirEntry, err error) error {
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(b.dir, path)
		if strings.HasPrefix(d.Name(), tempPrefix) {
			return os.Remove(path)
		}
		if id := strings.Replace(filepath.ToSlash(rel), "/", "", 1); len(id) == 64 {
			ids = append(ids, id)
		}
		return nil
	})
	return ids, err
}

// writeAtomic writes data to path through a temporary file beside it.
func writeAtomic(path string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), tempPrefix+"*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	_, err = tmp.Write(data)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

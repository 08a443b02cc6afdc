// Package secrets keeps API keys out of every file Errand writes: in the
// OS keyring (Secret Service, Keychain, Credential Manager, through
// zalando/go-keyring), or — when no keyring answers — in a file only the
// user can read, with a note saying so. Every key it stores or reads is
// told to logfile.Secrets, so that the log never holds it.
package secrets

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"

	"github.com/errand-app/errand/backend/chat"
	"github.com/errand-app/errand/backend/logfile"
	"github.com/zalando/go-keyring"
)

// Where says where keys are kept.
type Where string

const (
	InKeyring Where = "keyring"
	InFile    Where = "file"
)

// Keyring is the part of an OS keyring Errand uses.
type Keyring interface {
	Set(service, user, secret string) error
	Get(service, user string) (string, error)
	Delete(service, user string) error
}

// OSKeyring is the system's keyring.
type OSKeyring struct{}

func (OSKeyring) Set(s, u, p string) error        { return keyring.Set(s, u, p) }
func (OSKeyring) Get(s, u string) (string, error) { return keyring.Get(s, u) }
func (OSKeyring) Delete(s, u string) error        { return keyring.Delete(s, u) }

const service = "Errand"

// Store keeps named secrets (one per provider).
type Store struct {
	ring   Keyring // nil when no keyring is available
	file   string
	mu     sync.Mutex
	probed sync.Once
	where  Where // set by place
}

// Open keeps keys in the keyring if it works, else (no Secret Service on
// this desktop, say) in dir/secrets.json, mode 0600. The keyring is
// probed when a key is first asked for, not here: Errand's window does
// not wait for the keyring to answer.
func Open(ring Keyring, dir string) *Store {
	return &Store{ring: ring, file: filepath.Join(dir, "secrets.json")}
}

// place is where keys are kept, the keyring probed the first time.
func (s *Store) place() Where {
	s.probed.Do(func() {
		s.where = InFile
		if s.ring == nil {
			return
		}
		const probe = "errand-probe"
		if err := s.ring.Set(service, probe, "ok"); err == nil {
			if v, err := s.ring.Get(service, probe); err == nil && v == "ok" {
				s.where = InKeyring
			}
			_ = s.ring.Delete(service, probe)
		}
	})
	return s.where
}

// Where tells where keys are kept.
func (s *Store) Where() Where { return s.place() }

// Note is a sentence for the settings view about where keys are kept.
func (s *Store) Note() string {
	if s.place() == InKeyring {
		return "API keys are kept in your system keyring."
	}
	return fmt.Sprintf("No system keyring is available, so API keys are kept in %s, readable only by you.", s.file)
}

// Set stores a secret; an empty one deletes it. A secret that could not
// travel in a request header (a line break, NUL, another control
// character; see chat.CheckKey) is refused.
func (s *Store) Set(name, secret string) error {
	if secret == "" {
		return s.Delete(name)
	}
	if err := chat.CheckKey(secret); err != nil {
		return err
	}
	logfile.Secrets.Add(secret)
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.place() == InKeyring {
		if err := s.ring.Set(service, name, secret); err != nil {
			return fmt.Errorf("save the key in the keyring: %w", err)
		}
		return nil
	}
	all, err := s.readFile()
	if err != nil {
		return err
	}
	all[name] = secret
	return s.writeFile(all)
}

// Get returns a secret, "" if there is none.
func (s *Store) Get(name string) (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.place() == InKeyring {
		v, err := s.ring.Get(service, name)
		if errors.Is(err, keyring.ErrNotFound) {
			return "", nil
		}
		if err != nil {
			return "", fmt.Errorf("read the key from the keyring: %w", err)
		}
		logfile.Secrets.Add(v)
		return v, nil
	}
	all, err := s.readFile()
	return all[name], err
}

// Delete removes a secret.
func (s *Store) Delete(name string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.place() == InKeyring {
		if err := s.ring.Delete(service, name); err != nil && !errors.Is(err, keyring.ErrNotFound) {
			return fmt.Errorf("delete the key from the keyring: %w", err)
		}
		return nil
	}
	all, err := s.readFile()
	if err != nil {
		return err
	}
	delete(all, name)
	return s.writeFile(all)
}

func (s *Store) readFile() (map[string]string, error) {
	all := map[string]string{}
	b, err := os.ReadFile(s.file)
	if errors.Is(err, os.ErrNotExist) {
		return all, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read the key file: %w", err)
	}
	if err := json.Unmarshal(b, &all); err != nil {
		return nil, fmt.Errorf("the key file %s is damaged: %w", s.file, err)
	}
	for _, secret := range all {
		logfile.Secrets.Add(secret)
	}
	return all, nil
}

// writeFile replaces the file atomically, readable only by the user.
func (s *Store) writeFile(all map[string]string) error {
	b, err := json.MarshalIndent(all, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(s.file), 0o700); err != nil {
		return fmt.Errorf("save the key: %w", err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(s.file), ".secrets-*")
	if err != nil {
		return fmt.Errorf("save the key: %w", err)
	}
	defer os.Remove(tmp.Name())
	if err := tmp.Chmod(0o600); err != nil {
		tmp.Close()
		return fmt.Errorf("save the key: %w", err)
	}
	if _, err := tmp.Write(b); err != nil {
		tmp.Close()
		return fmt.Errorf("save the key: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("save the key: %w", err)
	}
	if err := os.Rename(tmp.Name(), s.file); err != nil {
		return fmt.Errorf("save the key: %w", err)
	}
	return nil
}

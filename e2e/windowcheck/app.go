package main

import (
	"bufio"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	_ "modernc.org/sqlite"
)

// bound is how long any one state is waited for: far more than a loaded
// machine needs, so only a broken build reaches it.
const bound = 2 * time.Minute

// poll checks cond about every quarter second until it holds or fails;
// what names the awaited state in the error after bound.
func poll(ctx context.Context, what string, cond func() (bool, error)) error {
	ctx, cancel := context.WithTimeout(ctx, bound)
	defer cancel()
	for {
		ok, err := cond()
		if err != nil || ok {
			return err
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("waited %s for %s", bound, what)
		case <-time.After(250 * time.Millisecond):
		}
	}
}

// started is a child process and its process group, ended by stop.
type started struct{ cmd *exec.Cmd }

// command prepares name in a process group of its own, env added to ours.
func command(name string, env []string, args ...string) *started {
	cmd := exec.Command(name, args...)
	cmd.Env = append(os.Environ(), env...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Stderr = os.Stderr
	return &started{cmd: cmd}
}

// stop ends the process's group (the app's WebKit processes with it),
// killing it if it has not ended within bound.
func (s *started) stop() {
	if s.cmd.Process == nil {
		return
	}
	pgid := -s.cmd.Process.Pid
	_ = syscall.Kill(pgid, syscall.SIGTERM)
	done := make(chan struct{})
	go func() {
		_ = s.cmd.Wait()
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(bound):
		_ = syscall.Kill(pgid, syscall.SIGKILL)
		<-done
	}
}

// startApp starts the production build on a data folder of its own, its
// output to logPath.
func startApp(app, dataDir, logPath string, env ...string) (*started, error) {
	env = append([]string{"ERRAND_DATA_DIR=" + dataDir, "NO_AT_BRIDGE=1", "DBUS_SESSION_BUS_ADDRESS=disabled:"}, env...)
	s := command(app, env)
	log, err := os.Create(logPath)
	if err != nil {
		return nil, err
	}
	s.cmd.Stdout, s.cmd.Stderr = log, log
	return s, s.cmd.Start()
}

// startModel starts the scripted model server and returns its base URL.
func startModel(bin string) (*started, string, error) {
	s := command(bin, nil)
	out, err := s.cmd.StdoutPipe()
	if err != nil {
		return nil, "", err
	}
	if err := s.cmd.Start(); err != nil {
		return nil, "", err
	}
	line, err := bufio.NewReader(out).ReadString('\n')
	url, ok := strings.CutPrefix(strings.TrimSpace(line), "listening ")
	if err != nil || !ok {
		s.stop()
		return nil, "", fmt.Errorf("the model server did not say where it listens: %q %v", line, err)
	}
	return s, url, nil
}

// store reads the app's database while it runs, read-only.
type store struct{ db *sql.DB }

func openStore(ctx context.Context, dataDir string) (*store, error) {
	path := filepath.Join(dataDir, "errand.db")
	err := poll(ctx, "the app's database", func() (bool, error) {
		_, err := os.Stat(path)
		return err == nil, nil
	})
	if err != nil {
		return nil, err
	}
	db, err := sql.Open("sqlite", "file:"+path+"?mode=ro&_pragma=busy_timeout(10000)")
	return &store{db: db}, err
}

func (s *store) close() { _ = s.db.Close() }

// number runs a query whose answer is one integer; a table the app has not
// made yet counts as zero.
func (s *store) number(ctx context.Context, query string, args ...any) (int, error) {
	var n int
	err := s.db.QueryRowContext(ctx, query, args...).Scan(&n)
	if err != nil && strings.Contains(err.Error(), "no such table") {
		return 0, nil
	}
	return n, err
}

// taskStatus is the status of the latest task whose prompt holds text
// ("" before there is one).
func (s *store) taskStatus(ctx context.Context, text string) (string, error) {
	var status string
	err := s.db.QueryRowContext(ctx, `SELECT status FROM tasks WHERE instr(original_prompt, ?) > 0 ORDER BY started_at DESC LIMIT 1`, text).Scan(&status)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	return status, err
}

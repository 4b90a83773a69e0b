package filelock

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// Lock is a held lock file.
type Lock struct {
	path string
	f    *os.File
}

// HeldError is the error of Acquire on a lock another process holds.
type HeldError struct {
	Path   string
	Holder string // "process PID on HOST since TIME", as the holder wrote it; "" if unreadable
}

func (e *HeldError) Error() string {
	if e.Holder == "" {
		return fmt.Sprintf("%s is locked by another process", e.Path)
	}
	return fmt.Sprintf("%s is locked by %s", e.Path, e.Holder)
}

// Acquire takes the lock file path, creating it, or fails at once with a *HeldError naming
// the holder when another process holds it. A file left by a process that has ended is
// taken over.
func Acquire(path string) (*Lock, error) {
	for try := 0; ; try++ {
		f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
		if err != nil {
			return nil, fmt.Errorf("filelock: %w", err)
		}
		locked, err := TryLock(f)
		if err != nil {
			f.Close()
			return nil, fmt.Errorf("filelock: %s: %w", path, err)
		}
		if !locked {
			holder, _ := io.ReadAll(io.LimitReader(f, 512))
			f.Close()
			return nil, &HeldError{Path: path, Holder: strings.TrimSpace(string(holder))}
		}
		// The holder before us may have removed the file between our open and our lock:
		// then we hold a file that no longer has the name, and must start again.
		if same, err := stillNamed(f, path); err != nil || !same {
			f.Close()
			if err != nil || try == 100 {
				return nil, fmt.Errorf("filelock: %s keeps changing under the lock: %v", path, err)
			}
			continue
		}
		host, _ := os.Hostname()
		note := fmt.Sprintf("process %d on %s since %s\n", os.Getpid(), host, time.Now().UTC().Format(time.RFC3339))
		if err := f.Truncate(0); err == nil {
			f.WriteAt([]byte(note), 0) // only a note for the message of the next process
		}
		return &Lock{path: path, f: f}, nil
	}
}

// stillNamed reports whether path leads to the open file f.
func stillNamed(f *os.File, path string) (bool, error) {
	held, err := f.Stat()
	if err != nil {
		return false, err
	}
	named, err := os.Stat(path)
	if errors.Is(err, os.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	return os.SameFile(held, named), nil
}

// Path is the lock file's name.
func (l *Lock) Path() string { return l.path }

// Release removes the lock file and then lets the lock go; it may be called more than once.
func (l *Lock) Release() error {
	if l == nil || l.f == nil {
		return nil
	}
	err := os.Remove(l.path) // while still held: see the package comment
	if cerr := l.f.Close(); err == nil {
		err = cerr
	}
	l.f = nil
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("filelock: %w", err)
	}
	return nil
}

// Beside is the conventional lock file of path: the hidden file .NAME.lock in its directory
// (shell globs such as *.jsonl* leave it out).
func Beside(path string) string {
	return filepath.Join(filepath.Dir(path), "."+filepath.Base(path)+".lock")
}

package atomicfile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/shogilab/shogilab/internal/filelock"
)

// File is a file being written for a final name; Commit puts it there.
type File struct {
	path string
	f    *os.File
	done bool
}

// Create starts a file for path, whose directory must exist. It first removes the
// temporary files that killed writers of path left (see the package comment). The file gets
// mode 0644 less the umask, as a command's other outputs.
func Create(path string) (*File, error) {
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	if base == "" {
		return nil, fmt.Errorf("atomicfile: %q names no file", path)
	}
	RemoveStale(path)
	for try := 0; ; try++ {
		name := filepath.Join(dir, tempName(base, os.Getpid(), try))
		f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if errors.Is(err, fs.ErrExist) && try < 1000 {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("atomicfile: %w", err)
		}
		// Marked as ours before a cleaner of another process can take it for a dead one's;
		// a cleaner that got in between has removed the name, and we take another.
		locked, err := filelock.TryLock(f)
		if err == nil && locked {
			if st, serr := os.Stat(name); serr == nil {
				if own, _ := f.Stat(); os.SameFile(st, own) {
					return &File{path: path, f: f}, nil
				}
			}
		}
		f.Close()
		if err != nil {
			os.Remove(name)
			return nil, fmt.Errorf("atomicfile: %s: %w", name, err)
		}
	}
}

// tempName is the temporary name of a writer of base: .BASE.PID-TRY.tmp.
func tempName(base string, pid, try int) string {
	return fmt.Sprintf(".%s.%d-%d.tmp", base, pid, try)
}

// parseTemp returns the process id in name when name is a temporary file of base.
func parseTemp(name, base string) (pid int, ok bool) {
	rest, ok := strings.CutPrefix(name, "."+base+".")
	if !ok {
		return 0, false
	}
	rest, ok = strings.CutSuffix(rest, ".tmp")
	if !ok {
		return 0, false
	}
	p, n, ok := strings.Cut(rest, "-")
	if !ok {
		return 0, false
	}
	pid, err := strconv.Atoi(p)
	if _, err2 := strconv.Atoi(n); err != nil || err2 != nil || pid <= 0 {
		return 0, false
	}
	return pid, true
}

// Write is the file's io.Writer.
func (f *File) Write(p []byte) (int, error) { return f.f.Write(p) }

// Name is the temporary file's name, for messages.
func (f *File) Name() string { return f.f.Name() }

// Commit syncs the file, closes it, renames it over the final name and syncs the directory.
// On an error the temporary file is removed and the final name keeps what it held.
func (f *File) Commit() error {
	if f.done {
		return fmt.Errorf("atomicfile: %s: already committed or aborted", f.path)
	}
	f.done = true
	tmp := f.f.Name()
	err := f.f.Sync()
	if cerr := f.f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, f.path)
	}
	if err != nil {
		os.Remove(tmp)
		return fmt.Errorf("atomicfile: %s: %w", f.path, err)
	}
	return syncDir(filepath.Dir(f.path))
}

// Abort closes and removes the temporary file; after Commit it does nothing, so that it
// can be deferred.
func (f *File) Abort() {
	if f.done {
		return
	}
	f.done = true
	f.f.Close()
	os.Remove(f.f.Name())
}

// Write writes path with what fn writes, committing it when fn and the writes succeed.
func Write(path string, fn func(w io.Writer) error) error {
	f, err := Create(path)
	if err != nil {
		return err
	}
	defer f.Abort()
	if err := fn(f); err != nil {
		return err
	}
	return f.Commit()
}

// WriteFile writes data to path.
func WriteFile(path string, data []byte) error {
	return Write(path, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// syncDir makes a rename in dir durable. A directory that cannot be opened for it (some
// network file systems) only loses that durability; its error is not the write's.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return nil
	}
	defer d.Close()
	if err := d.Sync(); err != nil && !errors.Is(err, os.ErrInvalid) && !isUnsupported(err) {
		return fmt.Errorf("atomicfile: sync %s: %w", dir, err)
	}
	return nil
}

// RemoveStale removes the temporary files that killed writers of path left beside it: those
// whose lock is free and whose process id is not a running process (see the package
// comment). It returns the names removed. Create calls it.
func RemoveStale(path string) []string {
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var removed []string
	for _, e := range entries {
		pid, ok := parseTemp(e.Name(), base)
		if !ok || !e.Type().IsRegular() || processRuns(pid) {
			continue
		}
		name := filepath.Join(dir, e.Name())
		f, err := os.OpenFile(name, os.O_RDWR, 0)
		if err != nil {
			continue
		}
		if locked, err := filelock.TryLock(f); err == nil && locked {
			if st, err := os.Stat(name); err == nil {
				if own, err := f.Stat(); err == nil && os.SameFile(st, own) && os.Remove(name) == nil {
					removed = append(removed, name)
				}
			}
		}
		f.Close()
	}
	return removed
}

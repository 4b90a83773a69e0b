//go:build unix

package selfplay

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
)

// lockShard takes an exclusive lock for the shard whose record file is path, so that a
// second run on the same shard and directory (a resubmitted cluster job) refuses at once
// instead of writing the same games twice. The lock is flock(2) on a hidden file beside the
// record (.NAME.lock: shell globs such as *.jsonl* leave it out); the kernel drops it when
// the process ends, however it ends. unlock releases it.
func lockShard(path string) (unlock func(), err error) {
	name := filepath.Join(filepath.Dir(path), "."+filepath.Base(path)+".lock")
	f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("selfplay: lock: %w", err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, fmt.Errorf("selfplay: %s is being written by another run (%s is locked): wait for it to end or use another --out", path, name)
		}
		return nil, fmt.Errorf("selfplay: lock %s: %w", name, err)
	}
	return func() { f.Close() }, nil
}

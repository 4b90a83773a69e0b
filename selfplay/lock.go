package selfplay

import (
	"errors"
	"fmt"

	"github.com/shogilab/shogilab/internal/filelock"
)

// lockShard takes the lock of the shard whose record file is path, so that a second run on
// the same shard and directory (a resubmitted cluster job) refuses at once instead of
// writing the same games twice. The lock is a hidden file beside the record (.NAME.lock:
// shell globs such as *.jsonl* leave it out), held by package filelock: a killed run's lock
// is taken over, and unlock removes the file.
func lockShard(path string) (unlock func(), err error) {
	l, err := filelock.Acquire(filelock.Beside(path))
	var held *filelock.HeldError
	if errors.As(err, &held) {
		return nil, fmt.Errorf("selfplay: %s is being written by another run (%s): wait for it to end or use another --out", path, held)
	}
	if err != nil {
		return nil, fmt.Errorf("selfplay: lock: %w", err)
	}
	return func() { l.Release() }, nil
}

package filelock_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/shogilab/shogilab/internal/filelock"
)

// A second holder is refused while the first holds the lock; the lock file goes with the
// release.
func ExampleAcquire() {
	dir, _ := os.MkdirTemp("", "filelock")
	defer os.RemoveAll(dir)
	path := filelock.Beside(filepath.Join(dir, "run.ckpt"))
	fmt.Println(filepath.Base(path))

	l, _ := filelock.Acquire(path)
	_, err := filelock.Acquire(path)
	var held *filelock.HeldError
	fmt.Println(errors.As(err, &held))

	l.Release()
	_, err = os.Stat(path)
	fmt.Println(os.IsNotExist(err))
	// Output:
	// .run.ckpt.lock
	// true
	// true
}

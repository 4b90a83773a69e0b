//go:build unix

package atomicfile

import (
	"errors"
	"syscall"
)

// processRuns reports whether a process with id pid exists here (it may belong to another
// user: kill answers EPERM then).
func processRuns(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}

// isUnsupported is an fsync of a directory that the file system does not offer.
func isUnsupported(err error) bool {
	return errors.Is(err, syscall.EINVAL) || errors.Is(err, syscall.ENOTSUP)
}

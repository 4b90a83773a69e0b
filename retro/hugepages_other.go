//go:build !linux

package retro

// hugePages is a no-op where the kernel has no madvise hint for huge pages (see the Linux
// version).
func hugePages[T any](s []T) {}

package retro

import (
	"syscall"
	"unsafe"
)

// hugePages asks the kernel to back the memory of s with huge pages (madvise
// MADV_HUGEPAGE; Linux's transparent huge pages, which many systems give only to memory
// that asks, /sys/kernel/mm/transparent_hugepage/enabled = madvise). A table of hundreds of
// megabytes probed at random then faults in 2 MiB at a time instead of 4 KiB, and its
// probes miss the TLB far less. The advice is a hint: where it is refused nothing changes.
func hugePages[T any](s []T) {
	const page = 4096
	n := uintptr(len(s)) * unsafe.Sizeof(*new(T))
	if n < 2<<20 {
		return
	}
	start := uintptr(unsafe.Pointer(unsafe.SliceData(s)))
	aligned := (start + page - 1) &^ (page - 1)
	if aligned-start >= n {
		return
	}
	b := unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(s))), n)[aligned-start:]
	b = b[:len(b)&^(page-1)]
	_ = syscall.Madvise(b, syscall.MADV_HUGEPAGE)
}

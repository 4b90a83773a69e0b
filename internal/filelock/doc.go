// Package filelock keeps two processes off one run directory, shard or checkpoint: a lock
// is a small file that names its holder, held with flock(2). The kernel drops an flock when
// its process ends, however it ends, so a lock left by a killed run is free for the next
// one without any guessing from process ids or ages; a clean Release removes the file.
//
//	l, err := filelock.Acquire(filepath.Join(dir, ".lock"))
//	if err != nil {
//		return err // "... is locked by process 1234 on host h since ..."
//	}
//	defer l.Release()
//
// Removing a lock file is safe only with a check on the other side: a process may open the
// file just before its holder removes it and then lock a file no longer in the directory.
// Acquire therefore checks, once it holds the lock, that the name still leads to the file
// it locked, and starts again if not. TryLock is the same flock on a file the caller has
// open (package atomicfile marks its temporary files with it).
//
// Where flock(2) does not exist (not unix), Acquire takes nothing and a second process is
// not detected.
package filelock

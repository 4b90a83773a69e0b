// Package atomicfile is the one way the commands write a final file: an evaluation file, a
// proof, a certificate, a checkpoint, a merged record file, a table, a figure. The content
// goes to a temporary file in the same directory, which is synced and then renamed over the
// final name, and the directory is synced after the rename. A process killed at any moment,
// or a full disk, therefore leaves under the final name either the previous file, whole, or
// the new one, whole, and never a part of either.
//
//	err := atomicfile.Write(path, func(w io.Writer) error {
//		return solver.WriteProof(w, root, attacker, proof)
//	})
//
// The temporary file is named .NAME.PID-N.tmp (hidden, so shell globs such as *.jsonl leave
// it out), unique to its process and try, and its writer holds an flock(2) on it
// (package filelock): two processes writing one path never share a temporary file, and the
// last rename wins with a whole file. An error removes the temporary file. A process killed
// mid-write leaves its temporary file behind; the next Create for the same final name
// removes it, and only such a file: one whose lock is free (its process has ended, so no
// writer on another host sharing the directory holds it) and whose process id is not a
// running process here.
package atomicfile

// Package learning is the learning curve of a self-play loop run (train loop, package
// train/loop), from the run's logs alone: RUN/loop.jsonl, a line per generation with its
// network's rating on the ladder (analysis/ladder), and RUN/gen-NNN/times.json, each step's
// CPU seconds. A point is a generation: the Elo on the ladder with its 95% interval, against
// the cumulative CPU-hours that made the network (self-play, fit and gate; the rating
// matches measure it and are not counted) and against the cumulative self-play games, the
// two x axes KataGo and Leela Chess Zero publish their curves on.
//
//	pts, err := learning.Read("run1")
//	p, err := learning.Plot(pts, learning.ByCPUHours)
package learning
